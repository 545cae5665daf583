// Parameter fields shown in the fabric-wide panel and per-node overrides (docs/scenario-format.md).
// `path` is relative to `switch` or `nic`. Types, options, units and defaults come from the
// generated contract (contract.gen.ts, from the Pydantic models); this file adds labels and hints.
import { type FieldContract, NIC_CONTRACT, ROOT_DEFAULTS, SWITCH_CONTRACT } from "./contract.gen";
import { rangeHint } from "./ranges";

export type FieldType = "number" | "bool" | "select" | "auto-number";

export interface FieldSpec {
  path: string;
  label: string;
  unit?: string;
  type: FieldType;
  options?: string[];
  /** "auto-number": the word accepted besides a number ("auto" unless set; qp_depth: "bdp"). */
  keyword?: string;
  step?: number;
  /** Extra hint shown next to the field, e.g. the value in cells. */
  hint?: (value: unknown, context: { cellBytes: number }) => string | undefined;
}

const inCells = (value: unknown, { cellBytes }: { cellBytes: number }) =>
  typeof value === "number" && value >= 0 && cellBytes > 0 // a negative value has its error, not "-0 cells"
    ? `${Math.ceil(value / cellBytes).toLocaleString()} cells, ${(value / 1000).toLocaleString()} KB`
    : undefined;

/** Display details a panel adds to a field's contract (label, a unit phrased for people). */
interface Extra {
  unit?: string;
  /** Show the contract's range as the unit ("0 .. 6"): for a field whose unit is its range. */
  rangeUnit?: boolean;
  step?: number;
  hint?: FieldSpec["hint"];
}

/** A panel field: its type, options, keyword and unit come from the generated contract. */
function field(table: Readonly<Record<string, FieldContract>>, path: string, label: string, extra: Extra = {}): FieldSpec {
  const c = table[path];
  if (!c) throw new Error(`${path} is not a field of the scenario contract`);
  const type: FieldType =
    c.type === "boolean" ? "bool" : c.type === "enum" ? "select" : c.keyword !== undefined ? "auto-number" : "number";
  const { rangeUnit, ...shown } = extra;
  const unit = rangeUnit ? rangeHint(c) : extra.unit ?? (c.keyword !== undefined && c.unit ? `${c.unit} or ${c.keyword}` : c.unit);
  return {
    path, label, type, ...shown, unit,
    ...(c.options ? { options: [...c.options] } : {}),
    ...(c.keyword !== undefined ? { keyword: c.keyword } : {}),
  };
}
const sw = (path: string, label: string, extra?: Extra) => field(SWITCH_CONTRACT, path, label, extra);
const nic = (path: string, label: string, extra?: Extra) => field(NIC_CONTRACT, path, label, extra);

export const SWITCH_FIELDS: FieldSpec[] = [
  sw("buffer_bytes", "Buffer", { hint: inCells }),
  sw("cell_bytes", "Cell size"),
  sw("pfc.enabled", "PFC enabled"),
  sw("pfc.alpha", "PFC dynamic threshold alpha", { step: 0.0625 }),
  sw("pfc.headroom_bytes", "PFC headroom", { unit: "bytes", hint: inCells }),
  sw("pfc.xon_offset_bytes", "XON offset", { hint: inCells }),
  sw("pfc.pause_mode", "Pause mode"),
  sw("pfc.pause_quanta", "Pause quanta", { unit: "x 512 bit times" }),
  sw("ecn.enabled", "ECN enabled"),
  sw("ecn.kmin_bytes", "ECN Kmin", { hint: inCells }),
  sw("ecn.kmax_bytes", "ECN Kmax", { hint: inCells }),
  sw("ecn.pmax", "ECN Pmax", { rangeUnit: true, step: 0.01 }),
  sw("ecn_mark_point", "ECN mark point"),
  sw("ecmp_seed", "ECMP hash seed"),
  sw("data_priority", "Data priority", { rangeUnit: true }),
  sw("load_balancing", "Load balancing"),
  sw("trimming", "Packet trimming (instead of drops)"),
];

export const NIC_FIELDS: FieldSpec[] = [
  nic("mtu_bytes", "MTU"),
  nic("qp_depth", "QP depth", { unit: "WQEs or bdp" }),
  nic("message_bytes", "Message size"),
  nic("cc.algorithm", "Congestion control"),
  nic("cc.preset", "DCQCN preset"),
  nic("cc.g", "DCQCN g", { step: 0.001 }),
  nic("cc.rai_mbps", "Rai"),
  nic("cc.rhai_mbps", "Rhai"),
  nic("cc.min_rate_mbps", "Min rate"),
  nic("cnp_interval_us", "CNP interval"),
  nic("ack_interval_packets", "ACK interval"),
  nic("rto_us", "Retransmission timeout"),
  nic("nack_enabled", "NACK / go-back-N"),
  nic("transport", "Transport"),
  nic("processes_per_host", "Processes per host"),
  nic("qp_cache_entries", "QP-context cache", { unit: "entries, 0 = unlimited" }),
  nic("qp_cache_miss_ns", "QP-context miss cost"),
  nic("sprayed.reorder_window_packets", "Reorder window (sprayed)"),
  nic("sprayed.sack_interval_packets", "SACK interval (sprayed)"),
  nic("erd.paths", "Paths per QP (erd)", { unit: "source ports" }),
  nic("erd.nack_interval_us", "NACK scan interval (erd)"),
];

/** Defaults of every switch and NIC field (generated from the Pydantic models). */
export { NIC_DEFAULTS, SWITCH_DEFAULTS } from "./contract.gen";

/** Run-wide fields of the parameter panel (paths from the document root). */
export const RUN_FIELDS = [
  { path: "duration_us", label: "Duration", unit: "us", placeholder: ROOT_DEFAULTS.duration_us as number },
  { path: "warmup_us", label: "Warm-up", unit: "us", placeholder: ROOT_DEFAULTS.warmup_us as number },
  { path: "monitor.sample_interval_us", label: "Sample interval", unit: "us", placeholder: ROOT_DEFAULTS["monitor.sample_interval_us"] as number },
] as const;
