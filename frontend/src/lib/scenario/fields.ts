// Parameter fields shown in the fabric-wide panel and per-node overrides, with units
// (docs/scenario-format.md). `path` is relative to `switch` or `nic`.

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
  typeof value === "number" && cellBytes > 0
    ? `${Math.ceil(value / cellBytes).toLocaleString()} cells, ${(value / 1000).toLocaleString()} KB`
    : undefined;

export const SWITCH_FIELDS: FieldSpec[] = [
  { path: "buffer_bytes", label: "Buffer", unit: "bytes", type: "number", hint: inCells },
  { path: "cell_bytes", label: "Cell size", unit: "bytes", type: "number" },
  { path: "pfc.enabled", label: "PFC enabled", type: "bool" },
  { path: "pfc.alpha", label: "PFC dynamic threshold alpha", type: "number", step: 0.0625 },
  { path: "pfc.headroom_bytes", label: "PFC headroom", unit: "bytes", type: "auto-number", hint: inCells },
  { path: "pfc.xon_offset_bytes", label: "XON offset", unit: "bytes", type: "number", hint: inCells },
  { path: "pfc.pause_mode", label: "Pause mode", type: "select", options: ["xoff_xon", "quanta"] },
  { path: "pfc.pause_quanta", label: "Pause quanta", unit: "x 512 bit times", type: "number" },
  { path: "ecn.enabled", label: "ECN enabled", type: "bool" },
  { path: "ecn.kmin_bytes", label: "ECN Kmin", unit: "bytes", type: "number", hint: inCells },
  { path: "ecn.kmax_bytes", label: "ECN Kmax", unit: "bytes", type: "number", hint: inCells },
  { path: "ecn.pmax", label: "ECN Pmax", unit: "0..1", type: "number", step: 0.01 },
  { path: "ecn_mark_point", label: "ECN mark point", type: "select", options: ["enqueue", "dequeue"] },
  { path: "ecmp_seed", label: "ECMP hash seed", type: "number" },
  { path: "data_priority", label: "Data priority", unit: "0..6", type: "number" },
  { path: "load_balancing", label: "Load balancing", type: "select", options: ["ecmp", "per_packet", "adaptive"] },
];

export const NIC_FIELDS: FieldSpec[] = [
  { path: "mtu_bytes", label: "MTU", unit: "bytes", type: "number" },
  { path: "qp_depth", label: "QP depth", unit: "WQEs or bdp", type: "auto-number", keyword: "bdp" },
  { path: "message_bytes", label: "Message size", unit: "bytes", type: "number" },
  { path: "cc.algorithm", label: "Congestion control", type: "select", options: ["dcqcn", "dcqcn_sampled", "none"] },
  { path: "cc.preset", label: "DCQCN preset", type: "select", options: ["dcqcn-paper", "nvidia-default", "hpcc-dcqcn"] },
  { path: "cc.g", label: "DCQCN g", type: "number", step: 0.001 },
  { path: "cc.rai_mbps", label: "Rai", unit: "Mbit/s", type: "number" },
  { path: "cc.rhai_mbps", label: "Rhai", unit: "Mbit/s", type: "number" },
  { path: "cc.min_rate_mbps", label: "Min rate", unit: "Mbit/s", type: "number" },
  { path: "cnp_interval_us", label: "CNP interval", unit: "us", type: "number" },
  { path: "ack_interval_packets", label: "ACK interval", unit: "packets", type: "number" },
  { path: "rto_us", label: "Retransmission timeout", unit: "us", type: "number" },
  { path: "nack_enabled", label: "NACK / go-back-N", type: "bool" },
  { path: "transport", label: "Transport", type: "select", options: ["rc", "xrc", "sprayed", "erd"] },
  { path: "processes_per_host", label: "Processes per host", type: "number" },
  { path: "qp_cache_entries", label: "QP-context cache", unit: "entries, 0 = unlimited", type: "number" },
  { path: "qp_cache_miss_ns", label: "QP-context miss cost", unit: "ns", type: "number" },
  { path: "sprayed.reorder_window_packets", label: "Reorder window (sprayed)", unit: "packets", type: "number" },
  { path: "sprayed.sack_interval_packets", label: "SACK interval (sprayed)", unit: "packets", type: "number" },
  { path: "erd.paths", label: "Paths per QP (erd)", unit: "source ports", type: "number" },
  { path: "erd.nack_interval_us", label: "NACK scan interval (erd)", unit: "us or auto", type: "auto-number" },
];

export const SWITCH_DEFAULTS: Record<string, unknown> = {
  buffer_bytes: 12_000_000,
  cell_bytes: 208,
  "pfc.enabled": true,
  "pfc.alpha": 0.0625,
  "pfc.headroom_bytes": "auto",
  "pfc.xon_offset_bytes": 4160,
  "pfc.pause_mode": "xoff_xon",
  "pfc.pause_quanta": 65535,
  "ecn.enabled": true,
  "ecn.kmin_bytes": 100_000,
  "ecn.kmax_bytes": 400_000,
  "ecn.pmax": 0.2,
  ecn_mark_point: "enqueue",
  ecmp_seed: 0,
  data_priority: 3,
  load_balancing: "ecmp",
};

export const NIC_DEFAULTS: Record<string, unknown> = {
  mtu_bytes: 1000,
  qp_depth: 16,
  message_bytes: 65536,
  "cc.algorithm": "dcqcn",
  "cc.preset": "dcqcn-paper",
  cnp_interval_us: 50,
  ack_interval_packets: 1,
  rto_us: 1000,
  nack_enabled: true,
  transport: "rc",
  processes_per_host: 1,
  qp_cache_entries: 0,
  qp_cache_miss_ns: 500,
  "sprayed.reorder_window_packets": 256,
  "sprayed.sack_interval_packets": 1,
  "erd.paths": 4,
  "erd.nack_interval_us": "auto",
};

/** Run-wide fields of the parameter panel (paths from the document root). */
export const RUN_FIELDS = [
  { path: "duration_us", label: "Duration", unit: "us", placeholder: 10000 },
  { path: "warmup_us", label: "Warm-up", unit: "us", placeholder: 0 },
  { path: "monitor.sample_interval_us", label: "Sample interval", unit: "us", placeholder: 10 },
] as const;
