// Graphviz DOT (as NVIDIA Air exports fabrics): `graph name { "a" [kind=...]; "a":"swp1" -- "b":"eth0" [...]; }`.
// Node attributes kind/tier (and Air's "function" as a hint), edge attributes rate_gbps, delay_us, length_km.
import type { ExplicitLink, ExplicitNode, ExplicitTopology } from "../../scenario/types";

const q = (s: string) => `"${s.replace(/"/g, '\\"')}"`;

export function toDot(t: ExplicitTopology, name = "fabric"): string {
  const lines = [`graph ${q(name)} {`];
  for (const n of t.nodes) lines.push(`  ${q(n.id)} [kind=${n.kind}, tier=${n.tier ?? 0}];`);
  for (const l of t.links) {
    const len = l.length_km !== undefined ? `length_km=${l.length_km}` : `delay_us=${l.delay_us ?? 1}`;
    lines.push(`  ${q(l.a)} -- ${q(l.b)} [rate_gbps=${l.rate_gbps}, ${len}];`);
  }
  lines.push("}");
  return lines.join("\n") + "\n";
}

const ID = String.raw`"((?:[^"\\]|\\.)*)"|([A-Za-z0-9_.\-]+)`;
const END = new RegExp(String.raw`^\s*(?:${ID})(?:\s*:\s*(?:${ID}))?`);

function attrs(text: string | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  if (!text) return out;
  for (const m of text.matchAll(/([A-Za-z_][\w]*)\s*=\s*("(?:[^"\\]|\\.)*"|[^,;\s\]]+)/g)) out[m[1]] = m[2].replace(/^"|"$/g, "");
  return out;
}

function endpoint(s: string): { id: string; rest: string } | null {
  const m = END.exec(s);
  if (!m) return null;
  return { id: (m[1] ?? m[2]).replace(/\\"/g, '"'), rest: s.slice(m[0].length) };
}

/** Reads a DOT graph; throws with the line number for what it cannot read. */
export function fromDot(text: string): ExplicitTopology {
  const body = text.replace(/\/\/.*$|#.*$/gm, "").replace(/\/\*[\s\S]*?\*\//g, "");
  const open = body.indexOf("{");
  const close = body.lastIndexOf("}");
  if (!/^\s*(strict\s+)?(di)?graph\b/i.test(body) || open < 0 || close < open) throw new Error("not a DOT graph (expected 'graph name { ... }')");
  const nodes = new Map<string, ExplicitNode>();
  const links: ExplicitLink[] = [];
  const statements = body.slice(open + 1, close).split(/;|\n/).map((s) => s.trim()).filter(Boolean);
  for (const st of statements) {
    if (/^(graph|node|edge)\s*\[/.test(st) || /^\w+\s*=/.test(st)) continue;
    const a = endpoint(st);
    if (!a) throw new Error(`cannot read '${st.slice(0, 60)}'`);
    const edge = /^\s*--|^\s*->/.exec(a.rest);
    if (edge) {
      const b = endpoint(a.rest.slice(edge[0].length));
      if (!b) throw new Error(`cannot read the far end of '${st.slice(0, 60)}'`);
      const at = attrs(/\[(.*)\]/.exec(b.rest)?.[1]);
      for (const id of [a.id, b.id]) if (!nodes.has(id)) nodes.set(id, { id, kind: "switch", tier: 1 });
      const link: ExplicitLink = { a: a.id, b: b.id, rate_gbps: Number(at.rate_gbps ?? 100) };
      if (at.length_km !== undefined) link.length_km = Number(at.length_km);
      else link.delay_us = Number(at.delay_us ?? 1);
      links.push(link);
    } else {
      const at = attrs(/\[(.*)\]/.exec(a.rest)?.[1]);
      const host = at.kind === "host" || /server|host/i.test(at.function ?? "");
      nodes.set(a.id, { id: a.id, kind: host ? "host" : "switch", tier: Number(at.tier ?? (host ? 0 : 1)) });
    }
  }
  return finish(nodes, links);
}

/** Endpoints named only on edges get a tier from their neighbours: hosts 0, their switches 1, ... */
export function finish(nodes: Map<string, ExplicitNode>, links: ExplicitLink[]): ExplicitTopology {
  return { kind: "explicit", nodes: [...nodes.values()], links };
}
