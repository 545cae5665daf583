import { useState } from "react";
import type { Json, TrafficGenerator, TrafficKind } from "../../../lib/scenario/types";
import type { LayoutGraph } from "../../../lib/topology/types";
import { HostListField, type PickRequest } from "./HostListField";

const KINDS: { kind: TrafficKind; title: string; make: (hosts: string[]) => TrafficGenerator }[] = [
  { kind: "incast", title: "Incast (N to 1)", make: (h) => ({ kind: "incast", senders: h.slice(1, 3), receiver: h[0] ?? "h0", size_bytes: 0 }) },
  { kind: "pairs", title: "Pairs", make: (h) => ({ kind: "pairs", pairs: h.length > 1 ? [[h[0], h[h.length - 1]]] : [], size_bytes: 0 }) },
  { kind: "permutation", title: "Permutation", make: () => ({ kind: "permutation", size_bytes: 1_000_000 }) },
  { kind: "all_to_all", title: "All-to-all", make: () => ({ kind: "all_to_all", size_bytes: 100_000 }) },
  { kind: "perftest", title: "Perftest (ib_write_bw)", make: (h) => ({ kind: "perftest", src: h[1] ?? "h1", dst: h[0] ?? "h0", iterations: 0 }) },
  { kind: "workload", title: "Workload (flow-size distribution)", make: () => ({ kind: "workload", distribution: "websearch", load: 0.5 }) },
  { kind: "pingmesh", title: "Pingmesh", make: () => ({ kind: "pingmesh", interval_us: 100, probe_bytes: 512 }) },
];

export interface TrafficPanelProps {
  traffic: TrafficGenerator[];
  graph: LayoutGraph | null;
  errors: Record<string, string>;
  onAdd: (g: TrafficGenerator) => void;
  onUpdate: (index: number, g: TrafficGenerator) => void;
  onRemove: (index: number) => void;
  onStartPick: (req: PickRequest) => void;
}

export function TrafficPanel(p: TrafficPanelProps) {
  const [kind, setKind] = useState<TrafficKind>("incast");
  const hosts = (p.graph?.nodes ?? []).filter((n) => n.kind === "host").map((n) => n.id);
  return (
    <div className="traffic-panel">
      {p.traffic.length === 0 && <p className="hint">No traffic yet: the fabric would stay idle.</p>}
      {p.traffic.map((g, i) => (
        <GeneratorEditor key={i} index={i} gen={g} hosts={hosts} {...p} />
      ))}
      <div className="row">
        <select aria-label="Traffic kind" value={kind} onChange={(e) => setKind(e.target.value as TrafficKind)}>
          {KINDS.map((k) => <option key={k.kind} value={k.kind}>{k.title}</option>)}
        </select>
        <button type="button" onClick={() => p.onAdd(KINDS.find((k) => k.kind === kind)!.make(hosts))}>Add traffic</button>
      </div>
    </div>
  );
}

