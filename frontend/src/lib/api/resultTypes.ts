// Result format v1 (docs/result-format.md): the parts the UI reads.

export interface Percentiles {
  count: number;
  mean: number | null;
  p50: number | null;
  p99: number | null;
  p999?: number | null;
  p95?: number | null;
}

export interface ResultSummary {
  throughput_gbps: number;
  host_throughput_gbps?: Record<string, number>;
  /** Per direction "a->b" (egress of a). The counts are in newer results only. */
  link_utilization?: { link: string; utilization: number; ecn_marked_packets?: number; pauses_received?: number }[];
  fct_us?: Percentiles;
  slowdown?: Percentiles;
  /** max_bytes, mean and p99 after warm-up; max_bytes_whole_run includes the warm-up (newer results). */
  queues?: { queue: string; priority: number; max_bytes: number; mean_bytes: number; p99_bytes: number; max_bytes_whole_run?: number }[];
  /** After warm-up. */
  max_queue_bytes: number;
  /** Whole run, warm-up included, as the queue chart shows it (newer results). */
  max_queue_bytes_whole_run?: number;
  ecn_marked_packets: number;
  cnps_sent?: number;
  pfc_pauses_sent: number;
  pfc_pauses_received?: number;
  pfc?: { port: string; priority: number; pauses_sent: number; pauses_received: number; pause_duration_us: number }[];
  drops: { total: number; [reason: string]: number };
  retransmitted_packets?: number;
  flows_total?: number;
  flows_completed?: number;
}

export interface ResultSeries {
  interval_us: number;
  t_us: number[];
  queues: Record<string, number[]>;
  flow_rates_gbps: Record<string, number[]>;
  pause: Record<string, number[]>;
  /** How the simulator chose the watched queues, flows and ports (newer results). */
  selection?: { queues?: string; flows?: string; ports?: string };
}

export interface RunInfo {
  simulator?: string;
  version?: string;
  engine?: string;
  seed?: number;
  scenario_sha256?: string;
  events?: number;
  sim_time_ns?: number;
  duration_ns?: number;
  warmup_ns?: number;
  packets_tx?: number;
  [key: string]: unknown;
}

export interface FlowRecord {
  id: number;
  src: string;
  dst: string;
  size_bytes: number;
  start_us: number;
  fct_us: number | null;
  ideal_fct_us: number | null;
  slowdown: number | null;
  bytes_delivered: number;
  goodput_gbps: number;
  retransmits?: number;
  priority?: number;
  generator?: number;
  /** Nodes the flow's packets cross, when the result records it. */
  path?: string[];
  /** ERD's repair counters (flows sent by a NIC with transport "erd"). */
  erd?: ErdFlowCounters;
}

export interface ErdFlowCounters {
  nacks_sent: number;
  packets_nacked: number;
  out_of_order_arrivals: number;
  duplicate_arrivals: number;
  max_reorder_packets: number;
}
