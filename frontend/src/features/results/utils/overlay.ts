import type { ResultSeries, ResultSummary } from "../../../lib/api/resultTypes";
import type { ExpandLink } from "../../../lib/topology/types";

export type OverlayMetric = "utilization" | "pauses" | "queue_at_t" | "pause_at_t";

export const OVERLAY_LABELS: Record<OverlayMetric, string> = {
  utilization: "Link utilization (whole run)",
  pauses: "PFC pause frames (sent + received)",
  queue_at_t: "Queue occupancy at time t (bytes)",
  pause_at_t: "Paused at time t",
};

/** Per-direction values keyed "a->b" for the chosen metric at sample index `ti`. */
export function directionalValues(metric: OverlayMetric, summary: ResultSummary, series: ResultSeries | undefined, ti: number) {
  const out = new Map<string, number>();
  if (metric === "utilization") for (const u of summary.link_utilization ?? []) out.set(u.link, u.utilization);
  if (metric === "pauses") for (const p of summary.pfc ?? []) out.set(p.port, (out.get(p.port) ?? 0) + p.pauses_sent + p.pauses_received);
  if (metric === "queue_at_t" && series) for (const [k, v] of Object.entries(series.queues)) out.set(k, v[ti] ?? 0);
  if (metric === "pause_at_t" && series) for (const [k, v] of Object.entries(series.pause)) out.set(k, v[ti] ?? 0);
  return out;
}

/** Value per link: the larger of its two directions, null when neither was recorded. */
export function linkValues(links: ExpandLink[], directional: Map<string, number>): (number | null)[] {
  return links.map((l) => {
    const a = directional.get(`${l.a}->${l.b}`);
    const b = directional.get(`${l.b}->${l.a}`);
    if (a === undefined && b === undefined) return null;
    return Math.max(a ?? 0, b ?? 0);
  });
}
