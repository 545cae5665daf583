import { HIGHER_IS_BETTER, computeGrid, differenceGrid, flattenJobMetrics, formatMetric, metricLabels, type SweepPoint } from "./grid";

const pt = (index: number, a: number, b: number, c: number, v: number): SweepPoint => ({
  index, run_id: `r${index}`, status: "SUCCEEDED", params: { a, b, c }, metrics: { fct_p99_us: v },
});
const points = [pt(0, 1, 1, 0, 10), pt(1, 1, 1, 1, 4), pt(2, 2, 1, 0, 8), pt(3, 2, 1, 1, 12)];

describe("computeGrid", () => {
  it("slices the other parameters", () => {
    const g = computeGrid(points, { x: "a", y: "b", metric: "fct_p99_us", aggregate: "slice", slice: { c: 1 } });
    expect(g.cells.map((c) => c.value)).toEqual([4, 12]);
  });
  it("takes the best (lowest FCT) and keeps that point for click-through", () => {
    const g = computeGrid(points, { x: "a", y: "b", metric: "fct_p99_us", aggregate: "best", slice: {} });
    expect(g.cells.map((c) => c.value)).toEqual([4, 8]);
    expect(g.cells[0].point.run_id).toBe("r1");
    expect(g.cells[0].count).toBe(2);
  });
  it("takes the highest as best when told so (a maximised tuning objective)", () => {
    const g = computeGrid(points, { x: "a", y: "b", metric: "fct_p99_us", aggregate: "best", slice: {}, higherIsBetter: true });
    expect(g.cells.map((c) => c.value)).toEqual([10, 12]);
    expect(g.cells[1].point.run_id).toBe("r3");
  });
  it("averages", () => {
    const g = computeGrid(points, { x: "a", y: "b", metric: "fct_p99_us", aggregate: "mean", slice: {} });
    expect(g.cells.map((c) => c.value)).toEqual([7, 10]);
  });
  it("differences two grids cell by cell", () => {
    const a = computeGrid(points, { x: "a", y: "b", metric: "fct_p99_us", aggregate: "slice", slice: { c: 0 } });
    const b = computeGrid(points, { x: "a", y: "b", metric: "fct_p99_us", aggregate: "slice", slice: { c: 1 } });
    expect(differenceGrid(a, b).cells.map((c) => c.value)).toEqual([6, -4]);
  });
});

describe("computeGrid with linked parameters", () => {
  it("does not slice on a linked path that follows an axis", () => {
    const pts: SweepPoint[] = [0, 500].flatMap((kmin, i) => [0.1, 0.2].map((pmax, j) => ({
      index: i * 2 + j, run_id: null, status: "SUCCEEDED",
      params: { kmin, kmax: kmin + 500, pmax }, metrics: { throughput_gbps: kmin + pmax },
    })));
    const g = computeGrid(pts, { x: "kmin", y: "pmax", metric: "throughput_gbps", aggregate: "slice", slice: {}, dims: ["kmin", "pmax"] });
    expect(g.cells).toHaveLength(4);
  });
});

describe("the collective job's metrics", () => {
  const job = (index: number, a: number, jct: number | null, busbw: number | null): SweepPoint => ({
    index, run_id: `j${index}`, status: "SUCCEEDED", params: { a, b: 1 }, metrics: { fct_p99_us: 1, jct_us: jct, busbw_gbps: busbw },
  });
  it("are offered only when a point has a job, and busbw's best is its highest", () => {
    expect(Object.keys(metricLabels(points))).not.toContain("jct_us");
    const jobs = [job(0, 1, 400, 300), job(1, 2, 200, 600)];
    expect(metricLabels(jobs)).toMatchObject({ jct_us: expect.stringMatching(/first job/), busbw_gbps: expect.stringMatching(/first collective job/) });
    expect(HIGHER_IS_BETTER.has("busbw_gbps") && !HIGHER_IS_BETTER.has("jct_us")).toBe(true);
    const g = computeGrid(jobs, { x: "b", y: "b", metric: "busbw_gbps", aggregate: "best", slice: {}, higherIsBetter: HIGHER_IS_BETTER.has("busbw_gbps") });
    expect(g.cells.map((c) => c.value)).toEqual([600]);
  });
});

