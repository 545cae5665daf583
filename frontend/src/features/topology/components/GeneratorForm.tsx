import { useState } from "react";
import type { GeneratorKind, GeneratorTopology, Json, Topology } from "../../../lib/scenario/types";
import { GlossaryTip } from "../../../components/GlossaryTip";
import { ApiError } from "../../../lib/api/errors";
import { uniqueFieldErrors } from "../../../lib/api/fieldErrors";
import { FABRIC_COUNTS, LIMITS, SCHEMA_DEFAULTS } from "../../../lib/scenario/contract.gen";
import { schemaRange } from "../../../lib/scenario/ranges";
import { FIBRE_US_PER_KM } from "../../../lib/topology/linkLabels";

/** backend/app/scenarios/limits.py MAX_NODES (the generated contract) */
export const MAX_NODES = LIMITS.MAX_NODES;

/** Node count of a generated fabric, shown before generating: the declared formula
 *  (backend/app/scenarios/fabric_counts.py, generated into FABRIC_COUNTS). */
export function estimateNodes(kind: GeneratorKind, v: Record<string, number>): number | null {
  const count = FABRIC_COUNTS[kind]?.nodes(v) ?? NaN;
  return Number.isFinite(count) ? count : null;
}

/** A rail leaf's oversubscription (docs/scenario-format.md; `fabricsim expand` reports the same):
 *  servers per unit x NIC rate down, spines x fabric rate up. */
export function railOversubscription(v: Record<string, number>): number | null {
  const x = (v.servers_per_unit * v.host_rate_gbps) / (v.spines * v.fabric_rate_gbps);
  return Number.isFinite(x) && x > 0 ? x : null;
}

function refusalText(err: unknown): string {
  if (err instanceof ApiError && err.fields.length) return uniqueFieldErrors(err.fields).map((f) => f.message).join("; ");
  return err instanceof Error ? err.message : String(err);
}

interface ParamSpec {
  key: string;
  label: string;
  unit?: string;
  min?: number;
  max?: number;
  /** "any" for rates: their minimum (0.01 Gbit/s) is off the whole numbers' grid */
  step?: number | "any";
  /** shown in an empty field: what an omitted (optional) setting defaults to */
  placeholder?: string;
  /** the property it sets ("LeafSpine.leaves"): its range and default come from there */
  schema?: string;
}

/** min and max of a generator's field, from the generated contract ("LeafSpine", "leaves"). */
function bounds(definition: string, field: string): Pick<ParamSpec, "min" | "max" | "schema"> {
  const schema = `${definition}.${field}`;
  const { min, max } = schemaRange(schema);
  return { min, max, schema };
}

/** The form's starting values: each parameter's declared default (SCHEMA_DEFAULTS); `also`
 *  names the defaults of fields whose own default is another's (three_tier's uplinks: the host
 *  rate) or that the form sets outside its parameters (the DCI's distance). */
function defaultsOf(params: ParamSpec[], also: Record<string, string> = {}): Record<string, number> {
  const out: Record<string, number> = {};
  for (const p of params) {
    const v = p.schema !== undefined ? SCHEMA_DEFAULTS[p.schema] : undefined;
    if (v !== undefined) out[p.key] = v;
  }
  for (const [key, schema] of Object.entries(also)) {
    const v = SCHEMA_DEFAULTS[schema];
    if (v === undefined) throw new Error(`no default for ${schema} in the generated contract`);
    out[key] = v;
  }
  return out;
}

/** The host rate and link delay every generator has (the same declaration in each). */
const rates = (definition: string): ParamSpec[] => [
  { key: "host_rate_gbps", label: "Host rate", unit: "Gbit/s", ...bounds(definition, "host_rate_gbps"), step: "any" },
  { key: "link_delay_us", label: "Link delay", unit: "us", ...bounds(definition, "link_delay_us"), step: 0.1 },
];

/** A generator's form: its title, parameters and their declared defaults (see defaultsOf). */
function generator(title: string, params: ParamSpec[], also?: Record<string, string>) {
  return { title, params, defaults: defaultsOf(params, also) };
}

