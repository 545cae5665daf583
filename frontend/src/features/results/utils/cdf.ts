import type { FlowRecord } from "../../../lib/api/resultTypes";

export const SIZE_BUCKETS: { label: string; max: number }[] = [
  { label: "< 10 KB", max: 10_000 },
  { label: "10 KB - 100 KB", max: 100_000 },
  { label: "100 KB - 1 MB", max: 1_000_000 },
  { label: ">= 1 MB", max: Infinity },
];

export interface CdfBucket {
  label: string;
  /** [value, cumulative fraction], starting at [min, 0]. */
  points: [number, number][];
}

/** CDF of completed finite flows per size bucket; empty buckets are left out. */
export function cdfByBucket(flows: FlowRecord[], metric: "fct_us" | "slowdown"): CdfBucket[] {
  const out: CdfBucket[] = [];
  let lower = 0;
  for (const b of SIZE_BUCKETS) {
    const vals = flows
      .filter((f) => f.size_bytes > 0 && f.size_bytes >= lower && f.size_bytes < b.max)
      .map((f) => f[metric])
      .filter((v): v is number => typeof v === "number")
      .sort((a, z) => a - z);
    lower = b.max;
    if (vals.length === 0) continue;
    const points: [number, number][] = [[vals[0], 0]];
    vals.forEach((v, i) => points.push([v, (i + 1) / vals.length]));
    out.push({ label: b.label, points });
  }
  return out;
}

/** One CDF over all completed finite flows (the comparison's line per run). */
export function cdfAll(flows: FlowRecord[], metric: "fct_us" | "slowdown", label: string): CdfBucket | null {
  const vals = flows
    .filter((f) => f.size_bytes > 0)
    .map((f) => f[metric])
    .filter((v): v is number => typeof v === "number")
    .sort((a, z) => a - z);
  if (!vals.length) return null;
  const points: [number, number][] = [[vals[0], 0]];
  vals.forEach((v, i) => points.push([v, (i + 1) / vals.length]));
  return { label, points };
}
