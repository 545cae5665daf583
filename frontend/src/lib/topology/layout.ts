import type { ExpandLink, ExpandNode, LayoutGraph, LayoutNode } from "./types";

export const ROW_GAP = 120;
export const HOST_SPACING = 16;
export const SWITCH_SPACING = 48;
/** Up to this many nodes (per site) hosts get more room, so their labels do not touch. */
export const SMALL_FABRIC_NODES = 40;
export const SMALL_HOST_SPACING = 40;

const collator = new Intl.Collator("en", { numeric: true });
export const naturalCompare = (a: string, b: string) => collator.compare(a, b);

/**
 * Tiered layout of expanded nodes: tier -> row (highest tier on top), group -> ordering
 * inside a row. Hosts follow the order of the switch they hang off, so they sit under it.
 * Nodes that already carry x/y (explicit topologies drawn in the editor) keep them.
 */
export function tieredLayout(nodes: ExpandNode[], links: ExpandLink[]): LayoutGraph {
  const ring = switchRing(nodes, links);
  if (ring) return ringLayout(ring, nodes, links);
  const sites = splitSites(nodes);
  if (sites) return siteLayout(sites, links);
  return rowsLayout(nodes, links);
}

/**
 * The switches in ring order when they form one cycle (every switch linked to exactly two others,
 * all on one tier, at least three): rows would draw the ring as a straight line with its closing
 * link over the others, hiding the cycle (msft-deadlock). Null otherwise, or once nodes were placed.
 */
export function switchRing(nodes: ExpandNode[], links: ExpandLink[]): string[] | null {
  if (nodes.some((n) => n.x != null)) return null;
  const switches = nodes.filter((n) => n.kind === "switch");
  if (switches.length < 3 || switches.some((s) => s.tier !== switches[0].tier)) return null;
  const ids = new Set(switches.map((s) => s.id));
  const adj = new Map<string, Set<string>>(switches.map((s) => [s.id, new Set<string>()]));
  for (const l of links) {
    if (l.a !== l.b && ids.has(l.a) && ids.has(l.b)) { adj.get(l.a)!.add(l.b); adj.get(l.b)!.add(l.a); }
  }
  if ([...adj.values()].some((peers) => peers.size !== 2)) return null;
  const start = [...ids].sort(naturalCompare)[0];
  const order = [start];
  let prev = start;
  let cur = [...adj.get(start)!].sort(naturalCompare)[0];
  while (cur !== start) {
    order.push(cur);
    const next = [...adj.get(cur)!].find((p) => p !== prev)!;
    prev = cur;
    cur = next;
  }
  return order.length === switches.length ? order : null;
}

/** Ring spacing: the arc between two neighbouring switches, and how far hosts sit outside. */
export const RING_ARC = 110;
export const RING_HOST_OFFSET = 90;

/** Switches on a circle in ring order (the first on top, clockwise), each host outside its switch. */
function ringLayout(ring: string[], nodes: ExpandNode[], links: ExpandLink[]): LayoutGraph {
  const r = Math.max(100, (ring.length * RING_ARC) / (2 * Math.PI));
  const angle = new Map(ring.map((id, i) => [id, -Math.PI / 2 + (2 * Math.PI * i) / ring.length]));
  const attached = new Map<string, string[]>();
  for (const l of links) {
    for (const [h, s] of [[l.a, l.b], [l.b, l.a]]) {
      if (angle.has(s) && !angle.has(h)) attached.set(s, [...(attached.get(s) ?? []), h]);
    }
  }
  const byId = new Map(nodes.map((n) => [n.id, n]));
  const placed = new Map<string, { x: number; y: number }>();
  for (const id of ring) {
    const a = angle.get(id)!;
    placed.set(id, { x: r * Math.cos(a), y: r * Math.sin(a) });
    const hosts = (attached.get(id) ?? []).filter((h) => !placed.has(h)).sort(naturalCompare);
    const rh = r + RING_HOST_OFFSET;
    hosts.forEach((h, j) => {
      const ah = a + ((j - (hosts.length - 1) / 2) * SMALL_HOST_SPACING) / rh;
      placed.set(h, { x: rh * Math.cos(ah), y: rh * Math.sin(ah) });
    });
  }
  // anything not on or next to the ring: a row underneath
  const rest = nodes.filter((n) => !placed.has(n.id)).sort((a, b) => naturalCompare(a.id, b.id));
  rest.forEach((n, i) => placed.set(n.id, { x: -r + i * SMALL_HOST_SPACING, y: r + RING_HOST_OFFSET + ROW_GAP }));
  const xs = [...placed.values()].map((p) => p.x);
  const ys = [...placed.values()].map((p) => p.y);
  const x0 = Math.min(...xs);
  const y0 = Math.min(...ys);
  const laid = nodes.map((n) => ({ ...byId.get(n.id)!, x: placed.get(n.id)!.x - x0, y: placed.get(n.id)!.y - y0 }));
  return { nodes: laid, links, width: Math.max(...xs) - x0, height: Math.max(...ys) - y0, shape: "ring" };
}

/** Gap between two sites, as a share of a site's width (the long-haul link spans it). */
export const SITE_GAP_SHARE = 0.8;
export const MIN_SITE_GAP = 240;

/**
 * A DCI fabric ("a-..." and "b-..." sites joined by a long-haul link) as separate sites side by
 * side, each laid out in tiers, with a wide gap between them. Returns null for one-site fabrics.
 */
export function splitSites(nodes: ExpandNode[]): Map<string, ExpandNode[]> | null {
  // drawn positions (explicit fabrics edited here) win; the API sends null for "none"
  if (nodes.length === 0 || nodes.some((n) => n.x != null)) return null;
  const sites = new Map<string, ExpandNode[]>();
  for (const n of nodes) {
    const m = /^([A-Za-z0-9]+)-./.exec(n.id);
    if (!m) return null;
    const list = sites.get(m[1]) ?? [];
    list.push(n);
    sites.set(m[1], list);
  }
  if (sites.size < 2 || sites.size > 8) return null;
  // "tor-1", "spine-1", "h-1" are tiers, not sites: a site holds hosts and switches
  for (const list of sites.values()) {
    if (!list.some((n) => n.kind === "host") || !list.some((n) => n.kind === "switch")) return null;
  }
  return sites;
}

function siteLayout(sites: Map<string, ExpandNode[]>, links: ExpandLink[]): LayoutGraph {
  const names = [...sites.keys()].sort(naturalCompare);
  const parts = names.map((s) => rowsLayout(sites.get(s)!, []));
  const widest = Math.max(...parts.map((p) => p.width));
  const gap = Math.max(MIN_SITE_GAP, widest * SITE_GAP_SHARE);
  const laid: LayoutNode[] = [];
  let x0 = 0;
  for (const part of parts) {
    // every site on the same rows: align bottoms (hosts) of sites with fewer tiers
    const dy = Math.max(...parts.map((p) => p.height)) - part.height;
    for (const n of part.nodes) laid.push({ ...n, x: n.x + x0, y: n.y + dy });
    x0 += part.width + gap;
  }
  return { nodes: laid, links, width: x0 - gap, height: Math.max(...laid.map((n) => n.y), 0) };
}

function rowsLayout(nodes: ExpandNode[], links: ExpandLink[]): LayoutGraph {
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

  // small fabrics show every label at the fitted zoom: give host labels room
  const hostSpacing = nodes.length <= SMALL_FABRIC_NODES ? SMALL_HOST_SPACING : HOST_SPACING;
  const spacing = (tier: number) => (tier === 0 ? hostSpacing : SWITCH_SPACING);
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
