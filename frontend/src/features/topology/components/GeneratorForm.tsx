import { useState } from "react";
import type { GeneratorKind, GeneratorTopology, Json, Topology } from "../../../lib/scenario/types";
import { GlossaryTip } from "../../../components/GlossaryTip";
import { ApiError } from "../../../lib/api/errors";
import { uniqueFieldErrors } from "../../../lib/api/fieldErrors";

/** backend/app/scenarios/limits.py MAX_NODES */
export const MAX_NODES = 20_000;

/** Node count of a generated fabric (docs/scenario-format.md), shown before generating. */
export function estimateNodes(kind: GeneratorKind, v: Record<string, number>): number | null {
  const n = (k: string) => (Number.isFinite(v[k]) ? v[k] : NaN);
  let count: number;
  if (kind === "leaf_spine") count = n("leaves") * (1 + n("hosts_per_leaf")) + n("spines");
  else if (kind === "fat_tree") count = (n("k") ** 3) / 4 + (5 * n("k") ** 2) / 4;
  else if (kind === "three_tier") count = n("podsets") * (n("tors_per_podset") * (1 + n("hosts_per_tor")) + n("leafs_per_podset")) + n("spines");
  else count = 2 * (n("site.leaves") * (1 + n("site.hosts_per_leaf")) + n("site.spines") + 1);
  return Number.isFinite(count) ? count : null;
}

function refusalText(err: unknown): string {
  if (err instanceof ApiError && err.fields.length) return uniqueFieldErrors(err.fields).map((f) => f.message).join("; ");
  return err instanceof Error ? err.message : String(err);
}

interface ParamSpec {
  key: string;
  label: string;
  unit?: string;
  min: number;
  max: number;
  step?: number;
}

const RATES: ParamSpec[] = [
  { key: "host_rate_gbps", label: "Host rate", unit: "Gbit/s", min: 1, max: 1600 },
  { key: "link_delay_us", label: "Link delay", unit: "us", min: 0, max: 1000, step: 0.1 },
];

export const GENERATORS: Record<GeneratorKind, { title: string; params: ParamSpec[]; defaults: Record<string, number> }> = {
  leaf_spine: {
    title: "Leaf-spine",
    params: [
      { key: "leaves", label: "Leaves", min: 1, max: 512 },
      { key: "spines", label: "Spines", min: 1, max: 256 },
      { key: "hosts_per_leaf", label: "Hosts per leaf", min: 1, max: 512 },
      ...RATES,
      { key: "fabric_rate_gbps", label: "Fabric rate", unit: "Gbit/s", min: 1, max: 1600 },
    ],
    defaults: { leaves: 2, spines: 2, hosts_per_leaf: 2, host_rate_gbps: 100, fabric_rate_gbps: 100, link_delay_us: 1 },
  },
  fat_tree: {
    title: "Fat-tree",
    params: [{ key: "k", label: "k (even)", min: 2, max: 64, step: 2 }, ...RATES, { key: "fabric_rate_gbps", label: "Fabric rate", unit: "Gbit/s", min: 1, max: 1600 }],
    defaults: { k: 4, host_rate_gbps: 100, fabric_rate_gbps: 100, link_delay_us: 1 },
  },
  three_tier: {
    title: "Three-tier podsets",
    params: [
      { key: "podsets", label: "Podsets", min: 1, max: 64 },
      { key: "tors_per_podset", label: "ToRs per podset", min: 1, max: 64 },
      { key: "leafs_per_podset", label: "Leafs per podset", min: 1, max: 16 },
      { key: "spines", label: "Spines", min: 1, max: 256 },
      { key: "hosts_per_tor", label: "Hosts per ToR", min: 1, max: 128 },
      ...RATES,
      { key: "tor_uplink_gbps", label: "ToR uplink (sets oversubscription)", unit: "Gbit/s", min: 1, max: 1600 },
      { key: "leaf_uplink_gbps", label: "Leaf uplink", unit: "Gbit/s", min: 1, max: 1600 },
    ],
    defaults: { podsets: 2, tors_per_podset: 4, leafs_per_podset: 2, spines: 4, hosts_per_tor: 4, host_rate_gbps: 100, tor_uplink_gbps: 100, leaf_uplink_gbps: 100, link_delay_us: 1 },
  },
  dci: {
    title: "DCI (two sites)",
    params: [
      { key: "site.leaves", label: "Leaves per site", min: 1, max: 512 },
      { key: "site.spines", label: "Spines per site", min: 1, max: 256 },
      { key: "site.hosts_per_leaf", label: "Hosts per leaf", min: 1, max: 512 },
      { key: "dci_rate_gbps", label: "Long-haul rate", unit: "Gbit/s", min: 1, max: 1600 },
    ],
    defaults: { "site.leaves": 2, "site.spines": 2, "site.hosts_per_leaf": 2, dci_rate_gbps: 100, length_km: 100 },
  },
};

/** The DCI form's accelerator switch, kept among the numeric values as 1 (on) or 0 (off). */
const ACCELERATOR_KEY = "accelerator.enabled";

/** Form values (flat, "site.x" for nested) -> topology object; a DCI keeps the accelerator's
 *  other settings (buffer, timeout) from `previous` and takes `enabled` from the form. */
