// The result's optional objects (docs/result-format.md, "Optional objects").

export interface RttStats {
  count: number;
  p50_us: number | null;
  p99_us: number | null;
  p999_us: number | null;
  max_us: number | null;
}

export interface PingmeshReport {
  probes_sent: number;
  probes_unanswered: number;
  rtt: RttStats;
  idle: RttStats;
  loaded: RttStats;
  scopes: Record<"tor" | "podset" | "fabric", RttStats>;
  pairs: (RttStats & { src: string; dst: string; scope: string })[];
  tor_matrix: (RttStats & { src_tor: string; dst_tor: string })[];
}

export interface FaultEvent {
  t_us: number;
  event: string;
  target: string;
  priority?: number;
}

export interface DeadlockCycle {
  ports: string[];
  priority: number;
  formed_us: number;
  detected_us: number;
}

export interface FaultReport {
  events: FaultEvent[];
  drops: Record<string, number>;
  switch_watchdog_triggers: number;
  nic_watchdog_triggers: number;
  deadlocks: DeadlockCycle[];
}

/** What one DCI edge accelerator did (docs/result-format.md, "dci_accelerator"). */
export interface AcceleratorEdge {
  pseudo_acks: number;
  absorbed_acks: number;
  retransmitted_packets: number;
  retransmit_timeouts: number;
  passed_unheld_packets: number;
  max_held_bytes: number;
  held_bytes_at_end: number;
}

export interface AcceleratorReport {
  buffer_bytes: number;
  retransmit_timeout_us: number;
  edges: Record<string, AcceleratorEdge>;
}

export interface TransportNic {
  host: string;
  transport: string;
  processes: number;
  qps_per_nic: number;
  qp_contexts_used: number;
  qp_cache_entries: number;
  qp_cache_misses: number;
}

export interface TransportReport {
  hosts: number;
  max_qps_per_nic: number;
  qp_cache_misses: number;
  nics: TransportNic[];
}

export interface Diagnostics {
  faults: FaultReport | null;
  pingmesh: PingmeshReport | null;
  port_counters: Record<string, unknown> | null;
  dci_accelerator?: AcceleratorReport | null;
  transport?: TransportReport | null;
}
