// The grouped view's statistics against numbers worked out by hand (shown in the comments).
import { describe, expect, it } from "vitest";
import type { ResultSummary } from "../../../lib/api/resultTypes";
import { formatEstimate, meanCi, meanCiOf, pointwiseBand, tQuantile975 } from "./stats";
import { groupCards, groupFlowRows, groupPortRows, groupProblem, type SeedRun } from "./group";

describe("mean and 95% interval (Student t)", () => {
  it("five samples 1..5", () => {
    // mean 3; squares of deviations 4+1+0+1+4 = 10; s^2 = 10/4 = 2.5; s = 1.58114;
    // s/sqrt(5) = 0.707107; t(0.975, 4) = 2.7764; half-width = 1.96321
    const e = meanCi([1, 2, 3, 4, 5])!;
    expect(e.mean).toBe(3);
    expect(e.halfWidth).toBeCloseTo(1.96321, 4);
    expect([e.n, e.min, e.max]).toEqual([5, 1, 5]);
  });
  it("two samples: the wide t(1) quantile", () => {
    // mean 12; s^2 = (4+4)/1 = 8; s = 2.828427; s/sqrt(2) = 2; t(0.975, 1) = 12.7062 -> 25.4124
    expect(meanCi([10, 14])!.halfWidth).toBeCloseTo(25.4124, 3);
  });
  it("no spread: zero half-width; one sample: no interval; none: null", () => {
    expect(meanCi([4, 4, 4])!.halfWidth).toBe(0);
    expect(meanCi([7])).toEqual({ mean: 7, halfWidth: null, n: 1, min: 7, max: 7 });
    expect(meanCi([])).toBeNull();
    expect(meanCiOf([null, 2, undefined, 4])!.n).toBe(2);
  });
  it("t quantiles of the printed tables; 1.96 past the table; bad df refused", () => {
    expect(tQuantile975(1)).toBeCloseTo(12.706, 3);
    expect(tQuantile975(10)).toBeCloseTo(2.228, 3);
    expect(tQuantile975(30)).toBeCloseTo(2.042, 3);
    expect(tQuantile975(60)).toBeCloseTo(2.000, 3);
    expect(tQuantile975(500)).toBe(1.96);
    expect(() => tQuantile975(0)).toThrow(/degrees of freedom/);
  });
  it("formats mean ± half-width", () => {
    expect(formatEstimate(meanCi([1, 2, 3, 4, 5]), (v) => v.toFixed(2))).toBe("3.00 ± 1.96");
    expect(formatEstimate(meanCi([7]), (v) => v.toFixed(1))).toBe("7.0");
    expect(formatEstimate(null, String)).toBe("—");
  });
  it("pointwise band, clipped at zero", () => {
    // sample 1: 2, 4, 6 -> mean 4, s = 2, s/sqrt(3) = 1.154701, t(0.975, 2) = 4.3027 -> 4.96833
    const b = pointwiseBand([[0, 2], [0, 4], [0, 6]]);
    expect(b.mean).toEqual([0, 4]);
    expect(b.hi[1]).toBeCloseTo(8.96833, 4);
    expect(b.lo[1]).toBe(0); // 4 - 4.968 < 0
    expect(b.lo[0]).toBe(0);
    expect(b.hi[0]).toBe(0);
  });
});

const summary = (over: Partial<ResultSummary>): ResultSummary => ({
  throughput_gbps: 0, max_queue_bytes: 0, ecn_marked_packets: 0, pfc_pauses_sent: 0, queues: [], link_utilization: [], pfc: [], ...over,
} as unknown as ResultSummary);
const run = (seed: number, s: Partial<ResultSummary>, flows: SeedRun["flows"] = []): SeedRun => ({
  id: `r${seed}`, seed, runInfo: { sim_time_ns: 1_000_000, warmup_ns: 0 } as SeedRun["runInfo"], summary: summary(s), flows,
});

describe("grouping seeds", () => {
  it("cards: throughput 90, 92, 97 Gbit/s", () => {
    // mean 93; deviations -3, -1, 4 -> 9+1+16 = 26; s^2 = 13; s = 3.605551; /sqrt(3) = 2.081666;
    // x 4.3027 -> 8.95679
    const cards = groupCards([run(1, { throughput_gbps: 90 }), run(2, { throughput_gbps: 92 }), run(3, { throughput_gbps: 97 })]);
    const tp = cards.find((c) => c.metric.key === "throughput")!;
    expect(tp.estimate!.mean).toBeCloseTo(93, 9);
    expect(tp.estimate!.halfWidth).toBeCloseTo(8.95679, 4);
    expect(tp.perSeed).toEqual([90, 92, 97]);
  });
  it("ports: a port idle in one seed counts as zero there", () => {
    const pfc = (n: number) => [{ port: "leaf0->h0", priority: 3, pauses_sent: n, pauses_received: 0, pause_duration_us: 0 }];
    const rows = groupPortRows([run(1, { pfc: pfc(10) } as never), run(2, { pfc: pfc(20) } as never), run(3, {})]);
    expect(rows.map((r) => r.port)).toEqual(["leaf0->h0"]);
    // 10, 20, 0: mean 10, s = 10, /sqrt(3) = 5.773503, x 4.3027 -> 24.8417
    expect(rows[0].seen).toBe(2);
    expect(rows[0].cells.pausesSent!.mean).toBe(10);
    expect(rows[0].cells.pausesSent!.halfWidth).toBeCloseTo(24.8417, 3);
  });
  it("flows by id: FCT over the seeds where the flow completed, pair kept or flagged", () => {
    const f = (id: number, src: string, fct: number | null) => ({ id, src, dst: "h0", size_bytes: 1000, start_us: 0, fct_us: fct, ideal_fct_us: 1, slowdown: fct, bytes_delivered: 1000, goodput_gbps: 1 });
    const rows = groupFlowRows([run(1, {}, [f(0, "h1", 10), f(1, "h2", 5)]), run(2, {}, [f(0, "h1", 14), f(1, "h3", null)])]);
    expect(rows[0].pair).toBe("h1->h0");
    expect(rows[0].cells.fct_us!.mean).toBe(12);
    expect(rows[0].cells.fct_us!.halfWidth).toBeCloseTo(25.4124, 3);
    expect(rows[1].pair).toBe("differs by seed");
    expect(rows[1].cells.fct_us).toEqual({ mean: 5, halfWidth: null, n: 1, min: 5, max: 5 });
  });
  it("says why runs cannot be grouped", () => {
    expect(groupProblem([{ scenarioId: "a", seed: 1 }])).toMatch(/at least two/);
    expect(groupProblem([{ scenarioId: "a", seed: 1 }, { scenarioId: "b", seed: 2 }])).toMatch(/different scenarios/);
    expect(groupProblem([{ scenarioId: "a", seed: 1 }, { scenarioId: "a", seed: 1 }])).toMatch(/same seed/);
    expect(groupProblem([{ scenarioId: "a", seed: 1 }, { scenarioId: "a", seed: 2 }])).toBeNull();
  });
});
