// The fast paths that keep a 100,000-flow results page under its time budget must give exactly
// what the plain comparison sorts gave: checked against them on data with ties and gaps.
import type { FlowRecord } from "../../../lib/api/resultTypes";
import { flowAtPercentile, nthSmallest } from "../utils/derive";
import { sortRows, sortedOrder } from "./DataTable";

/** The reference: a stable comparison sort, nulls last whatever the direction. */
function reference<R>(rows: R[], value: (r: R) => number | null, desc: boolean): R[] {
  return rows.map((r, i) => ({ r, i, v: value(r) })).sort((a, b) => {
    if (a.v == null || b.v == null) return a.v == null && b.v == null ? a.i - b.i : a.v == null ? 1 : -1;
    return a.v === b.v ? a.i - b.i : (a.v - b.v) * (desc ? -1 : 1);
  }).map((x) => x.r);
}

let seed = 7;
const rand = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);

describe("table sort fast paths", () => {
  const cases: Record<string, (number | null)[]> = {
    "three values with nulls (the chart column)": Array.from({ length: 500 }, () => (rand() < 0.1 ? null : Math.floor(rand() * 3))),
    "already ascending with trailing nulls": [...Array.from({ length: 300 }, (_, i) => i * 2), null, null],
    "negative integers": Array.from({ length: 400 }, () => Math.floor(rand() * 50) - 25),
    "fractions (comparison sort)": Array.from({ length: 400 }, () => rand() * 10),
    "integers too far apart (comparison sort)": Array.from({ length: 400 }, () => Math.floor(rand() * 1e7)),
  };
  for (const [name, keys] of Object.entries(cases)) {
    it(`${name}: same order as the stable comparison sort, both directions`, () => {
      const rows = keys.map((k, i) => ({ i, k }));
      for (const desc of [false, true]) {
        expect(sortRows(rows, (r) => r.k, desc).map((r) => r.i)).toEqual(reference(rows, (r) => r.k, desc).map((r) => r.i));
      }
    });
  }
  it("takes the fast path only where it applies", () => {
    expect(sortedOrder(Float64Array.from([0, 2, 1, 2, 0]), false)).toEqual(Uint32Array.from([0, 4, 2, 1, 3]));
    expect(sortedOrder(Float64Array.from([0, 2, 1, 2, 0]), true)).toEqual(Uint32Array.from([1, 3, 2, 0, 4]));
    expect(sortedOrder(Float64Array.from([1, 2, NaN]), false)).toEqual(Uint32Array.from([0, 1, 2]));
    expect(sortedOrder(Float64Array.from([0.5, 0.25]), false)).toBeNull();
  });
});

describe("the flow at a percentile", () => {
  it("selection gives the k-th smallest of random, sorted, reversed and constant arrays", () => {
    const arrays = [Array.from({ length: 301 }, () => Math.floor(rand() * 60)), Array.from({ length: 200 }, (_, i) => i), Array.from({ length: 200 }, (_, i) => -i), Array(50).fill(3)];
    for (const arr of arrays) {
      const sorted = [...arr].sort((x, y) => x - y);
      for (const k of [0, 1, Math.floor(arr.length / 2), arr.length - 2, arr.length - 1]) expect(nthSmallest(Float64Array.from(arr), k)).toBe(sorted[k]);
    }
  });
  const flow = (id: number, fct: number | null, size = 1000): FlowRecord => ({
    id, src: "h0", dst: "h1", size_bytes: size, start_us: 0, fct_us: fct, ideal_fct_us: 1, slowdown: fct, bytes_delivered: size, goodput_gbps: 1,
  });
  /** The reference: the stable sort of completed finite flows, the flow at rank ceil(p n) - 1. */
  const naive = (flows: FlowRecord[], p: number) => {
    const done = flows.filter((f) => f.fct_us != null && f.size_bytes > 0).sort((a, b) => a.fct_us! - b.fct_us!);
    return done.length ? done[Math.min(done.length - 1, Math.max(0, Math.ceil(p * done.length) - 1))] : null;
  };
  it("is the flow the stable sort puts there, ties in list order, long-lived and unfinished left out", () => {
    const flows = Array.from({ length: 1000 }, (_, i) => flow(i, rand() < 0.05 ? null : Math.floor(rand() * 40), rand() < 0.05 ? 0 : 1000));
    for (const p of [0, 0.01, 0.5, 0.9, 0.99, 0.999, 1]) expect(flowAtPercentile(flows, "fct_us", p)).toBe(naive(flows, p));
  });
  it("by hand: p99 of 100 flows with FCT 1..100 us is the flow of 99 us; none when nothing completed", () => {
    const flows = Array.from({ length: 100 }, (_, i) => flow(i, 100 - i));
    expect(flowAtPercentile(flows, "fct_us", 0.99)?.fct_us).toBe(99);
    expect(flowAtPercentile([flow(0, null), flow(1, 5, 0)], "fct_us", 0.99)).toBeNull();
  });
});
