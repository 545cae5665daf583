import type { SweepPublic } from "../api/sweeps";

type Point = SweepPublic["points"][number];
type Screening = NonNullable<SweepPublic["screening"]>;

/** One kept point: its flow-level figure, its packet-level one and their difference. */
export interface ScreenedRow {
  rank: number;
  point: Point;
  flow: number | null;
  packet: number | null;
  /** (flow - packet) / packet: the flow engine's error on this point; null until both are in. */
  error: number | null;
}

/** The screening's figure in a run's metrics (a named job's for jct_us and busbw_gbps). */
export function screenedValue(metrics: Point["metrics"] | undefined, screening: Screening): number | null {
  if (!metrics) return null;
  const m = metrics as Record<string, unknown>;
  if (screening.job && (screening.metric === "jct_us" || screening.metric === "busbw_gbps")) {
    const jobs = (m.jobs ?? {}) as Record<string, Record<string, number | null>>;
    const byKey = m[`${screening.metric} of ${screening.job}`];
    return jobs[screening.job]?.[screening.metric] ?? (typeof byKey === "number" ? byKey : null) ?? null;
  }
  const v = m[screening.metric];
  return typeof v === "number" ? v : null;
}

/** The kept points, best first, each with its two figures side by side. */
export function screenedRows(sweep: Pick<SweepPublic, "points" | "screening" | "kept">): ScreenedRow[] {
  const screening = sweep.screening;
  if (!screening || !sweep.kept) return [];
  const byIndex = new Map(sweep.points.map((p) => [p.index, p]));
  return sweep.kept.flatMap((index, i) => {
    const point = byIndex.get(index);
    if (!point) return [];
    const flow = screenedValue(point.metrics, screening);
    const packet = screenedValue(point.packet_metrics, screening);
    return [{ rank: i + 1, point, flow, packet, error: flow != null && packet ? (flow - packet) / packet : null }];
  });
}