describe("a training job's metrics", () => {
  const point = (index: number, a: number, iteration: number, tokens: number): SweepPoint => ({
    index, run_id: `t${index}`, status: "SUCCEEDED", params: { a, b: 1 },
    metrics: { fct_p99_us: 1, jct_us: 3 * iteration, iteration_us: iteration, tokens_per_s: tokens, exposed_dp_us: 10, exposed_tp_us: 5 },
  });
  it("are offered when a point has one, tokens/s maximised and iteration time minimised", () => {
    expect(Object.keys(metricLabels(points))).not.toContain("tokens_per_s");
    const pts = [point(0, 1, 400_000, 5e6), point(1, 2, 300_000, 7e6)];
    const labels = metricLabels(pts);
    expect(labels.iteration_us).toBe("Iteration time, first training job (us)");
    expect(labels.tokens_per_s).toBe("Tokens per second, first training job (tokens/s)");
    expect(labels.exposed_dp_us).toBe("Exposed DP time, first training job (us)");
    expect(labels).not.toHaveProperty("busbw_gbps"); // no point has a collective job
    expect(HIGHER_IS_BETTER.has("tokens_per_s") && !HIGHER_IS_BETTER.has("iteration_us")).toBe(true);
    const best = (metric: string) => computeGrid(pts, { x: "b", y: "b", metric, aggregate: "best", slice: {}, higherIsBetter: HIGHER_IS_BETTER.has(metric) }).cells[0].value;
    expect(best("tokens_per_s")).toBe(7e6);
    expect(best("iteration_us")).toBe(300_000);
    expect(formatMetric("iteration_us", 367_800)).toBe("368 ms");
  });

  it("a named training job's metrics flatten under their own keys", () => {
    const flat = flattenJobMetrics({ jct_us: 1, jobs: { ring: { jct_us: 1, busbw_gbps: 2 }, llama: { jct_us: 3, iteration_us: 4, tokens_per_s: 5 } } })!;
    expect(flat).toMatchObject({ "busbw_gbps of ring": 2, "iteration_us of llama": 4, "tokens_per_s of llama": 5 });
    expect(flat).not.toHaveProperty("busbw_gbps of llama");
    expect(metricLabels([{ index: 0, run_id: "r", status: "SUCCEEDED", params: {}, metrics: flat }])["tokens_per_s of llama"])
      .toBe("Tokens per second, job llama (tokens/s)");
  });
});

describe("a sweep's jobs by name", () => {
  const point = (i: number, jobs: Record<string, { jct_us: number; busbw_gbps: number }>) => ({
    index: i, params: { x: i, y: 0 }, run_id: `r${i}`, status: "SUCCEEDED",
    metrics: flattenJobMetrics({ throughput_gbps: 1, jct_us: jobs.A.jct_us, busbw_gbps: jobs.A.busbw_gbps, jobs }),
  });
  it("flattens every job's JCT and busbw to keys the heatmap colours by, labelled with the job", () => {
    const p = point(0, { A: { jct_us: 100, busbw_gbps: 50 }, B: { jct_us: 400, busbw_gbps: 25 } });
    expect(p.metrics).toEqual({ throughput_gbps: 1, jct_us: 100, busbw_gbps: 50,
      "jct_us of A": 100, "busbw_gbps of A": 50, "jct_us of B": 400, "busbw_gbps of B": 25 });
    const labels = metricLabels([p]);
    expect(labels["jct_us of B"]).toBe("Job completion time, job B (us)");
    expect(labels["busbw_gbps of B"]).toBe("Bus bandwidth, job B (Gbit/s)");
    expect(formatMetric("jct_us of B", 400)).toBe(formatMetric("jct_us", 400));
    // one job: nothing beyond the first job's own columns
    expect(Object.keys(metricLabels([point(1, { A: { jct_us: 1, busbw_gbps: 1 } })])).some((k) => k.includes(" of "))).toBe(false);
    expect(flattenJobMetrics(null)).toBeNull();
  });
  it("finds the best cell of a named job's busbw as the highest, its JCT as the lowest", () => {
    const pts = [point(0, { A: { jct_us: 1, busbw_gbps: 1 }, B: { jct_us: 300, busbw_gbps: 20 } }),
      point(1, { A: { jct_us: 1, busbw_gbps: 1 }, B: { jct_us: 200, busbw_gbps: 30 } })];
    const best = (metric: string) => computeGrid(pts, { x: "y", y: "y", metric, aggregate: "best", slice: {} }).cells[0].value;
    expect(best("busbw_gbps of B")).toBe(30);
    expect(best("jct_us of B")).toBe(200);
  });
});
