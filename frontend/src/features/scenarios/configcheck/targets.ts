// Where a configuration-check finding points: its `where` entries are ports ("h1->leaf0", the
// direction frames travel) or node ids ("leaf0"). The editor selects them on the canvas.

export interface FindingTarget {
  /** Nodes to select: bare node ids, and the switch end(s) of each port. */
  nodes: string[];
  /** The link to select when the finding names exactly one port and nothing else. */
  link: number | null;
}

interface NodeLike { id: string; kind: string }
interface LinkLike { a: string; b: string }

/** Maps a finding's `where` list onto the canvas: nodes to select and, for one port, its link. */
export function findingTarget(where: string[], nodes: NodeLike[], links: LinkLike[]): FindingTarget {
  const kind = new Map(nodes.map((n) => [n.id, n.kind]));
  const chosen = new Set<string>();
  const linkIdx: number[] = [];
  let bare = 0;
  for (const w of where) {
    const port = /^(.+?)->(.+)$/.exec(w);
    if (!port) {
      if (kind.has(w)) { chosen.add(w); bare += 1; }
      continue;
    }
    const [, a, b] = port;
    const i = links.findIndex((l) => (l.a === a && l.b === b) || (l.a === b && l.b === a));
    if (i >= 0) linkIdx.push(i);
    // the port belongs to a switch: its ingress (headroom) or egress (Kmax) buffer
    for (const end of [a, b]) if (kind.get(end) === "switch") chosen.add(end);
    if (kind.get(a) !== "switch" && kind.get(b) !== "switch") for (const end of [a, b]) if (kind.has(end)) chosen.add(end);
  }
  const oneLink = linkIdx.length === 1 && bare === 0 && where.length === 1;
  return { nodes: oneLink ? [] : [...chosen], link: oneLink ? linkIdx[0] : null };
}

export const SEVERITY_ORDER = { error: 0, warning: 1, info: 2 } as const;

/** "1 error, 2 warnings" (or "no findings"). */
export function countsText(c: { error: number; warning: number; info: number }): string {
  const parts = [
    c.error ? `${c.error} error${c.error === 1 ? "" : "s"}` : "",
    c.warning ? `${c.warning} warning${c.warning === 1 ? "" : "s"}` : "",
    c.info ? `${c.info} note${c.info === 1 ? "" : "s"}` : "",
  ].filter(Boolean);
  return parts.length ? parts.join(", ") : "no findings";
}
