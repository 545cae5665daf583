import { formatBytes, formatCount, formatDurationUs, formatNumber } from "../format";
import { RUN_METRICS } from "../api/metrics.gen";
import { JOB_METRIC_NAMES, firstJobText, runMetric } from "../api/metrics";
import { mean } from "d3-array";

export type ParamValue = number | string | boolean | null;

export interface SweepPoint {
  index: number;
  params: Record<string, ParamValue>;
  run_id: string | null;
  status: string;
  metrics: Record<string, number | null> | null;
}

export type Aggregate = "slice" | "best" | "mean";

export interface GridSpec {
  x: string;
  y: string;
  metric: string;
  aggregate: Aggregate;
  /** Values of the other parameters when aggregate is "slice". */
  slice: Record<string, ParamValue>;
  /** The swept paths (linked paths follow them and are not dimensions); default: all params. */
  dims?: string[];
  /** Whether "best" is the highest value (default: HIGHER_IS_BETTER has the metric); a tuning's
   * objective is maximised or minimised by its goal. */
  higherIsBetter?: boolean;
}

export interface GridCell {
  xi: number;
  yi: number;
  value: number | null;
  /** The point shown in the tooltip and opened on click (the best one when aggregating). */
  point: SweepPoint;
  count: number;
}

export interface Grid {
  xValues: ParamValue[];
  yValues: ParamValue[];
  cells: GridCell[];
}

/** Metrics where a higher value is better; all others are minimised (app/runs/metrics.py). */
export const HIGHER_IS_BETTER = new Set(RUN_METRICS.filter((m) => m.goal === "max").map((m) => m.name));

/** The job metrics (the first job's that has each): a run without such a job has none. */
export const JOB_METRICS = JOB_METRIC_NAMES;

const withUnit = (label: string, unit: string) => (unit ? `${label} (${unit})` : label);

/** The columns of a run, labelled: "FCT p99 (us)", "Iteration time, first training job (us)". */
export const METRIC_LABELS: Record<string, string> = Object.fromEntries(RUN_METRICS.filter((m) => m.column).map((m) => [
  m.name, withUnit(m.jobKinds !== undefined ? `${m.label}, ${firstJobText(m.name)}` : m.label, m.unit),
]));

/** A named job's metric key, as the points carry it after flattenJobMetrics: "jct_us of B". */
export const jobMetricKey = (metric: string, job: string) => `${metric} of ${job}`;

/** The metric a key reads ("jct_us of B" reads jct_us), for its unit and its sense. */
export const baseMetric = (key: string) => key.split(" of ")[0];

/** A metric key's label: a named job's says which job. */
export function metricLabel(key: string): string {
  const [metric, ...rest] = key.split(" of ");
  if (!rest.length) return METRIC_LABELS[key] ?? key;
  const spec = runMetric(metric);
  return spec ? withUnit(`${spec.label}, job ${rest.join(" of ")}`, spec.unit) : key;
}

/** A run's metrics as the API gives them (every job's under `jobs`, by name) flattened into one
 *  number per key: each job's metrics become "jct_us of <job>", "iteration_us of <job>" and so on. */
export function flattenJobMetrics(metrics: Record<string, unknown> | null | undefined): Record<string, number | null> | null {
  if (!metrics) return null;
  const out: Record<string, number | null> = {};
  for (const [k, v] of Object.entries(metrics)) if (k !== "jobs") out[k] = (v as number | null) ?? null;
  const jobs = (metrics.jobs ?? {}) as Record<string, Record<string, number | null>>;
  for (const [job, values] of Object.entries(jobs)) {
    for (const m of JOB_METRICS) if (values && m in values) out[jobMetricKey(m, job)] = values[m] ?? null;
  }
  return out;
}

/** The metric labels worth offering for these points: each job metric only when some point has a
 *  value for it, and each job by name when the run has several. */
export function metricLabels(points: SweepPoint[]): Record<string, string> {
  const has = (k: string) => points.some((p) => p.metrics?.[k] != null);
  const base = Object.entries(METRIC_LABELS).filter(([k]) => !JOB_METRICS.includes(k) || has(k));
  const named = [...new Set(points.flatMap((p) => Object.keys(p.metrics ?? {}).filter((k) => k.includes(" of "))))];
  // one job: its named keys say what "first job" already says
  const jobs = new Set(named.map((k) => k.split(" of ").slice(1).join(" of ")));
  const extra = jobs.size > 1 ? named.sort().map((k) => [k, metricLabel(k)] as const) : [];
  return Object.fromEntries([...base, ...extra]);
}

