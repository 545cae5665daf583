import type { LayoutGraph } from "../../../lib/topology/types";
import { pruneEmpty } from "../../../lib/scenario/paths";
import type { ExplicitLink, ExplicitNode, ExplicitTopology, Scenario, Topology } from "../../../lib/scenario/types";

/** What the editor holds: the document being edited plus where it came from. */
export interface EditorState {
  doc: Scenario;
  /** Snapshot the document was loaded from; a run of an unchanged document reuses it. */
  sourceId: string | null;
  dirty: boolean;
}

export const NEW_SCENARIO: Scenario = {
  schema_version: 1,
  name: "New fabric",
  description: "",
  seed: 1,
  duration_us: 2000,
  topology: {
    kind: "leaf_spine", leaves: 2, spines: 2, hosts_per_leaf: 2,
    host_rate_gbps: 100, fabric_rate_gbps: 100, link_delay_us: 1,
  },
  switch: {},
  nic: {},
  traffic: [],
  monitor: { sample_interval_us: 10 },
};

export function fromScenarioDocument(doc: Scenario, sourceId: string | null = null): EditorState {
  const copy = structuredClone(doc);
  if (copy.topology.kind === "explicit") copy.topology = cleanExplicit(copy.topology);
  return { doc: copy, sourceId, dirty: false };
}

/** The document sent to the API: editor-only leftovers removed, overrides pruned. */
export function toScenarioDocument(state: EditorState): Scenario {
  const doc = structuredClone(state.doc);
  for (const key of ["switch_overrides", "nic_overrides"] as const) {
    const overrides = doc[key];
    if (!overrides) continue;
    const pruned: Record<string, ReturnType<typeof pruneEmpty>> = {};
    for (const [id, o] of Object.entries(overrides)) {
      const p = pruneEmpty(o);
      if (Object.keys(p).length > 0) pruned[id] = p;
    }
    if (Object.keys(pruned).length > 0) doc[key] = pruned;
    else delete doc[key];
  }
  if (doc.topology.kind === "explicit") doc.topology = cleanExplicit(doc.topology);
  return doc;
}

function cleanExplicit(t: ExplicitTopology): ExplicitTopology {
  const nodes = t.nodes.map((n) => {
    const out: ExplicitNode = { id: n.id, kind: n.kind, tier: n.tier ?? 0 };
    if (typeof n.server === "string") out.server = n.server;
    if (n.x !== undefined) out.x = Math.round(n.x * 10) / 10;
    if (n.y !== undefined) out.y = Math.round(n.y * 10) / 10;
    return out;
  });
  const links = t.links.map((l) => {
    const out: ExplicitLink = { a: l.a, b: l.b, rate_gbps: l.rate_gbps };
    if (l.length_km !== undefined) out.length_km = l.length_km;
    else out.delay_us = l.delay_us ?? 1;
    return out;
  });
  return { kind: "explicit", nodes, links };
}

/** A generated fabric becomes explicit (with its laid-out positions) on the first edit. */
export function explicitFrom(topology: Topology, graph: LayoutGraph | null): ExplicitTopology {
  if (topology.kind === "explicit") return topology as ExplicitTopology;
  if (!graph) throw new Error("the generated fabric is not expanded yet");
  return {
    kind: "explicit",
    nodes: graph.nodes.map((n) => ({ id: n.id, kind: n.kind, tier: n.tier, ...(typeof n.server === "string" ? { server: n.server } : {}), x: n.x, y: n.y })),
    links: graph.links.map((l) => ({
      a: l.a, b: l.b, rate_gbps: l.rate_gbps,
      ...(l.length_km !== undefined ? { length_km: l.length_km } : { delay_us: l.delay_us ?? 1 }),
    })),
  };
}

export function nextNodeId(nodes: ExplicitNode[], prefix: string): string {
  const used = new Set(nodes.map((n) => n.id));
  let i = 0;
  while (used.has(`${prefix}${i}`)) i += 1;
  return `${prefix}${i}`;
}

export function hostIds(graph: LayoutGraph | null): string[] {
  return graph ? graph.nodes.filter((n) => n.kind === "host").map((n) => n.id) : [];
}
