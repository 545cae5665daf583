import { parameterRows } from "./paramTable";
import { NEW_SCENARIO } from "../../features/scenarios/editor/model";
import type { Scenario } from "./types";

describe("share page parameter table", () => {
  const parent: Scenario = { ...NEW_SCENARIO, switch: { ecn: { kmin_bytes: 5000, kmax_bytes: 5500 } }, traffic: [{ kind: "incast", senders: ["h2", "h3"], receiver: "h0" }] };
  const child: Scenario = { ...parent, duration_us: 10_000, switch: { ecn: { kmin_bytes: 5000, kmax_bytes: 200_000 } } };

  it("highlights what differs from the parent, with labels and units from the glossary", () => {
    const rows = parameterRows(child, parent);
    const changed = rows.filter((r) => r.changed);
    expect(changed.map((r) => r.path).sort()).toEqual(["duration_us", "switch.ecn.kmax_bytes"]);
    const kmax = rows.find((r) => r.path === "switch.ecn.kmax_bytes")!;
    expect(kmax).toMatchObject({ section: "Switch", label: "ECN Kmax", unit: "bytes", value: "200,000", base: "5,500" });
    expect(rows.find((r) => r.path === "traffic.0.senders")).toMatchObject({ value: "h2, h3", changed: false });
    expect(rows.find((r) => r.path === "topology.kind")).toMatchObject({ value: "leaf_spine", section: "Topology" });
  });

  it("compares with the defaults when there is no parent (unset fields show the default)", () => {
    const rows = parameterRows(child, null);
    expect(rows.find((r) => r.path === "switch.ecn.kmin_bytes")).toMatchObject({ value: "5,000", base: "100,000", changed: true });
    expect(rows.find((r) => r.path === "switch.ecn.pmax")).toMatchObject({ value: "0.2", base: "0.2", changed: false });
    expect(rows.find((r) => r.path === "topology.leaves")!.changed).toBe(false);
  });

  it("summarises explicit node and link lists", () => {
    const doc: Scenario = { ...NEW_SCENARIO, topology: { kind: "explicit", nodes: [{ id: "a", kind: "host" }, { id: "s", kind: "switch" }], links: [{ a: "a", b: "s", rate_gbps: 100 }] } };
    const rows = parameterRows(doc, null);
    expect(rows.find((r) => r.path === "topology.nodes")!.value).toBe("2 nodes");
    expect(rows.some((r) => r.path.startsWith("topology.nodes."))).toBe(false);
  });
});
