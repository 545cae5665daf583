// Several seeds of one scenario as one result: every headline number, port cell and flow cell as
// a mean with its 95% interval over the seeds, and the watched series as mean lines with bands.
// Computed in the browser from the runs' own results (GET /runs/{id}/summary, /series, /flows).
import type { FlowRecord, ResultSeries, ResultSummary, RunInfo } from "../../../lib/api/resultTypes";
import { type CompareMetric, compareMetrics, resample } from "../utils/compare";
import { portRows, runWindows } from "../utils/derive";
import { type Band, type Estimate, meanCiOf, pointwiseBand } from "./stats";

/** What the grouped view needs of one seed's run. */
export interface SeedRun {
  id: string;
  seed: number;
  runInfo: RunInfo;
  summary: ResultSummary;
  series?: ResultSeries;
  flows?: FlowRecord[];
  /** The flows that set the active period: pingmesh probes left out (utils/probes.ts). */
  dataFlows?: FlowRecord[];
}

export interface GroupCard {
  metric: CompareMetric;
  estimate: Estimate | null;
  /** Each seed's value, in the order of the runs (null where the run has none). */
  perSeed: (number | null)[];
}

/** Whether any seed's run has a warm-up (the cards and tables say "after warm-up" only then). */
export const groupHasWarmup = (runs: SeedRun[]) => runs.some((r) => runWindows(r.runInfo, undefined).warmupUs > 0);

export function groupCards(runs: SeedRun[]): GroupCard[] {
  return compareMetrics(groupHasWarmup(runs)).map((metric) => {
    const perSeed = runs.map((r) => metric.get(r.summary));
    return { metric, estimate: meanCiOf(perSeed), perSeed };
  });
}

/** The numeric columns of the ports table. */
export const PORT_FIELDS = [
  "queueMax", "queueMaxAfterWarmup", "queueMean", "queueP99", "utilization", "utilizationActive",
  "ecnMarks", "pausesSent", "pausesReceived", "pauseUs",
] as const;
export type PortField = (typeof PORT_FIELDS)[number];

export interface GroupPortRow {
  port: string;
  /** Seeds in which the port did anything (the others count as idle: zero). */
  seen: number;
  cells: Record<PortField, Estimate | null>;
}

/**
 * One row per port that did anything in any seed. A port missing from a seed's table was idle
 * there (the table lists every port that queued, sent, marked or paused), so it counts as zero;
 * utilization over the active period is left out of seeds that have no active period.
 */
export function groupPortRows(runs: SeedRun[]): GroupPortRow[] {
  const perRun = runs.map((r) => new Map(portRows(r.summary, runWindows(r.runInfo, r.dataFlows ?? r.flows)).map((p) => [p.port, p])));
  const ports = new Set<string>();
  for (const m of perRun) for (const p of m.keys()) ports.add(p);
  return [...ports].sort().map((port) => {
    const rows = perRun.map((m) => m.get(port));
    const cells = {} as Record<PortField, Estimate | null>;
    for (const f of PORT_FIELDS) {
      cells[f] = meanCiOf(rows.map((r) => (r ? (r[f] as number | null) : f === "utilizationActive" ? null : 0)));
    }
    return { port, seen: rows.filter(Boolean).length, cells };
  });
}

export const FLOW_FIELDS = ["fct_us", "slowdown", "goodput_gbps", "retransmits"] as const;
export type FlowField = (typeof FLOW_FIELDS)[number];

export interface GroupFlowRow {
  id: number;
  /** "h1->h0", or "differs by seed" when the seeds drew other hosts for this flow id. */
  pair: string;
  size: number | null;
  cells: Record<FlowField, Estimate | null>;
}

/** Flows matched by id across the seeds; FCT and slowdown over the seeds where the flow completed. */
export function groupFlowRows(runs: SeedRun[]): GroupFlowRow[] {
  const byId = new Map<number, FlowRecord[]>();
  for (const r of runs) for (const f of r.flows ?? []) {
    const list = byId.get(f.id);
    if (list) list.push(f);
    else byId.set(f.id, [f]);
  }
  return [...byId.entries()].sort((a, b) => a[0] - b[0]).map(([id, fs]) => {
    const pairs = new Set(fs.map((f) => `${f.src}->${f.dst}`));
    const sizes = new Set(fs.map((f) => f.size_bytes));
    const cells = {} as Record<FlowField, Estimate | null>;
    for (const k of FLOW_FIELDS) cells[k] = meanCiOf(fs.map((f) => f[k] as number | null | undefined));
    return { id, pair: pairs.size === 1 ? [...pairs][0] : "differs by seed", size: sizes.size === 1 ? fs[0].size_bytes : null, cells };
  });
}

export interface BandSeries {
  key: string;
  name: string;
  band: Band;
  /** Seeds that watched this series (the band is over those). */
  seeds: number;
}

/**
 * Mean and 95% band of the watched series on the first seed's clock: the `limit` series watched
 * in the most seeds, then with the highest mean peak (the busiest queues, the fastest flows). A
 * series some seeds did not watch (each seed's run picks its own deepest queues and slowest flows,
 * so random traffic seldom repeats them) is banded over the seeds that did, and says in how many.
 */
export function groupBands(runs: SeedRun[], pick: (s: ResultSeries) => Record<string, number[]>, limit = 4, label: (key: string) => string = (k) => k): { t: number[]; series: BandSeries[] } | null {
  const withSeries = runs.filter((r) => r.series && r.series.t_us.length);
  if (withSeries.length !== runs.length || !runs.length) return null;
  const t = withSeries[0].series!.t_us;
  const keys = [...new Set(withSeries.flatMap((r) => Object.keys(pick(r.series!))))];
  const series = keys.map((key) => {
    const have = withSeries.filter((r) => key in pick(r.series!));
    const band = pointwiseBand(have.map((r) => resample(t, r.series!.t_us, pick(r.series!)[key])));
    const peak = band.mean.reduce((m, v) => (v > m ? v : m), 0);
    const name = have.length < runs.length ? `${label(key)} (in ${have.length} of ${runs.length} seeds)` : label(key);
    return { key, name, band, peak, seeds: have.length };
  });
  series.sort((a, b) => b.seeds - a.seeds || b.peak - a.peak || a.key.localeCompare(b.key));
  return { t, series: series.filter((s) => s.peak > 0).slice(0, limit).map(({ key, name, band, seeds }) => ({ key, name, band, seeds })) };
}

/** Why these runs cannot be one result, or null when they can (same scenario, distinct seeds). */
export function groupProblem(runs: { scenarioId?: string; seed?: number }[]): string | null {
  if (runs.length < 2) return "a group needs at least two runs";
  if (new Set(runs.map((r) => r.scenarioId)).size > 1) return "these runs belong to different scenarios: compare them instead";
  if (new Set(runs.map((r) => r.seed)).size < runs.length) return "two of these runs have the same seed";
  return null;
}