export const GENERATORS: Record<GeneratorKind, { title: string; params: ParamSpec[]; defaults: Record<string, number> }> = {
  leaf_spine: generator("Leaf-spine", [
    { key: "leaves", label: "Leaves", ...bounds("LeafSpine", "leaves") },
    { key: "spines", label: "Spines", ...bounds("LeafSpine", "spines") },
    { key: "hosts_per_leaf", label: "Hosts per leaf", ...bounds("LeafSpine", "hosts_per_leaf") },
    ...rates("LeafSpine"),
    { key: "fabric_rate_gbps", label: "Fabric rate", unit: "Gbit/s", ...bounds("LeafSpine", "fabric_rate_gbps"), step: "any" },
  ]),
  fat_tree: generator("Fat-tree", [{ key: "k", label: "k (even)", ...bounds("FatTree", "k"), step: 2 }, ...rates("FatTree"), { key: "fabric_rate_gbps", label: "Fabric rate", unit: "Gbit/s", ...bounds("FatTree", "fabric_rate_gbps"), step: "any" }]),
  three_tier: generator("Three-tier podsets", [
    { key: "podsets", label: "Podsets", ...bounds("ThreeTier", "podsets") },
    { key: "tors_per_podset", label: "ToRs per podset", ...bounds("ThreeTier", "tors_per_podset") },
    { key: "leafs_per_podset", label: "Leafs per podset", ...bounds("ThreeTier", "leafs_per_podset") },
    { key: "spines", label: "Spines", ...bounds("ThreeTier", "spines") },
    { key: "hosts_per_tor", label: "Hosts per ToR", ...bounds("ThreeTier", "hosts_per_tor") },
    ...rates("ThreeTier"),
    { key: "tor_uplink_gbps", label: "ToR uplink (sets oversubscription)", unit: "Gbit/s", ...bounds("ThreeTier", "tor_uplink_gbps"), step: "any" },
    { key: "leaf_uplink_gbps", label: "Leaf uplink", unit: "Gbit/s", ...bounds("ThreeTier", "leaf_uplink_gbps"), step: "any" },
  ], { tor_uplink_gbps: "ThreeTier.host_rate_gbps", leaf_uplink_gbps: "ThreeTier.host_rate_gbps" }),
  rail_optimized: generator("Rail-optimized (AI cluster)", [
    { key: "units", label: "Scalable units", ...bounds("RailOptimized", "units") },
    { key: "servers_per_unit", label: "Servers per unit", ...bounds("RailOptimized", "servers_per_unit") },
    { key: "nics_per_server", label: "NICs (GPUs) per server = rails", ...bounds("RailOptimized", "nics_per_server") },
    { key: "spines", label: "Spines", ...bounds("RailOptimized", "spines") },
    { key: "host_rate_gbps", label: "NIC rate", unit: "Gbit/s", ...bounds("RailOptimized", "host_rate_gbps"), step: "any" },
    { key: "fabric_rate_gbps", label: "Leaf-spine rate", unit: "Gbit/s", ...bounds("RailOptimized", "fabric_rate_gbps"), step: "any" },
    { key: "link_delay_us", label: "Link delay", unit: "us", ...bounds("RailOptimized", "link_delay_us"), step: 0.1 },
    { key: "nvlink_gbps", label: "NVLink per GPU (cost, not a link)", unit: "Gbit/s", ...bounds("RailOptimized", "nvlink_gbps"), step: "any" },
  ]),
  multi_plane: generator("Multi-plane (AI cluster)", [
    { key: "planes", label: "Planes (ports per NIC)", ...bounds("MultiPlane", "planes") },
    { key: "units", label: "Scalable units", ...bounds("MultiPlane", "units") },
    { key: "servers_per_unit", label: "Servers per unit", ...bounds("MultiPlane", "servers_per_unit") },
    { key: "nics_per_server", label: "NICs (GPUs) per server = rails", ...bounds("MultiPlane", "nics_per_server") },
    { key: "spines", label: "Spines per plane", ...bounds("MultiPlane", "spines") },
    { key: "host_rate_gbps", label: "NIC port rate (per plane)", unit: "Gbit/s", ...bounds("MultiPlane", "host_rate_gbps"), step: "any" },
    { key: "fabric_rate_gbps", label: "Leaf-spine rate", unit: "Gbit/s", ...bounds("MultiPlane", "fabric_rate_gbps"), step: "any" },
    { key: "link_delay_us", label: "Link delay", unit: "us", ...bounds("MultiPlane", "link_delay_us"), step: 0.1 },
    { key: "nvlink_gbps", label: "NVLink per GPU (cost, not a link)", unit: "Gbit/s", ...bounds("MultiPlane", "nvlink_gbps"), step: "any" },
  ]),
  dci: generator("DCI (two sites)", [
    { key: "site.leaves", label: "Leaves per site", ...bounds("LeafSpineSite", "leaves") },
    { key: "site.spines", label: "Spines per site", ...bounds("LeafSpineSite", "spines") },
    { key: "site.hosts_per_leaf", label: "Hosts per leaf", ...bounds("LeafSpineSite", "hosts_per_leaf") },
    { key: "dci_rate_gbps", label: "Long-haul rate", unit: "Gbit/s", ...bounds("Dci", "dci_rate_gbps"), step: "any" },
  ], { length_km: "Dci.length_km" }),
};