function GeneratorEditor({ index, gen, hosts, graph, errors, onUpdate, onRemove, onStartPick }: TrafficPanelProps & { index: number; gen: TrafficGenerator; hosts: string[] }) {
  const set = (field: string, value: Json | undefined) => {
    const next = { ...gen } as TrafficGenerator;
    if (value === undefined) delete next[field];
    else next[field] = value;
    onUpdate(index, next);
  };
  const err = (f: string) => errors[`traffic.${index}.${f}`];
  const errAny = Object.entries(errors).filter(([k]) => k === `traffic.${index}` || k.startsWith(`traffic.${index}.`));
  const num = (field: string, label: string, unit?: string) => (
    <label className="field">
      <span>{label}{unit && <span className="unit"> ({unit})</span>}</span>
      <input type="number" step="any" value={(gen[field] as number | undefined) ?? ""} onChange={(e) => set(field, e.target.value === "" ? undefined : Number(e.target.value))} />
      {err(field) && <small className="field-error">{err(field)}</small>}
    </label>
  );
  const hostSelect = (field: string, label: string) => (
    <label className="field">
      <span>{label}</span>
      <select value={(gen[field] as string) ?? ""} onChange={(e) => set(field, e.target.value)}>
        {!hosts.includes(gen[field] as string) && <option value={(gen[field] as string) ?? ""}>{(gen[field] as string) ?? "—"}</option>}
        {hosts.map((h) => <option key={h} value={h}>{h}</option>)}
      </select>
      <button type="button" className="small" onClick={() => onStartPick({ label: `set the ${label.toLowerCase()}`, index, field, mode: "set" })}>Pick</button>
    </label>
  );
  const list = (field: string, label: string, optional = true) => (
    <HostListField label={label} value={gen[field] as string[] | undefined} graph={graph} optional={optional} index={index} field={field}
      onChange={(v) => set(field, v)} onStartPick={onStartPick} />
  );
  return (
    <fieldset className="generator">
      <legend>
        {index + 1}. {gen.kind}
        <button type="button" className="small" aria-label={`Remove traffic ${index + 1}`} onClick={() => onRemove(index)}>Remove</button>
      </legend>
      {gen.kind === "incast" && <>{list("senders", "Senders", false)}{hostSelect("receiver", "Receiver")}{num("size_bytes", "Size", "bytes, 0 = long-lived")}</>}
      {gen.kind === "pairs" && <PairsEditor pairs={(gen.pairs as [string, string][]) ?? []} hosts={hosts} onChange={(v) => set("pairs", v)} />}
      {gen.kind === "pairs" && num("size_bytes", "Size", "bytes, 0 = long-lived")}
      {(gen.kind === "permutation" || gen.kind === "all_to_all") && <>{list("hosts", "Hosts")}{num("size_bytes", "Size", "bytes, 0 = long-lived")}</>}
      {gen.kind === "perftest" && <>{hostSelect("src", "Source")}{hostSelect("dst", "Destination")}{num("message_bytes", "Message", "bytes")}{num("iterations", "Iterations", "0 = until the end")}</>}
      {gen.kind === "workload" && (
        <>
          <label className="field">
            <span>Distribution</span>
            <select value={gen.distribution as string} onChange={(e) => set("distribution", e.target.value)}>
              {["websearch", "fb_hadoop", "alistorage"].map((d) => <option key={d}>{d}</option>)}
            </select>
          </label>
          {num("load", "Load", "0..1 of host link capacity")}
          {list("hosts", "Hosts")}
        </>
      )}
      {gen.kind === "pingmesh" && <>{list("hosts", "Hosts")}{num("interval_us", "Interval", "us")}{num("probe_bytes", "Probe", "bytes")}</>}
      {gen.kind === "flows" && <p className="hint">{(gen.flows as unknown[] | undefined)?.length ?? 0} flows listed (imported; edit the file to change them)</p>}
      {num("start_us", "Start", "us")}
      {errAny.filter(([k]) => !k.slice(`traffic.${index}.`.length).match(/^(size_bytes|load|interval_us|probe_bytes|message_bytes|iterations|start_us)$/)).map(([k, m]) => (
        <small key={k} className="field-error" role="alert">{k}: {m}</small>
      ))}
    </fieldset>
  );
}

function PairsEditor({ pairs, hosts, onChange }: { pairs: [string, string][]; hosts: string[]; onChange: (p: [string, string][]) => void }) {
  const [src, setSrc] = useState(hosts[0] ?? "");
  const [dst, setDst] = useState(hosts[1] ?? "");
  return (
    <div className="field">
      <span>Pairs (source → destination)</span>
      <ul className="pairs">
        {pairs.map(([a, b], i) => (
          <li key={i}>{a} → {b} <button type="button" className="small" onClick={() => onChange(pairs.filter((_, j) => j !== i))}>×</button></li>
        ))}
      </ul>
      <div className="row">
        <select aria-label="Pair source" value={src} onChange={(e) => setSrc(e.target.value)}>{hosts.map((h) => <option key={h}>{h}</option>)}</select>
        <select aria-label="Pair destination" value={dst} onChange={(e) => setDst(e.target.value)}>{hosts.map((h) => <option key={h}>{h}</option>)}</select>
        <button type="button" className="small" onClick={() => src && dst && src !== dst && onChange([...pairs, [src, dst]])}>Add pair</button>
      </div>
    </div>
  );
}
