// Facts the results page derives from one result: windows, the port behind each headline number,
// per-port rows, the time span where something happens. Pure functions, tested in derive.test.ts.
import type { FlowRecord, ResultSeries, ResultSummary, RunInfo } from "../../../lib/api/resultTypes";

export interface Windows {
  /** Run end and warm-up end (us). */
  endUs: number;
  warmupUs: number;
  /** The active period: from the first flow start (or warm-up end, if later) to the last
   *  completion; null when flows run until the end (long-lived or unfinished) or none started. */
  active: { startUs: number; endUs: number } | null;
}

export function runWindows(runInfo: RunInfo | undefined, flows: FlowRecord[] | undefined): Windows {
  const endUs = Number(runInfo?.sim_time_ns ?? runInfo?.duration_ns ?? 0) / 1000;
  const warmupUs = Number(runInfo?.warmup_ns ?? 0) / 1000;
  let active: Windows["active"] = null;
  if (flows && flows.length > 0 && endUs > 0) {
    let first = Infinity;
    let last = 0;
    let open = false;
    for (const f of flows) {
      first = Math.min(first, f.start_us);
      if (f.fct_us == null) open = true;
      else last = Math.max(last, f.start_us + f.fct_us);
    }
    const start = Math.max(first, warmupUs);
    if (!open && last > start && last < endUs) active = { startUs: start, endUs: last };
  }
  return { endUs, warmupUs, active };
}

/** Utilization over the active period from the after-warm-up figure: same bytes, shorter window. */
export function activeUtilization(u: number, w: Windows): number | null {
  if (!w.active) return null;
  const window = w.endUs - w.warmupUs;
  const activeSpan = w.active.endUs - w.active.startUs;
  return activeSpan > 0 ? (u * window) / activeSpan : null;
}

export interface MaxQueue {
  /** Whole run, warm-up included (what the queue chart shows); after warm-up when the result is older. */
  bytes: number;
  port: string | null;
  priority: number | null;
  wholeRun: boolean;
  afterWarmup: { bytes: number; port: string | null };
}

/** The deepest queue, whole run and after warm-up, with the port that held it. */
export function maxQueue(summary: ResultSummary): MaxQueue {
  const qs = summary.queues ?? [];
  const byWarm = [...qs].sort((a, b) => b.max_bytes - a.max_bytes || a.queue.localeCompare(b.queue))[0];
  const afterWarmup = { bytes: summary.max_queue_bytes, port: byWarm && byWarm.max_bytes > 0 ? byWarm.queue : null };
  const hasWhole = summary.max_queue_bytes_whole_run != null;
  if (!hasWhole) return { bytes: afterWarmup.bytes, port: afterWarmup.port, priority: byWarm?.priority ?? null, wholeRun: false, afterWarmup };
  const byRun = [...qs].sort((a, b) => (b.max_bytes_whole_run ?? 0) - (a.max_bytes_whole_run ?? 0) || a.queue.localeCompare(b.queue))[0];
  return {
    bytes: summary.max_queue_bytes_whole_run ?? 0,
    port: byRun ? byRun.queue : null,
    priority: byRun?.priority ?? null,
    wholeRun: true,
    afterWarmup,
  };
}

export interface PortRow {
  port: string;
  queueMax: number | null;
  queueMaxAfterWarmup: number | null;
  queueMean: number | null;
  queueP99: number | null;
  utilization: number | null;
  utilizationActive: number | null;
  ecnMarks: number;
  pausesSent: number;
  pausesReceived: number;
  pauseUs: number;
}

/** One row per egress port that did anything: queues, utilization, ECN and PFC merged by name. */
export function portRows(summary: ResultSummary, w: Windows): PortRow[] {
  const rows = new Map<string, PortRow>();
  const row = (port: string) => {
    let r = rows.get(port);
    if (!r) {
      r = { port, queueMax: null, queueMaxAfterWarmup: null, queueMean: null, queueP99: null, utilization: null, utilizationActive: null, ecnMarks: 0, pausesSent: 0, pausesReceived: 0, pauseUs: 0 };
      rows.set(port, r);
    }
    return r;
  };
  for (const q of summary.queues ?? []) {
    const r = row(q.queue);
    // Priorities of one port: the deepest counts, means add up.
    r.queueMax = Math.max(r.queueMax ?? 0, q.max_bytes_whole_run ?? q.max_bytes);
    r.queueMaxAfterWarmup = Math.max(r.queueMaxAfterWarmup ?? 0, q.max_bytes);
    r.queueMean = (r.queueMean ?? 0) + q.mean_bytes;
    r.queueP99 = Math.max(r.queueP99 ?? 0, q.p99_bytes);
  }
  for (const u of summary.link_utilization ?? []) {
    const r = row(u.link);
    r.utilization = u.utilization;
    r.utilizationActive = activeUtilization(u.utilization, w);
    r.ecnMarks = u.ecn_marked_packets ?? 0;
  }
  for (const p of summary.pfc ?? []) {
    const r = row(p.port);
    r.pausesSent += p.pauses_sent;
    r.pausesReceived += p.pauses_received;
    r.pauseUs += p.pause_duration_us;
  }
  return [...rows.values()];
}

