import type { EvaluationPublic, TuningResults } from "../api/tunings";
import type { SweepPoint } from "../../../lib/charts/grid";

export const STRATEGY_COLORS: Record<string, string> = {
  vendor: "#d62728", experience: "#8c564b", grid: "#7f7f7f", random: "#bcbd22",
  annealing: "#1f77b4", tpe: "#2ca02c", nsga2: "#9467bd",
};

export interface CurvePoint { n: number; best: number }

/** Best-so-far of the first objective against evaluations, one curve per strategy (cost order). */
export function bestSoFar(results: Pick<TuningResults, "evaluations" | "goals">): Record<string, CurvePoint[]> {
  const sign = results.goals[0] === "min" ? -1 : 1;
  const curves: Record<string, CurvePoint[]> = {};
  const bests: Record<string, number | null> = {};
  const counts: Record<string, number> = {};
  // plain comparison, not localeCompare: this sorts 3,300+ evaluations on every results update
  const ordered = [...results.evaluations].sort((a, b) =>
    a.strategy < b.strategy ? -1 : a.strategy > b.strategy ? 1 : a.seq - b.seq);
  for (const e of ordered) {
    if (e.status === "PENDING") continue;
    counts[e.strategy] = (counts[e.strategy] ?? 0) + e.fidelity;
    const value = e.fidelity >= 1 && e.feasible && e.objectives ? e.objectives[0].mean : null;
    const prev = bests[e.strategy] ?? null;
    const best = value === null ? prev : prev === null || sign * value > sign * prev ? value : prev;
    bests[e.strategy] = best;
    if (best !== null) (curves[e.strategy] ??= []).push({ n: Number(counts[e.strategy].toFixed(3)), best });
  }
  return curves;
}

/** The same polylines with fewer vertices: inside a run of equal values only the run's first and
 * last points are kept (the dropped ones lie on the straight segment between them), so a grid's
 * 3,300-point curve that improves a handful of times draws as a few dozen vertices. */
export function thinCurves(curves: Record<string, CurvePoint[]>): Record<string, CurvePoint[]> {
  return Object.fromEntries(Object.entries(curves).map(([name, c]) => [name, c.filter((p, i) =>
    i === 0 || i === c.length - 1 || c[i - 1].best !== p.best || c[i + 1].best !== p.best)]));
}

/** One heatmap point per evaluated grid point (full duration), with the objective as a metric.
 * `withMetrics` false (light results, where only the picks carry metrics): the objective only,
 * so a heatmap never colours a few picks' cells as if they were the whole grid. */
export function heatmapPoints(evaluations: EvaluationPublic[], withMetrics = true): SweepPoint[] {
  const seen = new Map<string, SweepPoint>();
  for (const e of evaluations) {
    if (!e.point || e.fidelity < 1 || e.status !== "DONE") continue;
    const key = e.point.join(",");
    if (seen.has(key)) continue;
    seen.set(key, {
      index: e.id,
      params: e.params as Record<string, number>,
      run_id: e.run_ids[0] ?? null,
      status: "SUCCEEDED",
      metrics: { ...(withMetrics ? e.metrics ?? {} : {}), objective: e.feasible && e.objectives ? e.objectives[0].mean : null },
    });
  }
  return [...seen.values()];
}

export function fmtEstimate(e: { mean: number; ci: number } | null | undefined, digits = 4): string {
  if (!e) return "—";
  const f = (v: number) => (Math.abs(v) >= 1e4 ? Math.round(v).toLocaleString("en-US") : Number(v.toPrecision(digits)).toString());
  return e.ci > 0 ? `${f(e.mean)} ± ${f(e.ci)}` : f(e.mean);
}
