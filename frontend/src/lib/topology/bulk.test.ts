import { globToRegExp, podOf, podsOf, selectNodes } from "./bulk";
import { type History, historyReducer } from "../../features/scenarios/editor/reducer";
import { NEW_SCENARIO, fromScenarioDocument, toScenarioDocument } from "../../features/scenarios/editor/model";
import type { LayoutNode } from "../topology/types";

/** A k = 4 fat tree named and grouped as `fabricsim expand` names it (topology-generators.cc). */
function fatTreeK4(): LayoutNode[] {
  const nodes: LayoutNode[] = [];
  const at = { x: 0, y: 0 };
  for (let i = 0; i < 16; i += 1) nodes.push({ id: `h${i}`, kind: "host", tier: 0, group: `edge${Math.floor(i / 4)}_${Math.floor(i / 2) % 2}`, ...at });
  for (let p = 0; p < 4; p += 1) for (let i = 0; i < 2; i += 1) nodes.push({ id: `edge${p}_${i}`, kind: "switch", tier: 1, group: `pod${p}`, ...at });
  for (let p = 0; p < 4; p += 1) for (let i = 0; i < 2; i += 1) nodes.push({ id: `agg${p}_${i}`, kind: "switch", tier: 2, group: `pod${p}`, ...at });
  for (let i = 0; i < 4; i += 1) nodes.push({ id: `core${i}`, kind: "switch", tier: 3, group: "core", ...at });
  return nodes;
}

describe("bulk selection", () => {
  const nodes = fatTreeK4();
  const byId = new Map(nodes.map((n) => [n.id, n]));

  it("finds each node's pod: switches by group, hosts through their edge switch, cores in none", () => {
    expect(podOf(byId.get("agg2_1")!, byId)).toBe("pod2");
    expect(podOf(byId.get("h5")!, byId)).toBe("pod1");
    expect(podOf(byId.get("core0")!, byId)).toBeNull();
    expect(podsOf(nodes)).toEqual(["pod0", "pod1", "pod2", "pod3"]);
  });

  it("selects by tier, pod and pattern, and by all three together", () => {
    expect(selectNodes(nodes, { tier: 3 })).toEqual(["core0", "core1", "core2", "core3"]);
    expect(selectNodes(nodes, { pod: "pod1" })).toEqual(["h4", "h5", "h6", "h7", "edge1_0", "edge1_1", "agg1_0", "agg1_1"]);
    expect(selectNodes(nodes, { pattern: "edge*_0" })).toEqual(["edge0_0", "edge1_0", "edge2_0", "edge3_0"]);
    expect(selectNodes(nodes, { pattern: "h1?" })).toEqual(["h10", "h11", "h12", "h13", "h14", "h15"]);
    expect(selectNodes(nodes, { tier: 2, pod: "pod3", pattern: "*_1" })).toEqual(["agg3_1"]);
    expect(selectNodes(nodes, { tier: 1, pattern: "nothing*" })).toEqual([]);
  });

  it("treats pattern characters other than * and ? literally", () => {
    expect(globToRegExp("a.b").test("a.b")).toBe(true);
    expect(globToRegExp("a.b").test("axb")).toBe(false);
    expect(globToRegExp("(x)").test("(x)")).toBe(true);
  });

  it("writes one override per selected node, as one undoable edit", () => {
    const ids = selectNodes(nodes, { tier: 1, pod: "pod0" });
    let h: History = { past: [], present: fromScenarioDocument(NEW_SCENARIO), future: [] };
    h = historyReducer(h, { type: "setOverride", scope: "switch", ids, path: "ecn.kmin_bytes", value: 50000 });
    expect(toScenarioDocument(h.present).switch_overrides).toEqual({
      edge0_0: { ecn: { kmin_bytes: 50000 } }, edge0_1: { ecn: { kmin_bytes: 50000 } },
    });
    h = historyReducer(h, { type: "undo" });
    expect(toScenarioDocument(h.present).switch_overrides).toBeUndefined();
  });
});

describe("pods of a generated fabric turned explicit (ids kept, groups lost)", () => {
  it("reads the pod from the generator's switch names", () => {
    const at = { x: 0, y: 0 };
    const nodes: LayoutNode[] = [
      { id: "tor2_5", kind: "switch", tier: 1, ...at }, { id: "leaf2_1", kind: "switch", tier: 2, ...at },
      { id: "agg3_0", kind: "switch", tier: 2, ...at }, { id: "spine0", kind: "switch", tier: 3, ...at },
      { id: "h9", kind: "host", tier: 0, group: "tor2_5", ...at },
    ];
    expect(podsOf(nodes)).toEqual(["pod3", "podset2"]);
    expect(selectNodes(nodes, { pod: "podset2" })).toEqual(["tor2_5", "leaf2_1", "h9"]);
  });
});
