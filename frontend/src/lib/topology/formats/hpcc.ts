// The HPCC simulator's topology file: first line `nodes switches links`, second line the switch
// ids, then one `a b rate delay error_rate` line per link (rate "100Gbps", delay "0.001ms").
// Nodes are numbers: hosts become h<i>, switches sw<i>; tiers are the hop distance from a host.
import type { ExplicitLink, ExplicitNode, ExplicitTopology } from "../../scenario/types";

export function toHpcc(t: ExplicitTopology): string {
  const index = new Map(t.nodes.map((n, i) => [n.id, i]));
  const switches = t.nodes.map((n, i) => (n.kind === "switch" ? i : -1)).filter((i) => i >= 0);
  const lines = [`${t.nodes.length} ${switches.length} ${t.links.length}`, switches.join(" ")];
  for (const l of t.links) {
    const delayUs = l.length_km !== undefined ? l.length_km * 5 : l.delay_us ?? 1;
    lines.push(`${index.get(l.a)} ${index.get(l.b)} ${l.rate_gbps}Gbps ${Number((delayUs / 1000).toPrecision(12))}ms 0`);
  }
  return lines.join("\n") + "\n";
}

const UNIT: Record<string, number> = { gbps: 1, mbps: 1e-3, kbps: 1e-6, bps: 1e-9, tbps: 1000 };
const TIME: Record<string, number> = { s: 1e6, ms: 1000, us: 1, ns: 1e-3 };

export function fromHpcc(text: string): ExplicitTopology {
  const lines = text.split("\n").map((l) => l.trim()).filter(Boolean);
  const head = lines[0]?.split(/\s+/).map(Number) ?? [];
  if (head.length !== 3 || head.some((v) => !Number.isInteger(v) || v < 0)) throw new Error("line 1 must be 'nodes switches links'");
  const [count, nswitches, nlinks] = head;
  const switchIds = new Set((lines[1] ?? "").split(/\s+/).filter(Boolean).map(Number));
  if (switchIds.size !== nswitches) throw new Error(`line 2 lists ${switchIds.size} switch ids, line 1 says ${nswitches}`);
  if (lines.length - 2 !== nlinks) throw new Error(`expected ${nlinks} link lines, found ${lines.length - 2}`);
  const name = (i: number) => (switchIds.has(i) ? `sw${i}` : `h${i}`);
  const links: ExplicitLink[] = lines.slice(2).map((line, k) => {
    const [a, b, rate, delay] = line.split(/\s+/);
    const r = /^([\d.]+)\s*([a-zA-Z]+)$/.exec(rate ?? "");
    const d = /^([\d.e-]+)\s*([a-z]+)$/.exec(delay ?? "");
    if (!r || !d || UNIT[r[2].toLowerCase()] === undefined || TIME[d[2]] === undefined) throw new Error(`line ${k + 3}: expected 'a b rate delay error_rate'`);
    const ia = Number(a);
    const ib = Number(b);
    if (!(ia >= 0 && ia < count && ib >= 0 && ib < count)) throw new Error(`line ${k + 3}: node out of range 0..${count - 1}`);
    return { a: name(ia), b: name(ib), rate_gbps: Number(r[1]) * UNIT[r[2].toLowerCase()], delay_us: Number((Number(d[1]) * TIME[d[2]]).toPrecision(12)) };
  });
  const nodes: ExplicitNode[] = Array.from({ length: count }, (_, i) => ({ id: name(i), kind: switchIds.has(i) ? "switch" : "host", tier: switchIds.has(i) ? -1 : 0 }));
  tiersFromHosts(nodes, links);
  return { kind: "explicit", nodes, links };
}

/** tier = hop distance from the nearest host (hosts 0, leaves 1, spines 2, ...). */
function tiersFromHosts(nodes: ExplicitNode[], links: ExplicitLink[]) {
  const byId = new Map(nodes.map((n) => [n.id, n]));
  const adj = new Map<string, string[]>();
  for (const l of links) {
    adj.set(l.a, [...(adj.get(l.a) ?? []), l.b]);
    adj.set(l.b, [...(adj.get(l.b) ?? []), l.a]);
  }
  let frontier = nodes.filter((n) => n.kind === "host").map((n) => n.id);
  for (let tier = 1; frontier.length; tier += 1) {
    const next: string[] = [];
    for (const id of frontier) for (const o of adj.get(id) ?? []) {
      const n = byId.get(o)!;
      if (n.tier === -1) { n.tier = tier; next.push(o); }
    }
    frontier = next;
  }
  for (const n of nodes) if (n.tier === -1) n.tier = 1;
}