/** The DCI's distance (Dci.length_km). */
const DISTANCE_KM = bounds("Dci", "length_km");

/** The DCI form's accelerator switch, kept among the numeric values as 1 (on) or 0 (off). */
const ACCELERATOR_KEY = "accelerator.enabled";

/** The accelerator's settings shown while it is on (backend/app/scenarios/topology.py
 *  DciAccelerator); the timeout may be left empty for its default, 2 x long-haul RTT + 100 us. */
export const ACCELERATOR_PARAMS: ParamSpec[] = [
  { key: "accelerator.buffer_bytes", label: "Accelerator buffer", unit: "bytes per edge", ...bounds("DciAccelerator", "buffer_bytes"), placeholder: "268435456 (256 MiB)" },
  { key: "accelerator.retransmit_timeout_us", label: "Resend timeout", unit: "us", ...bounds("DciAccelerator", "retransmit_timeout_us"), step: 0.1, placeholder: "2 x long-haul RTT + 100" },
];

/** Form values (flat, "site.x" and "accelerator.x" for nested) -> topology object. A DCI's
 *  accelerator takes `enabled` and ACCELERATOR_PARAMS from the form (an emptied field is left
 *  out, so the default applies); keys the form does not show are kept from `previous`. */
export function toTopology(kind: GeneratorKind, values: Record<string, number>, previous?: Topology): GeneratorTopology {
  const topo: GeneratorTopology = { kind };
  const kept = previous?.kind === "dci" && previous.accelerator && typeof previous.accelerator === "object" ? previous.accelerator as Record<string, Json> : {};
  const shown = new Set(ACCELERATOR_PARAMS.map((p) => p.key.slice(12)));
  const accelerator: Record<string, Json> = Object.fromEntries(Object.entries(kept).filter(([k]) => !shown.has(k)));
  for (const [k, v] of Object.entries(values)) {
    if (k === ACCELERATOR_KEY) accelerator.enabled = v === 1;
    else if (k.startsWith("accelerator.")) {
      if (Number.isFinite(v)) accelerator[k.slice(12)] = v;
    } else if (k.startsWith("site.")) {
      const site = (topo.site as Record<string, number>) ?? {};
      site[k.slice(5)] = v;
      topo.site = site;
    } else topo[k] = v;
  }
  // an accelerator never switched on and never configured stays out of the document
  if (kind === "dci" && (accelerator.enabled === true || Object.keys(kept).length > 0)) topo.accelerator = accelerator;
  return topo;
}

function fromTopology(t: Topology): { kind: GeneratorKind; values: Record<string, number> } {
  if (t.kind === "explicit") return { kind: "leaf_spine", values: { ...GENERATORS.leaf_spine.defaults } };
  const values: Record<string, number> = { ...GENERATORS[t.kind].defaults };
  for (const [k, v] of Object.entries(t)) {
    if (k === "site" && v && typeof v === "object") for (const [sk, sv] of Object.entries(v)) values[`site.${sk}`] = sv as number;
    else if (k === "accelerator" && v && typeof v === "object") {
      const a = v as Record<string, unknown>;
      values[ACCELERATOR_KEY] = a.enabled === true ? 1 : 0;
      for (const p of ACCELERATOR_PARAMS) {
        const own = a[p.key.slice(12)];
        if (typeof own === "number") values[p.key] = own;
      }
    } else if (typeof v === "number") values[k] = v;
  }
  return { kind: t.kind, values };
}

/** One numeric generator parameter with its glossary tip; an emptied field reports undefined. */
function ParamField({ p, value, onChange }: { p: ParamSpec; value: number | undefined; onChange: (v: number | undefined) => void }) {
  return (
    <div className="field">
      <span className="field-head">
        <label htmlFor={`generator-${p.key}`}>{p.label}{p.unit && <span className="unit"> ({p.unit})</span>}</label>
        <GlossaryTip term={`topology.${p.key}`} />
      </span>
      <input id={`generator-${p.key}`} type="number" min={p.min} max={p.max} step={p.step ?? 1} value={value ?? ""} placeholder={p.placeholder}
        onChange={(e) => onChange(e.target.value === "" ? undefined : Number(e.target.value))} />
    </div>
  );
}

