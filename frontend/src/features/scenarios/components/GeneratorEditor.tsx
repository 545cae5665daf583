import type { Json, TrafficGenerator } from "../../../lib/scenario/types";
import type { LayoutGraph } from "../../../lib/topology/types";
import { GlossaryTip } from "../../../components/GlossaryTip";
import { HostListField, type PickRequest } from "./HostListField";
import { PairsEditor } from "./PairsEditor";
import { COLLECTIVE_NUMBERS, CollectiveFields } from "./CollectiveFields";
import { rangeHint, schemaRange } from "../../../lib/scenario/ranges";
import { TRAINING_INPUTS, TrainingFields } from "./TrainingFields";

export interface GeneratorEditorProps {
  index: number;
  gen: TrafficGenerator;
  graph: LayoutGraph | null;
  errors: Record<string, string>;
  onUpdate: (index: number, g: TrafficGenerator) => void;
  onRemove: (index: number) => void;
  onStartPick: (req: PickRequest) => void;
}

/** Fields every generator has (docs/scenario-format.md, "traffic"). */
const COMMON = ["start_us", "priority", "qps"] as const;
/** Fields with their own input, whose errors show next to it. */
const OWN_INPUTS = new Set(["size_bytes", "load", "interval_us", "probe_bytes", "message_bytes", "tx_depth",
  "iterations", "stop_us", "name", ...COMMON,
  // the collective's own inputs (CollectiveFields)
  "op", "algorithm", "job", "servers", "placement", ...COLLECTIVE_NUMBERS.map((n) => n.field),
  // the training generator's (TrainingFields)
  ...TRAINING_INPUTS]);

export const NUM_FIELDS: Record<string, { label: string; unit?: string }> = {
  size_bytes: { label: "Size", unit: "bytes, 0 = long-lived" },
  message_bytes: { label: "Message", unit: "bytes" },
  tx_depth: { label: "TX depth", unit: "WQEs in flight" },
  iterations: { label: "Iterations", unit: "0 = until the end" },
  load: { label: "Load", unit: `${rangeHint(schemaRange("Workload.load"))} of host link capacity` },
  stop_us: { label: "Stop", unit: "us" },
  interval_us: { label: "Interval", unit: "us" },
  probe_bytes: { label: "Probe", unit: "bytes" },
  start_us: { label: "Start", unit: "us" },
  priority: { label: "Priority", unit: rangeHint(schemaRange("Generator.priority")) },
  qps: { label: "QPs per flow", unit: rangeHint(schemaRange("Generator.qps")) },
};

/** ToR switches: the switches hosts hang off (a host's group). */
function torsOf(graph: LayoutGraph | null): string[] {
  if (!graph) return [];
  const switches = new Set(graph.nodes.filter((n) => n.kind === "switch").map((n) => n.id));
  return [...new Set(graph.nodes.filter((n) => n.kind === "host" && n.group && switches.has(n.group)).map((n) => n.group!))];
}

/** One traffic generator: every field the format has for its kind, plus the common ones. */
export function GeneratorEditor({ index, gen, graph, errors, onUpdate, onRemove, onStartPick }: GeneratorEditorProps) {
  const hosts = (graph?.nodes ?? []).filter((n) => n.kind === "host").map((n) => n.id);
  const set = (field: string, value: Json | undefined) => {
    const next = { ...gen } as TrafficGenerator;
    if (value === undefined) delete next[field];
    else next[field] = value;
    onUpdate(index, next);
  };
  const err = (f: string) => errors[`traffic.${index}.${f}`];
  const num = (field: string) => {
    const spec = NUM_FIELDS[field];
    return (
      <div className="field" key={field}>
        <span className="field-head">
          <label htmlFor={`traffic-${index}-${field}`}>{spec.label}{spec.unit && <span className="unit"> ({spec.unit})</span>}</label>
          <GlossaryTip term={`traffic.${field}`} />
        </span>
        <input id={`traffic-${index}-${field}`} type="number" step="any" value={(gen[field] as number | undefined) ?? ""} aria-invalid={!!err(field)}
          onChange={(e) => set(field, e.target.value === "" ? undefined : Number(e.target.value))} />
        {err(field) && <small className="field-error">{err(field)}</small>}
      </div>
    );
  };
  const hostSelect = (field: string, label: string) => (
    <div className="field">
      <span className="field-head"><label htmlFor={`traffic-${index}-${field}`}>{label}</label><GlossaryTip term={`traffic.${field}`} /></span>
      <select id={`traffic-${index}-${field}`} value={(gen[field] as string) ?? ""} onChange={(e) => set(field, e.target.value)} aria-invalid={!!err(field)}>
        {!hosts.includes(gen[field] as string) && <option value={(gen[field] as string) ?? ""}>{(gen[field] as string) ?? "—"}</option>}
        {hosts.map((h) => <option key={h} value={h}>{h}</option>)}
      </select>
      <button type="button" className="small" onClick={() => onStartPick({ label: `set the ${label.toLowerCase()}`, index, field, mode: "set" })}>Pick</button>
      {err(field) && <small className="field-error">{err(field)}</small>}
    </div>
  );
  const list = (field: string, label: string, optional = true) => (
    <HostListField label={label} value={gen[field] as string[] | undefined} graph={graph} optional={optional} index={index} field={field}
      onChange={(v) => set(field, v)} onStartPick={onStartPick} />
  );
  const others = Object.entries(errors).filter(([k]) => (k === `traffic.${index}` || k.startsWith(`traffic.${index}.`))
    && !OWN_INPUTS.has(k.slice(`traffic.${index}.`.length)));
  return (
    <fieldset className="generator">
      <legend>
        {index + 1}. {gen.kind}{gen.name ? `: ${gen.name as string}` : ""}
        <button type="button" className="small" aria-label={`Remove traffic ${index + 1}`} onClick={() => onRemove(index)}>Remove</button>
      </legend>
      <label className="field">
        <span>Name</span>
        <input value={(gen.name as string) ?? ""} aria-label={`Traffic ${index + 1} name`} onChange={(e) => set("name", e.target.value || undefined)} />
      </label>
      {gen.kind === "incast" && <>{list("senders", "Senders", false)}{hostSelect("receiver", "Receiver")}{num("size_bytes")}</>}
      {gen.kind === "pairs" && <PairsFields gen={gen} hosts={hosts} tors={torsOf(graph)} onUpdate={(g) => onUpdate(index, g)} />}
      {gen.kind === "pairs" && num("size_bytes")}
      {(gen.kind === "permutation" || gen.kind === "all_to_all") && <>{list("hosts", "Hosts")}{num("size_bytes")}</>}
      {gen.kind === "perftest" && <>{hostSelect("src", "Source")}{hostSelect("dst", "Destination")}{num("message_bytes")}{num("tx_depth")}{num("iterations")}</>}
      {gen.kind === "workload" && <WorkloadFields gen={gen} replace={(g) => onUpdate(index, g)} />}
      {gen.kind === "workload" && <>{num("load")}{num("stop_us")}{list("hosts", "Hosts")}</>}
      {gen.kind === "pingmesh" && <>{list("hosts", "Hosts")}{num("interval_us")}{num("probe_bytes")}</>}
      {gen.kind === "collective" && <CollectiveFields index={index} gen={gen} graph={graph} errors={errors} onUpdate={(g) => onUpdate(index, g)} onStartPick={onStartPick} />}
      {gen.kind === "training" && <TrainingFields index={index} gen={gen} graph={graph} errors={errors} onUpdate={(g) => onUpdate(index, g)} onStartPick={onStartPick} />}
      {gen.kind === "flows" && <p className="hint">{(gen.flows as unknown[] | undefined)?.length ?? 0} flows listed (imported; edit the file to change them)</p>}
      <details className="generator-more">
        <summary>{gen.kind === "collective" || gen.kind === "training" ? "Start, priority" : "Start, priority, QPs"}</summary>
        {/* a collective's or training job's QPs are its channels (the format refuses qps other than 1) */}
        {COMMON.filter((f) => (gen.kind !== "collective" && gen.kind !== "training") || f !== "qps").map((f) => num(f))}
      </details>
      {others.map(([k, m]) => <small key={k} className="field-error" role="alert">{m}</small>)}
    </fieldset>
  );
}

