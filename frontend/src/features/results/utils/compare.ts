// Run-to-run comparison: headline metrics with deltas, and the scenario parameters that differ.
import type { ResultSummary } from "../../../lib/api/resultTypes";
import { flattenParameters } from "./report";
import { RUN_METRICS } from "../../../lib/api/metrics.gen";
import { jobHasMetric, jobValue } from "../../../lib/api/metrics";

export interface CompareMetric {
  key: string;
  label: string;
  unit: "gbps" | "us" | "x" | "bytes" | "count" | "ratio";
  get: (s: ResultSummary) => number | null;
  /** Whether a larger value is better (colours the delta). */
  higherIsBetter: boolean;
}

export const COMPARE_METRICS: CompareMetric[] = [
  { key: "throughput", label: "Throughput (after warm-up)", unit: "gbps", get: (s) => s.throughput_gbps, higherIsBetter: true },
  { key: "fct_p50", label: "FCT p50", unit: "us", get: (s) => s.fct_us?.p50 ?? null, higherIsBetter: false },
  { key: "fct_p99", label: "FCT p99", unit: "us", get: (s) => s.fct_us?.p99 ?? null, higherIsBetter: false },
  { key: "slowdown_p99", label: "Slowdown p99", unit: "x", get: (s) => s.slowdown?.p99 ?? null, higherIsBetter: false },
  { key: "max_queue", label: "Max queue (whole run)", unit: "bytes", get: (s) => s.max_queue_bytes_whole_run ?? s.max_queue_bytes, higherIsBetter: false },
  { key: "max_queue_warm", label: "Max queue (after warm-up)", unit: "bytes", get: (s) => s.max_queue_bytes, higherIsBetter: false },
  { key: "ecn", label: "ECN marks", unit: "count", get: (s) => s.ecn_marked_packets, higherIsBetter: false },
  { key: "cnps", label: "CNPs sent", unit: "count", get: (s) => s.cnps_sent ?? null, higherIsBetter: false },
  { key: "pfc", label: "PFC pauses sent", unit: "count", get: (s) => s.pfc_pauses_sent, higherIsBetter: false },
  { key: "drops", label: "Drops", unit: "count", get: (s) => s.drops?.total ?? 0, higherIsBetter: false },
  { key: "retx", label: "Retransmitted packets", unit: "count", get: (s) => s.retransmitted_packets ?? null, higherIsBetter: false },
  { key: "completed", label: "Flows completed", unit: "count", get: (s) => s.flows_completed ?? null, higherIsBetter: true },
];

/**
 * The metrics for runs with or without a warm-up: without one, "after warm-up" would repeat the
 * whole-run value under a label that promises a window that does not exist (issue 22 §4).
 */
export function compareMetrics(hasWarmup: boolean): CompareMetric[] {
  if (hasWarmup) return COMPARE_METRICS;
  return COMPARE_METRICS.filter((m) => m.key !== "max_queue_warm")
    .map((m) => (m.key === "throughput" ? { ...m, label: "Throughput (whole run, no warm-up)" } : m));
}

export interface Delta {
  abs: number;
  /** null when the base is zero. */
  rel: number | null;
}

export function delta(base: number | null, value: number | null): Delta | null {
  if (base == null || value == null) return null;
  return { abs: value - base, rel: base !== 0 ? (value - base) / Math.abs(base) : null };
}

/** Parameters (dotted paths) whose values differ between the scenario documents, with each run's value. */
export function scenarioDiff(docs: (unknown | undefined)[]): { path: string; values: (string | undefined)[] }[] {
  const maps = docs.map((d) => new Map(d ? flattenParameters(d) : []));
  const paths = new Set<string>();
  for (const m of maps) for (const k of m.keys()) paths.add(k);
  const out: { path: string; values: (string | undefined)[] }[] = [];
  for (const p of [...paths].sort()) {
    if (p === "name" || p === "description") continue;
    const values = maps.map((m) => m.get(p));
    if (values.some((v) => v !== values[0])) out.push({ path: p, values });
  }
  return out;
}

/** Values of series `values` (sampled every `interval` us from t0) at the times `t` (nearest sample). */
export function resample(t: number[], srcT: number[], values: number[]): number[] {
  if (srcT.length === t.length && srcT.every((x, i) => x === t[i])) return values;
  const dt = srcT.length > 1 ? srcT[1] - srcT[0] : 1;
  return t.map((x) => {
    const i = Math.round((x - (srcT[0] ?? 0)) / dt);
    return i >= 0 && i < values.length ? values[i] : 0;
  });
}

/** Pointwise difference value - base (same clock, same length; a missing sample counts as 0). */
export function difference(base: number[], values: number[]): number[] {
  const n = Math.max(base.length, values.length);
  const out = new Array<number>(n);
  for (let i = 0; i < n; i += 1) out[i] = (values[i] ?? 0) - (base[i] ?? 0);
  return out;
}

/**
 * Per-link B - A of a per-port metric, each run's two directions combined first (larger, or sum
 * for counts). null where neither run recorded the link; a link one run did not list counts as 0.
 */
export function linkDifference(a: (number | null)[], b: (number | null)[]): (number | null)[] {
  return a.map((x, i) => (x == null && b[i] == null ? null : (b[i] ?? 0) - (x ?? 0)));
}

/** One job metric of one job in each run (matched by job name; null where a run lacks the job). */
export interface JobCompareRow {
  job: string;
  metric: string;
  label: string;
  unit: "us" | "gbps" | "count";
  higherIsBetter: boolean;
  values: (number | null)[];
}

/** The short names NCCL-tests' readers know; other metrics go by their declared label. */
const SHORT: Record<string, string> = { jct_us: "JCT", busbw_gbps: "busbw" };
const unitOf = (unit: string): JobCompareRow["unit"] => (unit === "us" ? "us" : unit === "Gbit/s" ? "gbps" : "count");

type ComparedJob = { name: string; kind?: string };

/** Rows for every job name some run has (in order of first appearance), each with the job
 *  metrics its kind has (app/runs/metrics.py, in its order): a collective's JCT and busbw, a
 *  training job's JCT, iteration time, tokens/s and exposed DP and TP time. */
export function jobCompareRows(runs: { jobs?: ComparedJob[] }[]): JobCompareRow[] {
  const names: string[] = [];
  const kinds = new Map<string, Set<string>>();
  for (const r of runs) for (const j of r.jobs ?? []) {
    if (!names.includes(j.name)) names.push(j.name);
    kinds.set(j.name, (kinds.get(j.name) ?? new Set()).add(j.kind ?? "collective"));
  }
  const of = (r: (typeof runs)[number], name: string) => r.jobs?.find((j) => j.name === name);
  return names.flatMap((job) => RUN_METRICS
    .filter((m) => [...kinds.get(job)!].some((k) => jobHasMetric(m.name, k)))
    .map((m) => ({
      job, metric: m.name, label: `${job}: ${SHORT[m.name] ?? m.label}`, unit: unitOf(m.unit), higherIsBetter: m.goal === "max",
      values: runs.map((r) => { const j = of(r, job); return j ? jobValue(j, m.name) : null; }),
    })));
}