export function toTopology(kind: GeneratorKind, values: Record<string, number>, previous?: Topology): GeneratorTopology {
  const topo: GeneratorTopology = { kind };
  const kept = previous?.kind === "dci" && previous.accelerator && typeof previous.accelerator === "object" ? previous.accelerator as Record<string, Json> : {};
  for (const [k, v] of Object.entries(values)) {
    if (k === ACCELERATOR_KEY) {
      if (kind === "dci" && (v === 1 || Object.keys(kept).length > 0)) topo.accelerator = { ...kept, enabled: v === 1 };
    } else if (k.startsWith("site.")) {
      const site = (topo.site as Record<string, number>) ?? {};
      site[k.slice(5)] = v;
      topo.site = site;
    } else topo[k] = v;
  }
  return topo;
}

function fromTopology(t: Topology): { kind: GeneratorKind; values: Record<string, number> } {
  if (t.kind === "explicit") return { kind: "leaf_spine", values: { ...GENERATORS.leaf_spine.defaults } };
  const values: Record<string, number> = { ...GENERATORS[t.kind].defaults };
  for (const [k, v] of Object.entries(t)) {
    if (k === "site" && v && typeof v === "object") for (const [sk, sv] of Object.entries(v)) values[`site.${sk}`] = sv as number;
    else if (k === "accelerator" && v && typeof v === "object") values[ACCELERATOR_KEY] = (v as { enabled?: unknown }).enabled === true ? 1 : 0;
    else if (typeof v === "number") values[k] = v;
  }
  return { kind: t.kind, values };
}

/** Generator parameters; "Generate" replaces the canvas with the laid-out fabric. */
export function GeneratorForm({ topology, onGenerate }: { topology: Topology; onGenerate: (t: GeneratorTopology) => Promise<void> | void }) {
  const initial = fromTopology(topology);
  const [kind, setKind] = useState<GeneratorKind>(initial.kind);
  const [values, setValues] = useState<Record<string, number>>(initial.values);
  const spec = GENERATORS[kind];
  const [busy, setBusy] = useState(false);
  const [refused, setRefused] = useState<unknown>(null);
  const nodes = estimateNodes(kind, values);
  return (
    <form
      className="generator-form"
      aria-label="Topology generator"
      onSubmit={async (e) => {
        e.preventDefault();
        setBusy(true);
        setRefused(null);
        try {
          await onGenerate(toTopology(kind, values, topology));
        } catch (err) {
          setRefused(err); // the canvas, the tool bar and the undo history stay as they were
        } finally {
          setBusy(false);
        }
      }}
    >
      <label>
        Fabric{" "}
        <select
          value={kind}
          aria-label="Generator kind"
          onChange={(e) => {
            const k = e.target.value as GeneratorKind;
            setKind(k);
            setValues({ ...GENERATORS[k].defaults });
          }}
        >
          {(Object.keys(GENERATORS) as GeneratorKind[]).map((k) => <option key={k} value={k}>{GENERATORS[k].title}</option>)}
        </select>
      </label>
      <div className="grid-2">
        {spec.params.map((p) => (
          <div key={p.key} className="field">
            <span className="field-head">
              <label htmlFor={`generator-${p.key}`}>{p.label}{p.unit && <span className="unit"> ({p.unit})</span>}</label>
              <GlossaryTip term={`topology.${p.key}`} />
            </span>
            <input id={`generator-${p.key}`} type="number" min={p.min} max={p.max} step={p.step ?? 1} value={values[p.key] ?? ""}
              onChange={(e) => setValues({ ...values, [p.key]: Number(e.target.value) })} />
          </div>
        ))}
      </div>
      {kind === "dci" && (
        <label className="field check-field">
          <input type="checkbox" checked={values[ACCELERATOR_KEY] === 1} aria-label="RDMA WAN accelerator at the site edges"
            onChange={(e) => setValues({ ...values, [ACCELERATOR_KEY]: e.target.checked ? 1 : 0 })} />
          <span>WAN accelerator at a-dci, b-dci <span className="unit">(pseudo-ACKs)</span></span>
          <GlossaryTip term="topology.accelerator.enabled" />
        </label>
      )}
      {kind === "dci" && (
        <label className="field">
          <span>Distance: {values.length_km} km <span className="unit">({(values.length_km * 5).toLocaleString()} us one way)</span></span>
          <input type="range" min={1} max={20000} step={1} value={values.length_km} aria-label="DCI distance (km)"
            onChange={(e) => setValues({ ...values, length_km: Number(e.target.value) })} />
        </label>
      )}
      {nodes !== null && <p className="hint" data-testid="generator-size">{nodes.toLocaleString("en-US")} nodes{nodes > MAX_NODES ? ` (at most ${MAX_NODES.toLocaleString("en-US")})` : ""}</p>}
      {refused !== null && <p className="field-error" role="alert" data-testid="generator-error">Not generated: {refusalText(refused)}. The current fabric is kept.</p>}
      <button type="submit" className="primary" disabled={busy}>{busy ? "Generating…" : "Generate"}</button>
    </form>
  );
}
