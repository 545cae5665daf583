// Grouping on the canvas: a pod (fat tree) or podset (three-tier) collapsed into one box. View
// only: the document is unchanged, and links keep their indices (link selection stays valid).
import { podOf } from "./bulk";
import type { LayoutGraph, LayoutNode } from "./types";

/** Room around the members' extent, so the box reads as "these nodes". */
const PAD = 10;

/**
 * The graph with each collapsed pod replaced by one node (id = the pod's name, `members` = its
 * nodes) at the middle of its members' extent, sized to cover them. Every link keeps its index:
 * an end inside a collapsed pod is moved to the pod's box (links inside a pod shrink to a point).
 */
export function collapsePods(graph: LayoutGraph, collapsed: ReadonlySet<string>): LayoutGraph {
  if (collapsed.size === 0) return graph;
  const byId = new Map(graph.nodes.map((n) => [n.id, n]));
  const members = new Map<string, LayoutNode[]>();
  const kept: LayoutNode[] = [];
  for (const n of graph.nodes) {
    const pod = podOf(n, byId);
    if (pod && collapsed.has(pod)) {
      const list = members.get(pod) ?? [];
      list.push(n);
      members.set(pod, list);
    } else kept.push(n);
  }
  if (members.size === 0) return graph;
  const groupOf = new Map<string, string>();
  const boxes: LayoutNode[] = [];
  for (const [pod, list] of members) {
    const xs = list.map((n) => n.x);
    const ys = list.map((n) => n.y);
    const [x0, x1, y0, y1] = [Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)];
    // switches of the pod sit above its hosts: the box spans the switch tiers down to the hosts
    const tier = Math.max(...list.map((n) => n.tier));
    boxes.push({
      id: pod, kind: "switch", tier, group: pod, members: list.map((n) => n.id),
      x: (x0 + x1) / 2, y: (y0 + y1) / 2, half: { w: (x1 - x0) / 2 + PAD, h: (y1 - y0) / 2 + PAD },
    });
    for (const n of list) groupOf.set(n.id, pod);
  }
  const links = graph.links.map((l) => {
    const a = groupOf.get(l.a) ?? l.a;
    const b = groupOf.get(l.b) ?? l.b;
    return a === l.a && b === l.b ? l : { ...l, a, b };
  });
  return { ...graph, nodes: [...kept, ...boxes], links };
}

/** Ids of real nodes: a collapsed pod's box stands for its members. */
export function expandIds(graph: LayoutGraph, ids: Iterable<string>): string[] {
  const byId = new Map(graph.nodes.map((n) => [n.id, n]));
  const out: string[] = [];
  for (const id of ids) out.push(...(byId.get(id)?.members ?? [id]));
  return out;
}
