import type { Json, TrafficGenerator } from "../../../lib/scenario/types";
import type { LayoutGraph } from "../../../lib/topology/types";
import { COLLECTIVE_ALGORITHMS, COLLECTIVE_DEFAULTS, SCHEMA_RANGES } from "../../../lib/scenario/contract.gen";
import { HostListField, type PickRequest } from "./HostListField";

/** The ops of the `collective` generator, in the contract's order, with how people name them. */
export const COLLECTIVE_OPS: { op: string; title: string }[] = Object.keys(COLLECTIVE_ALGORITHMS).map((op) => ({
  op, title: op.replace(/_/g, "-"),
}));

/** The collective's numeric fields with their own input (ranges and defaults from the contract). */
export const COLLECTIVE_NUMBERS: { field: string; label: string; unit: string }[] = [
  { field: "message_bytes", label: "Message size", unit: "bytes, NCCL-tests' size of the op" },
  { field: "channels", label: "Channels", unit: "parallel rings or trees, each its own QPs" },
  { field: "chunk_bytes", label: "Chunk", unit: "bytes; 0: ring steps whole, tree 1 MiB" },
  { field: "iterations", label: "Iterations", unit: "times the op runs" },
  { field: "compute_us", label: "Compute between iterations", unit: "us" },
  { field: "nvlink_gbps", label: "NVLink", unit: "Gbit/s per GPU; empty: topology's, else 3600" },
];

/** Where the ranks come from: every host, a list of hosts, or a number of servers placed. */
export type RankMode = "all" | "hosts" | "servers";

export function rankMode(gen: TrafficGenerator): RankMode {
  if (gen.servers !== undefined && gen.servers !== null) return "servers";
  if (gen.hosts !== undefined && gen.hosts !== null) return "hosts";
  return "all";
}

/** "1 .. 64" from the generated contract's range for Collective.field. */
export function rangeHint(field: string): string {
  const r = SCHEMA_RANGES[`Collective.${field}`];
  if (!r) return "";
  const max = r.max !== undefined && r.max < 1e15 ? r.max.toLocaleString("en-US") : null;
  return max !== null ? `${r.min ?? 0} .. ${max}` : `at least ${r.min ?? 0}`;
}

/** The op changes: keep the algorithm when the new op runs it, else the op's first (its default). */
export function withOp(gen: TrafficGenerator, op: string): TrafficGenerator {
  const allowed = COLLECTIVE_ALGORITHMS[op] ?? [];
  const algorithm = allowed.includes(gen.algorithm as string) ? gen.algorithm as string : allowed[0];
  return { ...gen, op, algorithm };
}

/** Host ids in the simulator's node order (h2 before h10; the canvas groups them by leaf instead). */
export const byNodeOrder = (ids: string[]) => [...ids].sort((a, b) => a.localeCompare(b, "en", { numeric: true }));

/** The rank source changes: the fields of the others go (the format refuses hosts and servers together). */
export function withRankMode(gen: TrafficGenerator, mode: RankMode, hosts: string[], serversOnFabric: number): TrafficGenerator {
  const next = { ...gen } as TrafficGenerator;
  delete next.hosts;
  delete next.servers;
  delete next.placement;
  if (mode === "hosts") next.hosts = hosts.slice(0, Math.max(2, Math.min(hosts.length, 8)));
  if (mode === "servers") {
    next.servers = Math.max(1, Math.min(2, serversOnFabric || 1));
    next.placement = COLLECTIVE_DEFAULTS.placement as string;
  }
  return next;
}