/** The port with the largest value of a per-port number, or null when all are zero. */
export function topPort(rows: PortRow[], value: (r: PortRow) => number): { port: string; value: number } | null {
  let best: { port: string; value: number } | null = null;
  for (const r of rows) {
    const v = value(r);
    if (v > 0 && (!best || v > best.value)) best = { port: r.port, value: v };
  }
  return best;
}

/**
 * The time span where the charted series are not all zero, padded by 5 % (at least one sample)
 * on each side; the whole axis when everything is zero or the span covers most of it.
 */
export function activeDomain(t: number[], groups: Record<string, number[]>[]): [number, number] {
  const full: [number, number] = t.length ? [t[0], t[t.length - 1]] : [0, 1];
  let first = Infinity;
  let last = -Infinity;
  for (const g of groups) {
    for (const values of Object.values(g)) {
      for (let i = 0; i < values.length; i += 1) {
        if (values[i] !== 0) {
          if (i < first) first = i;
          break;
        }
      }
      for (let i = values.length - 1; i >= 0; i -= 1) {
        if (values[i] !== 0) {
          if (i > last) last = i;
          break;
        }
      }
    }
  }
  if (!Number.isFinite(first) || !Number.isFinite(last)) return full;
  const span = t[last] - t[first];
  const pad = Math.max(span * 0.05, t.length > 1 ? t[1] - t[0] : 0);
  const lo = Math.max(full[0], t[first] - pad);
  const hi = Math.min(full[1], t[last] + pad);
  if (hi - lo >= 0.8 * (full[1] - full[0]) || hi <= lo) return full;
  return [lo, hi];
}

/** Index of the sample where the fullest watched queue peaks (where the overlay's clock starts). */
export function peakQueueIndex(series: ResultSeries | undefined): number {
  let best = 0;
  let bestV = 0;
  for (const values of Object.values(series?.queues ?? {})) {
    values.forEach((v, i) => {
      if (v > bestV) {
        bestV = v;
        best = i;
      }
    });
  }
  if (bestV > 0) return best;
  // no queue: the first time any port is paused
  for (const values of Object.values(series?.pause ?? {})) {
    const i = values.findIndex((v) => v !== 0);
    if (i >= 0) return i;
  }
  return 0;
}

/** "flow 12 h3->h0" label of a flow id, given the flow records. */
export function flowLabel(id: string | number, byId: Map<number, FlowRecord>): string {
  const f = byId.get(Number(id));
  return f ? `flow ${id} ${f.src}->${f.dst}` : `flow ${id}`;
}

/** The flow whose FCT is the given percentile (nearest rank), for a card that names it. */
export function flowAtPercentile(flows: FlowRecord[] | undefined, key: "fct_us" | "slowdown", p: number): FlowRecord | null {
  // The flow a stable sort by value would put at the rank, without sorting 100,000 objects:
  // selection (O(n)) gives the value at the rank, a count how many smaller values precede it;
  // ties keep their order in the list, as in a stable sort.
  const list = flows ?? [];
  const values = new Float64Array(list.length);
  let n = 0;
  for (const f of list) {
    const v = f[key];
    if (v != null && f.size_bytes > 0) values[n++] = v;
  }
  if (!n) return null;
  const done = values.subarray(0, n);
  const rank = Math.min(n - 1, Math.max(0, Math.ceil(p * n) - 1));
  const target = nthSmallest(done, rank);
  let smaller = 0;
  for (let i = 0; i < n; i += 1) if (done[i] < target) smaller += 1;
  let skip = rank - smaller;
  for (const f of list) {
    if (f[key] === target && f.size_bytes > 0 && skip-- === 0) return f;
  }
  return null;
}

/** The k-th smallest value (0-based) of `a`, which it reorders (Hoare's selection, median of three). */
export function nthSmallest(a: Float64Array, k: number): number {
  let lo = 0;
  let hi = a.length - 1;
  while (hi > lo) {
    const mid = (lo + hi) >> 1;
    // median of three as the pivot, so sorted and reversed input stay linear
    const [x, y, z] = [a[lo], a[mid], a[hi]];
    const pivot = x < y ? (y < z ? y : x < z ? z : x) : (x < z ? x : y < z ? z : y);
    let i = lo;
    let j = hi;
    while (i <= j) {
      while (a[i] < pivot) i += 1;
      while (a[j] > pivot) j -= 1;
      if (i <= j) {
        const tmp = a[i];
        a[i] = a[j];
        a[j] = tmp;
        i += 1;
        j -= 1;
      }
    }
    if (k <= j) hi = j;
    else if (k >= i) lo = i;
    else return a[k];
  }
  return a[k];
}

/** p50, p99 (nearest rank, as the simulator's summary) and mean of a key over the completed finite
 * flows: the FCT cards of a run whose summary also counts collective transfers the list leaves out. */
export function percentilesOf(flows: FlowRecord[] | undefined, key: "fct_us" | "slowdown"): { count: number; p50: number | null; p99: number | null; mean: number | null } {
  const p50 = flowAtPercentile(flows, key, 0.5);
  const p99 = flowAtPercentile(flows, key, 0.99);
  let sum = 0;
  let count = 0;
  for (const f of flows ?? []) {
    const v = f[key];
    if (v != null && f.size_bytes > 0) { sum += v; count += 1; }
  }
  return { count, p50: p50?.[key] ?? null, p99: p99?.[key] ?? null, mean: count ? sum / count : null };
}
