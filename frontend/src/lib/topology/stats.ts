import type { LayoutGraph } from "./types";

/** Counts of a drawn fabric (generated ones get theirs, with oversubscription, from the API). */
export function fabricStats(g: LayoutGraph): { hosts: number; switches: number; links: number; oversubscription?: number } {
  const hosts = g.nodes.filter((n) => n.kind === "host").length;
  return { hosts, switches: g.nodes.length - hosts, links: g.links.length };
}

/** Nodes without any link, in drawing order. */
export function unlinkedNodes(g: LayoutGraph): string[] {
  const linked = new Set<string>();
  for (const l of g.links) {
    linked.add(l.a);
    linked.add(l.b);
  }
  return g.nodes.filter((n) => !linked.has(n.id)).map((n) => n.id);
}