/** Generator parameters; "Generate" replaces the canvas with the laid-out fabric. */
export function GeneratorForm({ topology, onGenerate }: { topology: Topology; onGenerate: (t: GeneratorTopology) => Promise<void> | void }) {
  const initial = fromTopology(topology);
  const [kind, setKind] = useState<GeneratorKind>(initial.kind);
  const [values, setValues] = useState<Record<string, number>>(initial.values);
  const spec = GENERATORS[kind];
  const [busy, setBusy] = useState(false);
  const [refused, setRefused] = useState<unknown>(null);
  // a fat tree of odd k has no whole number of pods or ports per direction
  const oddK = kind === "fat_tree" && Number.isFinite(values.k) && values.k % 2 !== 0;
  const nodes = oddK ? null : estimateNodes(kind, values);
  const oversubscription = kind === "rail_optimized" || kind === "multi_plane" ? railOversubscription(values) : null;
  const setValue = (key: string, v: number | undefined) => {
    const next = { ...values };
    if (v === undefined) delete next[key];
    else next[key] = v;
    setValues(next);
  };
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
        {spec.params.map((p) => <ParamField key={p.key} p={p} value={values[p.key]} onChange={(v) => setValue(p.key, v ?? 0)} />)}
      </div>
      {kind === "dci" && (
        <label className="field check-field">
          <input type="checkbox" checked={values[ACCELERATOR_KEY] === 1} aria-label="RDMA WAN accelerator at the site edges"
            onChange={(e) => setValues({ ...values, [ACCELERATOR_KEY]: e.target.checked ? 1 : 0 })} />
          <span>WAN accelerator at a-dci, b-dci <span className="unit">(pseudo-ACKs)</span></span>
          <GlossaryTip term="topology.accelerator.enabled" />
        </label>
      )}
      {kind === "dci" && values[ACCELERATOR_KEY] === 1 && (
        <div className="grid-2" data-testid="accelerator-settings">
          {ACCELERATOR_PARAMS.map((p) => <ParamField key={p.key} p={p} value={values[p.key]} onChange={(v) => setValue(p.key, v)} />)}
        </div>
      )}
      {kind === "dci" && (
        <label className="field">
          <span>Distance: {values.length_km} km <span className="unit">({(values.length_km * FIBRE_US_PER_KM).toLocaleString()} us one way)</span></span>
          <span className="row">
            <input type="range" min={DISTANCE_KM.min} max={DISTANCE_KM.max} step={1} value={values.length_km} aria-label="DCI distance (km)"
              onChange={(e) => setValues({ ...values, length_km: Number(e.target.value) })} />
            <input type="number" min={DISTANCE_KM.min} max={DISTANCE_KM.max} step={1} value={values.length_km} aria-label="DCI distance in km" size={6}
              onChange={(e) => setValues({ ...values, length_km: Number(e.target.value) })} />
          </span>
        </label>
      )}
      {nodes !== null && <p className="hint" data-testid="generator-size">{nodes.toLocaleString("en-US")} nodes{nodes > MAX_NODES ? ` (at most ${MAX_NODES.toLocaleString("en-US")})` : ""}</p>}
      {oversubscription !== null && <p className="hint" data-testid="generator-oversubscription">Each rail leaf{kind === "multi_plane" ? " (every plane)" : ""}: {oversubscription.toLocaleString("en-US", { maximumFractionDigits: 2 })}:1 oversubscribed (servers per unit x {kind === "multi_plane" ? "port" : "NIC"} rate / spines x leaf-spine rate)</p>}
      {kind === "multi_plane" && Number.isFinite(values.planes * values.host_rate_gbps) && <p className="hint" data-testid="generator-nic-rate">Each NIC: {values.planes} x {values.host_rate_gbps} = {(values.planes * values.host_rate_gbps).toLocaleString("en-US")} Gbit/s. The sprayed transport uses every plane per QP; RC pins a QP to one plane.</p>}
      {oddK && <p className="field-error" role="alert" data-testid="generator-size">k must be even (got {values.k}): a fat tree's switches have k/2 ports down and k/2 up.</p>}
      {refused !== null && <p className="field-error" role="alert" data-testid="generator-error">Not generated: {refusalText(refused)}. The current fabric is kept.</p>}
      <button type="submit" className="primary" disabled={busy || oddK}>{busy ? "Generating…" : "Generate"}</button>
    </form>
  );
}
