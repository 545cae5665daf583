import { bestSoFar, fmtEstimate, heatmapPoints, thinCurves } from "./tuning";
import type { EvaluationPublic } from "../api/tunings";

const ev = (id: number, strategy: string, seq: number, mean: number | null, extra: Partial<EvaluationPublic> = {}): EvaluationPublic => ({
  id, strategy, seq, batch: 0, point: [seq], fidelity: 1, params: { kmin: seq }, overrides: {}, status: "DONE",
  feasible: mean !== null, objectives: mean === null ? null : [{ mean, ci: 0 }], metrics: { throughput_gbps: 1 },
  run_ids: [`r${id}`], error: null, ...extra,
});

describe("tuning helpers", () => {
  it("computes best-so-far per strategy, skipping infeasible and short evaluations", () => {
    const curves = bestSoFar({ goals: ["max"], evaluations: [
      ev(1, "random", 0, 2), ev(2, "random", 1, 1), ev(3, "random", 2, null), ev(4, "random", 3, 5),
      ev(5, "tpe", 0, 9, { fidelity: 0.2 }), ev(6, "tpe", 1, 3),
    ] });
    expect(curves.random.map((c) => c.best)).toEqual([2, 2, 2, 5]);
    expect(curves.tpe).toEqual([{ n: 1.2, best: 3 }]);
    const minimised = bestSoFar({ goals: ["min"], evaluations: [ev(1, "grid", 0, 4), ev(2, "grid", 1, 6), ev(3, "grid", 2, 1)] });
    expect(minimised.grid.map((c) => c.best)).toEqual([4, 4, 1]);
  });

  it("thins flat runs of a curve to their ends, keeping every change", () => {
    const c = [1, 2, 3, 4, 5, 6, 7].map((n, i) => ({ n, best: [2, 2, 2, 5, 5, 5, 5][i] }));
    expect(thinCurves({ grid: c }).grid).toEqual([{ n: 1, best: 2 }, { n: 3, best: 2 }, { n: 4, best: 5 }, { n: 7, best: 5 }]);
    expect(thinCurves({ vendor: [{ n: 1, best: 3 }] }).vendor).toEqual([{ n: 1, best: 3 }]);
  });

  it("keeps one heatmap point per grid point with the objective as a metric", () => {
    const points = heatmapPoints([ev(1, "grid", 0, 2), ev(2, "random", 0, 2), ev(3, "vendor", 0, 1, { point: null })]);
    expect(points).toHaveLength(1);
    expect(points[0].metrics?.objective).toBe(2);
    expect(points[0].metrics?.throughput_gbps).toBe(1);
    // light results: only the picks carry metrics, so none is shown until all are fetched
    const light = heatmapPoints([ev(1, "grid", 0, 2), ev(2, "grid", 1, 3, { metrics: null })], false);
    expect(light.map((p) => p.metrics)).toEqual([{ objective: 2 }, { objective: 3 }]);
  });

  it("formats estimates with their interval", () => {
    expect(fmtEstimate({ mean: 21.234567, ci: 0.5 })).toBe("21.23 ± 0.5");
    expect(fmtEstimate({ mean: 2530, ci: 0 })).toBe("2530");
    expect(fmtEstimate(null)).toBe("—");
  });
});
