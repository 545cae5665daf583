import { readFileSync, readdirSync } from "node:fs";
import { resolve } from "node:path";
import Ajv2020 from "ajv/dist/2020";
import { explicitFrom, fromScenarioDocument, toScenarioDocument, NEW_SCENARIO } from "./model";
import { historyReducer, type History } from "./reducer";
import { tieredLayout } from "../../../lib/topology/layout";
import type { Scenario } from "../../../lib/scenario/types";

const docs = resolve(__dirname, "../../../../../docs");
const schema = JSON.parse(readFileSync(resolve(docs, "scenario.schema.json"), "utf8"));
const ajv = new Ajv2020({ strict: false, allErrors: true });
const validate = ajv.compile(schema);
const conforms = (doc: unknown) => {
  const ok = validate(doc);
  if (!ok) throw new Error(ajv.errorsText(validate.errors));
  return ok;
};
const examples = readdirSync(resolve(docs, "examples/valid")).filter((f) => f.endsWith(".json"));

describe("editor <-> scenario document", () => {
  it.each(examples)("round-trips %s unchanged and schema-valid", (file) => {
    const doc = JSON.parse(readFileSync(resolve(docs, "examples/valid", file), "utf8")) as Scenario;
    const state = fromScenarioDocument(doc, "abc");
    const out = toScenarioDocument(state);
    expect(conforms(out)).toBe(true);
    const again = fromScenarioDocument(out, "abc");
    expect(again).toEqual(state);
    expect(toScenarioDocument(again)).toEqual(out);
  });

  it("rejects what the schema forbids (the check can fail)", () => {
    expect(() => conforms({ ...NEW_SCENARIO, bogus: 1 })).toThrow();
  });

  it("an edited generated fabric becomes an explicit, schema-valid topology that round-trips", () => {
    const graph = tieredLayout(
      [
        { id: "h0", kind: "host", tier: 0, group: "leaf0" },
        { id: "h1", kind: "host", tier: 0, group: "leaf0" },
        { id: "leaf0", kind: "switch", tier: 1 },
        { id: "spine0", kind: "switch", tier: 2 },
      ],
      [
        { id: 0, a: "h0", b: "leaf0", rate_gbps: 100, delay_us: 1 },
        { id: 1, a: "h1", b: "leaf0", rate_gbps: 100, delay_us: 1 },
        { id: 2, a: "leaf0", b: "spine0", rate_gbps: 400, delay_us: 1 },
      ],
    );
    let h: History = { past: [], present: fromScenarioDocument(NEW_SCENARIO), future: [] };
    h = historyReducer(h, { type: "addNode", kind: "host", x: 400, y: 240, graph });
    h = historyReducer(h, { type: "addLink", a: "h2", b: "spine0", graph: null });
    h = historyReducer(h, { type: "updateLinks", indices: [2], patch: { length_km: 10 }, graph: null });
    h = historyReducer(h, { type: "setField", path: "switch.ecn.kmin_bytes", value: 5000 });
    h = historyReducer(h, { type: "setOverride", scope: "switch", ids: ["leaf0"], path: "ecn.pmax", value: 0.5 });
    h = historyReducer(h, { type: "addTraffic", generator: { kind: "incast", senders: ["h1", "h2"], receiver: "h0", size_bytes: 0 } });
    const doc = toScenarioDocument(h.present);
    expect(doc.topology.kind).toBe("explicit");
    const topo = doc.topology as Extract<Scenario["topology"], { kind: "explicit" }>;
    expect(topo.nodes).toHaveLength(5);
    expect(topo.links[2]).toEqual({ a: "leaf0", b: "spine0", rate_gbps: 400, length_km: 10 });
    expect(topo.nodes.find((n) => n.id === "h2")).toMatchObject({ kind: "host", x: 400, y: 240 });
    expect(conforms(doc)).toBe(true);
    expect(toScenarioDocument(fromScenarioDocument(doc))).toEqual(doc);
  });

  it("undo and redo walk the history; deleting a node drops its links and overrides", () => {
    let h: History = { past: [], present: fromScenarioDocument({ ...NEW_SCENARIO, topology: { kind: "explicit", nodes: [
      { id: "a", kind: "switch", tier: 1 }, { id: "b", kind: "switch", tier: 1 }], links: [{ a: "a", b: "b", rate_gbps: 100, delay_us: 1 }] } }), future: [] };
    h = historyReducer(h, { type: "setOverride", scope: "switch", ids: ["b"], path: "ecn.kmin_bytes", value: 1 });
    h = historyReducer(h, { type: "deleteNodes", ids: ["b"], graph: null });
    const after = toScenarioDocument(h.present);
    expect((after.topology as { links: unknown[] }).links).toHaveLength(0);
    expect(after.switch_overrides).toBeUndefined();
    h = historyReducer(h, { type: "undo" });
    expect((h.present.doc.topology as { nodes: unknown[] }).nodes).toHaveLength(2);
    h = historyReducer(h, { type: "redo" });
    expect((h.present.doc.topology as { nodes: unknown[] }).nodes).toHaveLength(1);
    expect(h.present.dirty).toBe(true);
  });
});

describe("a rail-optimized fabric edited on the canvas", () => {
  it("keeps each host's server when it becomes explicit (its rail follows from the node order)", () => {
    const nodes = [
      { id: "h0", kind: "host" as const, tier: 0, group: "leaf0_0", server: "srv0", rail: 0 },
      { id: "h1", kind: "host" as const, tier: 0, group: "leaf0_1", server: "srv0", rail: 1 },
      { id: "leaf0_0", kind: "switch" as const, tier: 1, group: "su0", server: null as unknown as undefined },
      { id: "leaf0_1", kind: "switch" as const, tier: 1, group: "su0" },
    ];
    const links = [
      { id: 0, a: "h0", b: "leaf0_0", rate_gbps: 400, delay_us: 1 },
      { id: 1, a: "h1", b: "leaf0_1", rate_gbps: 400, delay_us: 1 },
      { id: 2, a: "leaf0_0", b: "leaf0_1", rate_gbps: 400, delay_us: 1 },
    ];
    const explicit = explicitFrom({ kind: "rail_optimized" }, tieredLayout(nodes, links));
    expect(explicit.nodes.map((n) => [n.id, n.server])).toEqual([
      ["h0", "srv0"], ["h1", "srv0"], ["leaf0_0", undefined], ["leaf0_1", undefined]]);
    const doc = toScenarioDocument(fromScenarioDocument({ ...NEW_SCENARIO, topology: explicit } as Scenario, "abc"));
    expect(conforms(doc)).toBe(true);
    expect((doc.topology as { nodes: { server?: string }[] }).nodes.map((n) => n.server)).toEqual(["srv0", "srv0", undefined, undefined]);
  });
});
