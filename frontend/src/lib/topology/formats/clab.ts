// containerlab topology YAML: nodes under topology.nodes, links as `endpoints: ["a:eth1", "b:eth1"]`.
// FabricTwin keeps kind and tier in node labels and rate/delay in link vars (containerlab passes
// both through). Reading accepts the plain subset of YAML containerlab files use (block maps and
// lists, flow lists, quoted and plain scalars, comments); anchors and multi-line strings are refused.
import type { ExplicitLink, ExplicitNode, ExplicitTopology } from "../../scenario/types";

export function toClab(t: ExplicitTopology, name = "fabric"): string {
  const out = [`name: ${name}`, "topology:", "  nodes:"];
  for (const n of t.nodes) {
    out.push(`    ${n.id}:`, `      kind: ${n.kind === "host" ? "linux" : "nokia_srlinux"}`, "      labels:",
      `        fabrictwin-kind: ${n.kind}`, `        fabrictwin-tier: "${n.tier ?? 0}"`);
  }
  out.push("  links:");
  const port = new Map<string, number>();
  const next = (id: string) => { const p = (port.get(id) ?? 0) + 1; port.set(id, p); return `${id}:eth${p}`; };
  for (const l of t.links) {
    out.push(`    - endpoints: ["${next(l.a)}", "${next(l.b)}"]`, "      vars:", `        rate_gbps: ${l.rate_gbps}`,
      l.length_km !== undefined ? `        length_km: ${l.length_km}` : `        delay_us: ${l.delay_us ?? 1}`);
  }
  return out.join("\n") + "\n";
}

type Y = string | number | boolean | null | Y[] | { [k: string]: Y };

function scalar(s: string): Y {
  const t = s.trim();
  if (/^".*"$|^'.*'$/.test(t)) return t.slice(1, -1);
  if (t.startsWith("[") && t.endsWith("]")) return t.slice(1, -1).split(",").map((x) => x.trim()).filter(Boolean).map(scalar);
  if (t === "" || t === "~" || t === "null") return null;
  if (t === "true" || t === "false") return t === "true";
  if (/^-?\d+(\.\d+)?(e-?\d+)?$/i.test(t)) return Number(t);
  if (/^[&*|>]/.test(t)) throw new Error(`unsupported YAML: ${t.slice(0, 30)}`);
  return t;
}

/** Block YAML -> value, for the subset described above. */
export function parseYaml(text: string): Y {
  const lines = text.split("\n").map((l) => l.replace(/\s+#.*$|^\s*#.*$/, "")).map((l) => l.replace(/\s+$/, "")).filter((l) => l.trim() && l.trim() !== "---");
  let i = 0;
  const indent = (l: string) => l.length - l.trimStart().length;
  function block(level: number): Y {
    if (i >= lines.length) return null;
    if (lines[i].trimStart().startsWith("- ") || lines[i].trim() === "-") {
      const list: Y[] = [];
      while (i < lines.length && indent(lines[i]) === level && lines[i].trimStart().startsWith("-")) {
        const rest = lines[i].trimStart().slice(1).trimStart();
        if (!rest) { i += 1; list.push(block(indent(lines[i] ?? ""))); continue; }
        if (/^[^"'[{][^:]*:(\s|$)/.test(rest)) {
          // "- key: value" starts a map whose other keys sit at level + 2
          lines[i] = " ".repeat(level + 2) + rest;
          list.push(block(level + 2));
        } else { list.push(scalar(rest)); i += 1; }
      }
      return list;
    }
    const map: { [k: string]: Y } = {};
    while (i < lines.length && indent(lines[i]) === level) {
      const m = /^\s*("[^"]*"|'[^']*'|[^:]+):(?:\s+(.*))?$/.exec(lines[i]);
      if (!m) throw new Error(`cannot read YAML line '${lines[i].trim().slice(0, 40)}'`);
      const k = String(scalar(m[1]));
      i += 1;
      if (m[2] !== undefined && m[2] !== "") map[k] = scalar(m[2]);
      else map[k] = i < lines.length && indent(lines[i]) > level ? block(indent(lines[i])) : null;
    }
    return map;
  }
  return block(lines.length ? indent(lines[0]) : 0);
}

export function fromClab(text: string): ExplicitTopology {
  const doc = parseYaml(text) as { topology?: { nodes?: Record<string, { kind?: string; labels?: Record<string, Y> } | null>; links?: { endpoints?: Y[]; vars?: Record<string, Y> }[] } };
  const topo = doc?.topology;
  if (!topo || typeof topo.nodes !== "object" || !topo.nodes) throw new Error("not a containerlab topology (no topology.nodes)");
  const nodes: ExplicitNode[] = Object.entries(topo.nodes).map(([id, n]) => {
    const labels = n?.labels ?? {};
    const kind = labels["fabrictwin-kind"] === "host" || (!labels["fabrictwin-kind"] && n?.kind === "linux") ? "host" : "switch";
    return { id, kind, tier: Number(labels["fabrictwin-tier"] ?? (kind === "host" ? 0 : 1)) };
  });
  const links: ExplicitLink[] = (topo.links ?? []).map((l, k) => {
    const ends = (l.endpoints ?? []).map((e) => String(e).split(":")[0]);
    if (ends.length !== 2) throw new Error(`link ${k + 1}: endpoints must name two nodes`);
    const v = l.vars ?? {};
    const link: ExplicitLink = { a: ends[0], b: ends[1], rate_gbps: Number(v.rate_gbps ?? 100) };
    if (v.length_km !== undefined && v.length_km !== null) link.length_km = Number(v.length_km);
    else link.delay_us = Number(v.delay_us ?? 1);
    return link;
  });
  return { kind: "explicit", nodes, links };
}