/** A metric's value in its unit, short enough for a heatmap cell: 622.3 KB, 193 us, 23.1 Gbit/s,
 * 7,010 (never 6.223e+5). */
export function formatMetric(key: string, v: number): string {
  const metric = baseMetric(key);
  if (metric.endsWith("_bytes")) return formatBytes(v);
  if (metric.endsWith("_us")) return formatDurationUs(v);
  if (metric.endsWith("_gbps")) return `${formatNumber(v)} Gbit/s`;
  if (Number.isInteger(v) || Math.abs(v) >= 1000) return formatCount(v);
  return formatNumber(v);
}

/** The first metric, `preferred` first, whose values differ across the points (a grid of one
 * value says nothing: a comparison sweep should open on what changed). */
export function differingMetric(points: SweepPoint[], preferred: string, candidates: string[]): string {
  const differs = (m: string) => new Set(points.map((p) => p.metrics?.[m]).filter((v) => v != null)).size > 1;
  return [preferred, ...candidates].find(differs) ?? preferred;
}

export function uniqueSorted(values: ParamValue[]): ParamValue[] {
  const uniq = [...new Map(values.map((v) => [JSON.stringify(v), v])).values()];
  return uniq.sort((a, b) =>
    typeof a === "number" && typeof b === "number" ? a - b : String(a).localeCompare(String(b)),
  );
}

export function paramValues(points: SweepPoint[], path: string): ParamValue[] {
  return uniqueSorted(points.map((p) => p.params[path] ?? null));
}

function metricOf(p: SweepPoint, metric: string): number | null {
  const v = p.metrics?.[metric];
  return typeof v === "number" && Number.isFinite(v) ? v : null;
}

/** One cell per (x, y) value pair; other parameters sliced or aggregated. */
export function computeGrid(points: SweepPoint[], spec: GridSpec): Grid {
  const xValues = paramValues(points, spec.x);
  const yValues = paramValues(points, spec.y);
  const key = (v: ParamValue) => JSON.stringify(v);
  const xIndex = new Map(xValues.map((v, i) => [key(v), i]));
  const yIndex = new Map(yValues.map((v, i) => [key(v), i]));
  const others = (spec.dims ?? Object.keys(points[0]?.params ?? {})).filter((p) => p !== spec.x && p !== spec.y);

  const buckets = new Map<string, SweepPoint[]>();
  for (const p of points) {
    if (spec.aggregate === "slice" && others.some((o) => key(p.params[o] ?? null) !== key(spec.slice[o] ?? null))) {
      continue;
    }
    const k = `${xIndex.get(key(p.params[spec.x] ?? null))},${yIndex.get(key(p.params[spec.y] ?? null))}`;
    const b = buckets.get(k) ?? [];
    b.push(p);
    buckets.set(k, b);
  }

  const higher = spec.higherIsBetter ?? HIGHER_IS_BETTER.has(baseMetric(spec.metric));
  const cells: GridCell[] = [];
  for (const [k, bucket] of buckets) {
    const [xi, yi] = k.split(",").map(Number);
    const withValue = bucket.filter((p) => metricOf(p, spec.metric) !== null);
    let best = withValue[0] ?? bucket[0];
    for (const p of withValue) {
      const v = metricOf(p, spec.metric)!;
      const b = metricOf(best, spec.metric)!;
      if (higher ? v > b : v < b) best = p;
    }
    const value =
      withValue.length === 0
        ? null
        : spec.aggregate === "mean"
          ? mean(withValue, (p) => metricOf(p, spec.metric)!)!
          : metricOf(best, spec.metric);
    cells.push({ xi, yi, value, point: best, count: bucket.length });
  }
  cells.sort((a, b) => a.yi - b.yi || a.xi - b.xi);
  return { xValues, yValues, cells };
}

/** Cell-wise a - b over the (x, y) values both grids share. */
export function differenceGrid(a: Grid, b: Grid): Grid {
  const key = (g: Grid, c: GridCell) => `${JSON.stringify(g.xValues[c.xi])}|${JSON.stringify(g.yValues[c.yi])}`;
  const bByKey = new Map(b.cells.map((c) => [key(b, c), c]));
  const cells = a.cells.map((c) => {
    const other = bByKey.get(key(a, c));
    const value = c.value !== null && other?.value != null ? c.value - other.value : null;
    return { ...c, value };
  });
  return { xValues: a.xValues, yValues: a.yValues, cells };
}

export function valueExtent(grid: Grid): [number, number] | null {
  const vals = grid.cells.map((c) => c.value).filter((v): v is number => v !== null);
  if (vals.length === 0) return null;
  return [Math.min(...vals), Math.max(...vals)];
}