/** The `collective` generator's fields (docs/scenario-format.md, "collective"). */
export function CollectiveFields({ index, gen, graph, errors, onUpdate, onStartPick }: {
  index: number;
  gen: TrafficGenerator;
  graph: LayoutGraph | null;
  errors: Record<string, string>;
  onUpdate: (g: TrafficGenerator) => void;
  onStartPick: (req: PickRequest) => void;
}) {
  const hostNodes = (graph?.nodes ?? []).filter((n) => n.kind === "host");
  const servers = new Set(hostNodes.map((n) => n.server).filter(Boolean)).size;
  const set = (field: string, value: Json | undefined) => {
    const next = { ...gen } as TrafficGenerator;
    if (value === undefined) delete next[field];
    else next[field] = value;
    onUpdate(next);
  };
  const err = (f: string) => errors[`traffic.${index}.${f}`];
  const id = (f: string) => `traffic-${index}-${f}`;
  const errorOf = (f: string) => err(f) && <small className="field-error">{err(f)}</small>;
  const op = (gen.op as string) ?? "all_reduce";
  const algorithms = COLLECTIVE_ALGORITHMS[op] ?? [];
  const mode = rankMode(gen);
  return (
    <>
      <div className="field">
        <label htmlFor={id("op")}>Operation</label>
        <select id={id("op")} value={op} aria-invalid={!!err("op")} onChange={(e) => onUpdate(withOp(gen, e.target.value))}>
          {COLLECTIVE_OPS.map((o) => <option key={o.op} value={o.op}>{o.title}</option>)}
        </select>
        {errorOf("op")}
      </div>
      <div className="field">
        <label htmlFor={id("algorithm")}>Algorithm <span className="unit">(those that run {op.replace(/_/g, "-")})</span></label>
        <select id={id("algorithm")} value={(gen.algorithm as string) ?? algorithms[0]} aria-invalid={!!err("algorithm")}
          onChange={(e) => set("algorithm", e.target.value)}>
          {algorithms.map((a) => <option key={a} value={a}>{a.replace(/_/g, " ")}</option>)}
        </select>
        {errorOf("algorithm")}
      </div>
      {COLLECTIVE_NUMBERS.map(({ field, label, unit }) => (
        <div className="field" key={field}>
          <label htmlFor={id(field)}>{label} <span className="unit">({unit}; {rangeHint(field)})</span></label>
          <input id={id(field)} type="number" step="any" value={(gen[field] as number | undefined) ?? ""} aria-invalid={!!err(field)}
            placeholder={COLLECTIVE_DEFAULTS[field] !== undefined ? String(COLLECTIVE_DEFAULTS[field]) : undefined}
            onChange={(e) => set(field, e.target.value === "" ? undefined : Number(e.target.value))} />
          {errorOf(field)}
        </div>
      ))}
      <div className="field">
        <label htmlFor={id("job")}>Job name <span className="unit">(in the results; empty: the generator's name)</span></label>
        <input id={id("job")} value={(gen.job as string) ?? ""} aria-invalid={!!err("job")} onChange={(e) => set("job", e.target.value || undefined)} />
        {errorOf("job")}
      </div>
      <div className="field">
        <label htmlFor={id("ranks")}>Ranks</label>
        <select id={id("ranks")} value={mode} onChange={(e) => onUpdate(withRankMode(gen, e.target.value as RankMode, byNodeOrder(hostNodes.map((n) => n.id)), servers))}>
          <option value="all">every host, in node order</option>
          <option value="hosts">listed hosts, in rank order</option>
          <option value="servers">a number of servers, placed</option>
        </select>
        {mode === "servers" && servers === 0 && graph && (
          <small className="hint">This fabric's hosts name no server: each host is a server of one NIC.</small>
        )}
      </div>
      {mode === "hosts" && (
        <HostListField label="Ranks (hosts)" value={gen.hosts as string[] | undefined} graph={graph} optional={false} index={index} field="hosts"
          onChange={(v) => set("hosts", v)} onStartPick={onStartPick} />
      )}
      {mode === "servers" && (
        <>
          <div className="field">
            <label htmlFor={id("servers")}>Servers <span className="unit">(all their NICs are ranks{servers ? `; ${servers} on this fabric` : ""})</span></label>
            <input id={id("servers")} type="number" step={1} value={(gen.servers as number | undefined) ?? ""} aria-invalid={!!err("servers")}
              onChange={(e) => set("servers", e.target.value === "" ? undefined : Number(e.target.value))} />
            {errorOf("servers")}
          </div>
          <div className="field">
            <label htmlFor={id("placement")}>Placement</label>
            <select id={id("placement")} value={(gen.placement as string) ?? COLLECTIVE_DEFAULTS.placement as string} onChange={(e) => set("placement", e.target.value)}>
              <option value="packed">packed (the first free servers)</option>
              <option value="spread">spread (across leaves or units)</option>
              <option value="random">random (from the seed)</option>
            </select>
            {errorOf("placement")}
          </div>
        </>
      )}
    </>
  );
}
