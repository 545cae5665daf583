import type { FlowRecord } from "../../../lib/api/resultTypes";

export const SIZE_BUCKETS: { label: string; max: number }[] = [
  { label: "< 10 KB", max: 10_000 },
  { label: "10 KB - 100 KB", max: 100_000 },
  { label: "100 KB - 1 MB", max: 1_000_000 },
  { label: ">= 1 MB", max: Infinity },
];

export interface CdfBucket {
  label: string;
  /** [value, cumulative fraction], starting at [min, 0]; thinned to MAX_CDF_POINTS. */
  points: [number, number][];
  /** Flows in the line. */
  count: number;
}

/** At most this many points per CDF line: a quantile every 0.1 %, finer than a pixel at any chart height. */
export const MAX_CDF_POINTS = 1000;

/** The step points of a sorted sample, thinned to MAX_CDF_POINTS by rank (the last point kept). */
export function cdfPoints(sorted: number[]): [number, number][] {
  const n = sorted.length;
  const points: [number, number][] = [[sorted[0], 0]];
  const step = Math.max(1, Math.ceil(n / MAX_CDF_POINTS));
  for (let i = step - 1; i < n; i += step) points.push([sorted[i], (i + 1) / n]);
  if ((n - 1) % step !== step - 1 && n > 0) points.push([sorted[n - 1], 1]);
  return points;
}

/** CDF of completed finite flows per size bucket; empty buckets are left out. One pass over the
 *  flows, numeric sorts in typed arrays (100,000 flows in a few tens of ms). */
export function cdfByBucket(flows: FlowRecord[], metric: "fct_us" | "slowdown"): CdfBucket[] {
  const values: number[][] = SIZE_BUCKETS.map(() => []);
  for (const f of flows) {
    const v = f[metric];
    if (f.size_bytes <= 0 || typeof v !== "number") continue;
    let b = 0;
    while (f.size_bytes >= SIZE_BUCKETS[b].max) b += 1;
    values[b].push(v);
  }
  const out: CdfBucket[] = [];
  SIZE_BUCKETS.forEach((b, i) => {
    if (!values[i].length) return;
    const sorted = Array.from(Float64Array.from(values[i]).sort());
    out.push({ label: b.label, points: cdfPoints(sorted), count: sorted.length });
  });
  return out;
}

/** One CDF over all completed finite flows (the comparison's line per run). */
export function cdfAll(flows: FlowRecord[], metric: "fct_us" | "slowdown", label: string): CdfBucket | null {
  const picked: number[] = [];
  for (const f of flows) {
    const v = f[metric];
    if (f.size_bytes > 0 && typeof v === "number") picked.push(v);
  }
  if (!picked.length) return null;
  const vals = Array.from(Float64Array.from(picked).sort());
  return { label, points: cdfPoints(vals), count: vals.length };
}
