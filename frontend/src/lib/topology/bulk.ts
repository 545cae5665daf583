// Bulk selection for bulk edits: nodes by tier, pod/podset or name pattern. The edit itself is the
// scenario's per-node override mechanism (switch_overrides / nic_overrides), one entry per node.
import type { LayoutNode } from "../topology/types";

export interface BulkFilter {
  /** Tier number (0 = hosts), or undefined for any tier. */
  tier?: number;
  /** Pod or podset name ("pod3", "podset1"), or undefined for any. */
  pod?: string;
  /** Name pattern: `*` any run of characters, `?` one character; case-sensitive, whole id. */
  pattern?: string;
  /** Hosts, switches, or both. */
  kind?: "host" | "switch";
}

const POD = /^(pod|podset)\d+$/;

/**
 * The pod (fat tree) or podset (three-tier) a node belongs to: a switch's generator group when it
 * names one, a host's through the switch it hangs off. Core/spine planes and leaf-spine fabrics have none.
 */
export function podOf(n: LayoutNode, byId: Map<string, LayoutNode>): string | null {
  if (n.kind === "host") {
    const sw = n.group ? byId.get(n.group) : undefined;
    return sw && sw.kind === "switch" ? switchPod(sw) : null;
  }
  return switchPod(n);
}

/**
 * A switch's pod: its generator group, or (a generated fabric turned explicit by an edit keeps
 * the ids but not the groups) the generator's names: edge3_1 / agg3_0 -> pod3, tor2_5 / leaf2_1 -> podset2.
 */
function switchPod(n: { id: string; group?: string }): string | null {
  if (n.group && POD.test(n.group)) return n.group;
  const m = /^(edge|agg|tor|leaf)(\d+)_\d+$/.exec(n.id);
  if (!m) return null;
  return `${m[1] === "edge" || m[1] === "agg" ? "pod" : "podset"}${m[2]}`;
}

/** Pods present in the fabric, in natural order. */
export function podsOf(nodes: LayoutNode[]): string[] {
  const byId = new Map(nodes.map((n) => [n.id, n]));
  const pods = new Set<string>();
  for (const n of nodes) {
    const p = podOf(n, byId);
    if (p) pods.add(p);
  }
  return [...pods].sort((a, b) => a.localeCompare(b, "en", { numeric: true }));
}

/** A glob (`edge*_0`, `h1?`) as an anchored regular expression; other characters match literally. */
export function globToRegExp(glob: string): RegExp {
  const body = glob.replace(/[.+^${}()|[\]\\]/g, "\\$&").replace(/\*/g, ".*").replace(/\?/g, ".");
  return new RegExp(`^${body}$`);
}

/** Ids of the nodes that pass every part of the filter. */
export function selectNodes(nodes: LayoutNode[], f: BulkFilter): string[] {
  const byId = new Map(nodes.map((n) => [n.id, n]));
  const re = f.pattern?.trim() ? globToRegExp(f.pattern.trim()) : null;
  return nodes
    .filter((n) => (f.kind === undefined || n.kind === f.kind)
      && (f.tier === undefined || n.tier === f.tier)
      && (f.pod === undefined || podOf(n, byId) === f.pod)
      && (!re || re.test(n.id)))
    .map((n) => n.id);
}
