// The share page's parameter table: every parameter of a scenario next to its parent's (or the
// defaults'), flattened to one row per leaf path so differences can be highlighted.
import { glossaryEntry } from "../glossary/glossary";
import { NIC_DEFAULTS, SWITCH_DEFAULTS } from "./fields";
import type { Json, Scenario } from "./types";

export interface ParamRow {
  section: string;
  path: string;
  label: string;
  unit?: string;
  value: string;
  base: string;
  changed: boolean;
}

const SECTIONS: [RegExp, string][] = [
  [/^topology\./, "Topology"],
  [/^switch\./, "Switch"],
  [/^nic\./, "NIC"],
  [/^(switch|nic)_overrides\./, "Per-node overrides"],
  [/^traffic\./, "Traffic"],
];

export function show(v: Json | undefined): string {
  if (v === undefined || v === null) return "—";
  if (typeof v === "number") return v.toLocaleString("en-US", { maximumFractionDigits: 6 });
  if (typeof v === "boolean") return v ? "on" : "off";
  if (typeof v === "string") return v;
  if (Array.isArray(v)) {
    return v.map((x) => (Array.isArray(x) ? x.map((y) => show(y as Json)).join(" → ") : show(x as Json))).join(", ");
  }
  return JSON.stringify(v);
}

/** Leaf path -> value; explicit node and link lists are summarised as counts. */
export function flatten(doc: Scenario): Map<string, Json> {
  const out = new Map<string, Json>();
  const walk = (v: Json | undefined, path: string) => {
    if (v === undefined) return;
    if (v !== null && typeof v === "object" && !Array.isArray(v)) {
      for (const [k, x] of Object.entries(v)) walk(x, path ? `${path}.${k}` : k);
    } else out.set(path, v);
  };
  const { topology, traffic, name: _n, description: _d, schema_version: _s, ...rest } = doc;
  walk(rest as unknown as Json, "");
  if (topology.kind === "explicit") {
    out.set("topology.kind", "explicit");
    out.set("topology.nodes", `${topology.nodes.length} nodes`);
    out.set("topology.links", `${topology.links.length} links`);
  } else walk(topology as unknown as Json, "topology");
  (traffic ?? []).forEach((g, i) => walk(g as unknown as Json, `traffic.${i}`));
  return out;
}

/** Switch and NIC fields the editor shows, with their defaults, so unset ones still get a row. */
function withDefaults(m: Map<string, Json>): Map<string, Json> {
  const out = new Map(m);
  for (const [k, v] of Object.entries(SWITCH_DEFAULTS)) if (!out.has(`switch.${k}`)) out.set(`switch.${k}`, v as Json);
  for (const [k, v] of Object.entries(NIC_DEFAULTS)) if (!out.has(`nic.${k}`)) out.set(`nic.${k}`, v as Json);
  if (!out.has("duration_us")) out.set("duration_us", 10_000);
  if (!out.has("warmup_us")) out.set("warmup_us", 0);
  return out;
}

/** Rows for `doc` against `base` (the parent, or null for the defaults), sections in a fixed order. */
export function parameterRows(doc: Scenario, base: Scenario | null): ParamRow[] {
  const mine = withDefaults(flatten(doc));
  const theirs = withDefaults(base ? flatten(base) : new Map());
  const paths = [...new Set([...mine.keys(), ...theirs.keys()])];
  const rows = paths.map((path) => {
    const entry = glossaryEntry(path);
    const value = show(mine.get(path));
    const baseValue = show(theirs.get(path));
    const section = SECTIONS.find(([re]) => re.test(path))?.[1] ?? "Run";
        // against the defaults, only parameters that have a default can differ
    const changed = (base !== null || theirs.has(path)) && value !== baseValue;
    return { section, path, label: entry?.label ?? path.split(".").slice(-1)[0], unit: entry?.unit, value, base: baseValue, changed };
  });
  const order = ["Run", ...SECTIONS.map(([, s]) => s)];
  return rows.sort((a, b) => order.indexOf(a.section) - order.indexOf(b.section) || a.path.localeCompare(b.path, "en", { numeric: true }));
}
