// A sweep whose runs have collective jobs: per-job JCT and busbw against the swept values, what
// NCCL-tests prints per size (issue 37). The heatmap stays below for any other metric.
import { type ParamValue, type SweepPoint, baseMetric, jobMetricKey, paramValues } from "../../../lib/charts/grid";
import { formatBytes, formatNumber } from "../../../lib/format";
import { shortParamPath } from "../../../lib/scenario/paths";

/** The two job metrics a sweep shows per point: a training job's tokens/s and iteration time when
 *  some point has a training job, else a collective's busbw and JCT (what NCCL-tests prints). */
export type JobPair = readonly [string, string];
export const COLLECTIVE_PAIR: JobPair = ["busbw_gbps", "jct_us"];
export const TRAINING_PAIR: JobPair = ["tokens_per_s", "iteration_us"];

export function sweepJobPair(points: SweepPoint[]): JobPair {
  const training = points.some((p) => Object.entries(p.metrics ?? {}).some(([k, v]) => baseMetric(k) === "tokens_per_s" && v != null));
  return training ? TRAINING_PAIR : COLLECTIVE_PAIR;
}

/** The jobs the points report a metric of the pair for, by name ("" for a run's only job, named
 *  in no key). */
export function sweepJobs(points: SweepPoint[], pair: JobPair = COLLECTIVE_PAIR): string[] {
  const named = new Set<string>();
  for (const p of points) {
    for (const k of Object.keys(p.metrics ?? {})) if (k.includes(" of ") && pair.includes(baseMetric(k))) named.add(k.split(" of ").slice(1).join(" of "));
  }
  if (named.size) return [...named];
  return points.some((p) => pair.some((m) => p.metrics?.[m] != null)) ? [""] : [];
}

/** A job's metric key in the points: "busbw_gbps of ring", or the first job's own key. */
export const jobKey = (metric: string, job: string) => (job ? jobMetricKey(metric, job) : metric);

/** A swept value as a person reads it: sizes in binary units when exact (1 MiB), else as stored. */
export function paramText(path: string, v: ParamValue): string {
  if (typeof v === "number" && /_bytes$/.test(path)) {
    for (const [unit, n] of [["GiB", 2 ** 30], ["MiB", 2 ** 20], ["KiB", 2 ** 10]] as const) if (v >= n && v % n === 0) return `${formatNumber(v / n)} ${unit}`;
    return formatBytes(v);
  }
  return typeof v === "number" ? formatNumber(v) : String(v);
}

/** A parameter's name without its path, kept apart from the other swept ones ("message_bytes",
 * "traffic[0].message_bytes" when two swept paths end alike). */
export function paramNames(dims: string[]): Record<string, string> {
  const last = (p: string) => shortParamPath(p).split(".").slice(-1)[0];
  return Object.fromEntries(dims.map((d) => [d, dims.filter((o) => last(o) === last(d)).length > 1 ? shortParamPath(d) : last(d)]));
}

/** A point in words, by its swept values only (linked paths follow them): "message_bytes 1 MiB". */
export function pointLabel(params: Record<string, ParamValue>, dims: string[]): string {
  const names = paramNames(dims);
  return dims.map((d) => `${names[d]} ${paramText(d, params[d] ?? null)}`).join(", ");
}

/** The one swept parameter with numeric values: the x axis of the job lines (else a table only). */
export function lineAxis(points: SweepPoint[], dims: string[]): string | null {
  if (dims.length !== 1) return null;
  const values = paramValues(points, dims[0]);
  return values.length > 1 && values.every((v) => typeof v === "number") ? dims[0] : null;
}

/** The points in the order of their swept values (first dimension first). */
export function sortedPoints(points: SweepPoint[], dims: string[]): SweepPoint[] {
  const order = dims.map((d) => new Map(paramValues(points, d).map((v, i) => [JSON.stringify(v), i])));
  return [...points].sort((a, b) => {
    for (let i = 0; i < dims.length; i++) {
      const d = (order[i].get(JSON.stringify(a.params[dims[i]] ?? null)) ?? 0) - (order[i].get(JSON.stringify(b.params[dims[i]] ?? null)) ?? 0);
      if (d) return d;
    }
    return a.index - b.index;
  });
}