/** `pairs` (host to host) or `tor_pairs` (every host under one ToR to the same-index host under another). */
function PairsFields({ gen, hosts, tors, onUpdate }: { gen: TrafficGenerator; hosts: string[]; tors: string[]; onUpdate: (g: TrafficGenerator) => void }) {
  const byTor = gen.tor_pairs !== undefined;
  const field = byTor ? "tor_pairs" : "pairs";
  const pairs = ((gen[field] as [string, string][] | undefined) ?? []);
  const switchMode = (toTor: boolean) => {
    const next = { ...gen } as TrafficGenerator;
    delete next.pairs;
    delete next.tor_pairs;
    next[toTor ? "tor_pairs" : "pairs"] = [];
    onUpdate(next);
  };
  return (
    <>
      <div className="field">
        <span className="field-head"><span>Pairs of</span><GlossaryTip term="traffic.tor_pairs" /></span>
        <select aria-label="Pairs of" value={byTor ? "tor" : "host"} onChange={(e) => switchMode(e.target.value === "tor")}>
          <option value="host">hosts (pairs)</option>
          <option value="tor">ToR switches (tor_pairs: host i under one ToR to host i under the other)</option>
        </select>
      </div>
      <PairsEditor label={byTor ? "ToR pairs" : "Host pairs"} pairs={pairs} options={byTor ? tors : hosts}
        onChange={(p) => onUpdate({ ...gen, [field]: p })} />
    </>
  );
}

const DISTRIBUTIONS = ["websearch", "fb_hadoop", "alistorage", "custom"];

/** Distribution, and for "custom" the CDF as "size_bytes percent" lines. */
function WorkloadFields({ gen, replace }: { gen: TrafficGenerator; replace: (g: TrafficGenerator) => void }) {
  const cdf = (gen.cdf as [number, number][] | undefined) ?? [];
  return (
    <>
      <div className="field">
        <span className="field-head"><span>Distribution</span><GlossaryTip term="traffic.distribution" /></span>
        <select aria-label="Distribution" value={gen.distribution as string} onChange={(e) => {
          const d = e.target.value;
          const next = { ...gen, distribution: d } as TrafficGenerator;
          if (d === "custom" && !next.cdf) next.cdf = [[1000, 50], [100000, 100]];
          if (d !== "custom") delete next.cdf;
          replace(next);
        }}>
          {DISTRIBUTIONS.map((d) => <option key={d}>{d}</option>)}
        </select>
      </div>
      {gen.distribution === "custom" && (
        <label className="field">
          <span>CDF <span className="unit">(one "size_bytes percent" per line, percent ending at 100)</span></span>
          <textarea rows={4} defaultValue={cdf.map(([s, p]) => `${s} ${p}`).join("\n")} aria-label="Custom CDF"
            onBlur={(e) => replace({ ...gen, cdf: e.target.value.split("\n").map((l) => l.trim()).filter(Boolean)
              .map((l) => l.split(/[\s,]+/).map(Number) as [number, number]) })} />
        </label>
      )}
    </>
  );
}
