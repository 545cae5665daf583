import type { ExpandLink, ExpandNode, LayoutGraph, LayoutNode } from "./types";

export const ROW_GAP = 120;
export const HOST_SPACING = 16;
export const SWITCH_SPACING = 48;

const collator = new Intl.Collator("en", { numeric: true });
export const naturalCompare = (a: string, b: string) => collator.compare(a, b);

/**
 * Tiered layout of expanded nodes: tier -> row (highest tier on top), group -> ordering
 * inside a row. Hosts follow the order of the switch they hang off, so they sit under it.
 * Nodes that already carry x/y (explicit topologies drawn in the editor) keep them.
 */
export function tieredLayout(nodes: ExpandNode[], links: ExpandLink[]): LayoutGraph {
  const rows = new Map<number, ExpandNode[]>();
  for (const n of nodes) {
    const row = rows.get(n.tier) ?? [];
    row.push(n);
    rows.set(n.tier, row);
  }
  const tiers = [...rows.keys()].sort((a, b) => a - b);
  const maxTier = tiers.length ? tiers[tiers.length - 1] : 0;

  // Switch rows first (bottom-up), hosts last: a host's group is a switch id.
  const rank = new Map<string, number>();
  const order = [...tiers.filter((t) => t !== 0), ...tiers.filter((t) => t === 0)];
  for (const tier of order) {
    const row = rows.get(tier)!;
    row.sort((a, b) => compareGroups(a, b, rank) || naturalCompare(a.id, b.id));
    row.forEach((n, i) => rank.set(n.id, i));
  }

  const spacing = (tier: number) => (tier === 0 ? HOST_SPACING : SWITCH_SPACING);
  const width = Math.max(SWITCH_SPACING, ...tiers.map((t) => rows.get(t)!.length * spacing(t)));
  // wide fabrics get taller rows so the fitted view is not a thin strip
  const rowGap = Math.max(ROW_GAP, (width * 0.12) / Math.max(tiers.length - 1, 1));
  const laid: LayoutNode[] = [];
  for (const tier of tiers) {
    const row = rows.get(tier)!;
    const step = width / row.length;
    row.forEach((n, i) => {
      laid.push({
        ...n,
        x: n.x ?? (i + 0.5) * step,
        y: n.y ?? (maxTier - tier) * rowGap,
      });
    });
  }
  const height = Math.max(...laid.map((n) => n.y), 0);
  return { nodes: laid, links, width, height };
}

/** Groups sort by the rank their group switch already got, else by group name. */
function compareGroups(a: ExpandNode, b: ExpandNode, rank: Map<string, number>): number {
  const ga = a.group ?? "";
  const gb = b.group ?? "";
  if (ga === gb) return 0;
  const ra = rank.get(ga);
  const rb = rank.get(gb);
  if (ra !== undefined && rb !== undefined) return ra - rb;
  if (ra !== undefined) return -1;
  if (rb !== undefined) return 1;
  return naturalCompare(ga, gb);
}
