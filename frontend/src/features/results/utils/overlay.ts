import { format } from "d3-format";
import type { Job, JobLink, ResultSeries, ResultSummary } from "../../../lib/api/resultTypes";
import type { ExpandLink } from "../../../lib/topology/types";
import { type SequentialScheme, sequentialScale } from "../../../lib/charts/color";

export type OverlayMetric = "utilization" | "utilization_active" | "ecn" | "pauses_received" | "pauses" | "queue_at_t" | "pause_at_t" | "job_bytes";

export interface OverlaySpec {
  /** Option text in the metric picker. */
  label: string;
  /** Legend title, with its unit. */
  legend: string;
  /** How the two directions of a link combine: counts add up, rates and levels take the larger. */
  combine: "max" | "sum";
  /** Read at the scrubber's time from the sampled series. */
  timed: boolean;
  scheme: SequentialScheme;
  /** Fixed colour domain (utilization, pause state); otherwise [0, largest value]. */
  fixedMax?: number;
  format: (v: number) => string;
}

const count = (v: number) => (Math.abs(v) >= 1e4 ? format(".3~s")(v) : format(",.0f")(v));
const bytes = (v: number) => (v >= 1e6 ? `${format(".3~f")(v / 1e6)} MB` : v >= 1e3 ? `${format(".3~f")(v / 1e3)} KB` : `${format(".0f")(v)} B`);

export const OVERLAY: Record<OverlayMetric, OverlaySpec> = {
  utilization: {
    label: "Utilization (after warm-up, whole window)", legend: "Link utilization after warm-up, busier direction (%)",
    combine: "max", timed: false, scheme: "viridis", fixedMax: 1, format: (v) => `${format(".0f")(v * 100)} %`,
  },
  utilization_active: {
    label: "Utilization (active period)", legend: "Link utilization over the active period, busier direction (%)",
    combine: "max", timed: false, scheme: "viridis", fixedMax: 1, format: (v) => `${format(".0f")(v * 100)} %`,
  },
  ecn: {
    label: "ECN-marked packets", legend: "ECN-marked packets, both directions (packets)",
    combine: "sum", timed: false, scheme: "viridis", format: count,
  },
  pauses_received: {
    label: "PFC pauses received", legend: "PFC pause frames received, both ends (frames)",
    combine: "sum", timed: false, scheme: "viridis", format: count,
  },
  pauses: {
    label: "PFC pauses sent + received (per port)", legend: "PFC pause frames sent + received (frames)",
    combine: "sum", timed: false, scheme: "viridis", format: count,
  },
  queue_at_t: {
    label: "Queue occupancy at time t", legend: "Queue occupancy at t, fuller direction (bytes)",
    combine: "max", timed: true, scheme: "viridis", format: bytes,
  },
  pause_at_t: {
    label: "Pause state at time t", legend: "Pause state at t (1 paused, 2 sending XOFF, 3 both)",
    combine: "max", timed: true, scheme: "viridis", fixedMax: 3, format: (v) => format(".0f")(v),
  },
  job_bytes: {
    label: "A collective job's links (its bytes)", legend: "The job's DATA bytes on the link, both directions",
    combine: "sum", timed: false, scheme: "viridis", format: bytes,
  },
};

export const UNRECORDED_LINK = "#d0d4da";

/** Metrics this result can show: the per-link ECN and pause counts exist only in newer results. */
export function availableMetrics(summary: ResultSummary, series: ResultSeries | undefined, activeScale?: number | null, jobs?: Job[]): OverlayMetric[] {
  const links = summary.link_utilization ?? [];
  const out: OverlayMetric[] = activeScale ? ["utilization_active", "utilization"] : ["utilization"];
  if (links.some((l) => typeof l.ecn_marked_packets === "number")) out.push("ecn");
  if (links.some((l) => typeof l.pauses_received === "number")) out.push("pauses_received");
  out.push("pauses");
  if (series && series.t_us.length > 0) {
    if (Object.keys(series.queues).length) out.push("queue_at_t");
    if (Object.keys(series.pause).length) out.push("pause_at_t");
  }
  if (jobs?.some((j) => j.links?.length)) out.push("job_bytes");
  return out;
}

/** Per-direction values keyed "a->b" for the chosen metric at sample index `ti`. */
export function directionalValues(metric: OverlayMetric, summary: ResultSummary, series: ResultSeries | undefined, ti: number, activeScale?: number | null, jobLinks?: JobLink[]) {
  const out = new Map<string, number>();
  const links = summary.link_utilization ?? [];
  if (metric === "utilization") for (const u of links) out.set(u.link, u.utilization);
  // Same bytes over the active period instead of the whole window after warm-up.
  if (metric === "utilization_active" && activeScale) for (const u of links) out.set(u.link, u.utilization * activeScale);
  if (metric === "ecn") for (const u of links) if (typeof u.ecn_marked_packets === "number") out.set(u.link, u.ecn_marked_packets);
  if (metric === "pauses_received") for (const u of links) if (typeof u.pauses_received === "number") out.set(u.link, u.pauses_received);
  if (metric === "pauses") for (const p of summary.pfc ?? []) out.set(p.port, (out.get(p.port) ?? 0) + p.pauses_sent + p.pauses_received);
  if (metric === "queue_at_t" && series) for (const [k, v] of Object.entries(series.queues)) out.set(k, v[ti] ?? 0);
  if (metric === "pause_at_t" && series) for (const [k, v] of Object.entries(series.pause)) out.set(k, v[ti] ?? 0);
  if (metric === "job_bytes") for (const l of jobLinks ?? []) out.set(l.link, l.bytes);
  return out;
}

/** Value per link from its two directions (larger, or sum for counts); null when neither was recorded. */
export function linkValues(links: ExpandLink[], directional: Map<string, number>, combine: "max" | "sum" = "max"): (number | null)[] {
  return links.map((l) => {
    const a = directional.get(`${l.a}->${l.b}`);
    const b = directional.get(`${l.b}->${l.a}`);
    if (a === undefined && b === undefined) return null;
    return combine === "sum" ? (a ?? 0) + (b ?? 0) : Math.max(a ?? 0, b ?? 0);
  });
}

/** Everything the overlay draws for a metric: per-link values, the colour scale and each link's colour. */
export function overlayColors(metric: OverlayMetric, links: ExpandLink[], summary: ResultSummary, series: ResultSeries | undefined, ti: number, activeScale?: number | null, jobLinks?: JobLink[]) {
  const spec = OVERLAY[metric];
  const directional = directionalValues(metric, summary, series, ti, activeScale, jobLinks);
  const values = linkValues(links, directional, spec.combine);
  let max = spec.fixedMax;
  if (max === undefined) {
    // Timed views keep one domain over the whole series, so colours compare across the scrubber.
    const all = metric === "queue_at_t" && series ? Object.values(series.queues).flat() : values.map((v) => v ?? 0);
    max = Math.max(1, ...all);
  }
  const color = sequentialScale([0, max], spec.scheme);
  const stroke = values.map((v) => (v == null ? UNRECORDED_LINK : color(v)));
  return { spec, directional, values, color, stroke };
}

/** The links with the largest values, for a text summary next to the picture. */
export function topLinks(links: ExpandLink[], values: (number | null)[], n = 5) {
  return links
    .map((l, i) => ({ link: l, value: values[i] }))
    .filter((x): x is { link: ExpandLink; value: number } => x.value != null && x.value > 0)
    .sort((x, y) => y.value - x.value)
    .slice(0, n);
}

/** One direction of a link a job crossed that other jobs crossed too (they queued behind each other there). */
export interface SharedLink { link: string; bytes: number; others: { job: string; bytes: number }[] }

/** The link directions job `index` crossed that other jobs crossed too, and for each other job
 *  whether the two ran at the same time (then their frames queued together there). */
export function linkSharing(jobs: Job[], index: number) {
  const job = jobs[index];
  const others = new Map<string, { job: string; bytes: number }[]>();
  jobs.forEach((j, i) => {
    if (i === index) return;
    for (const l of j.links ?? []) others.set(l.link, [...(others.get(l.link) ?? []), { job: j.name, bytes: l.bytes }]);
  });
  const shared: SharedLink[] = (job?.links ?? []).filter((l) => others.has(l.link))
    .map((l) => ({ link: l.link, bytes: l.bytes, others: others.get(l.link)! }))
    .sort((a, b) => b.bytes - a.bytes || a.link.localeCompare(b.link));
  const span = job ? jobSpan(job) : null;
  const partners = [...new Set(shared.flatMap((x) => x.others.map((o) => o.job)))].map((name) => {
    const other = jobs.find((j) => j.name === name);
    const o = other ? jobSpan(other) : null;
    return {
      job: name, links: shared.filter((x) => x.others.some((y) => y.job === name)).length,
      concurrent: !!span && !!o && span[0] < o[1] && o[0] < span[1],
    };
  });
  return { shared, partners };
}

/** What a job's links say: how many, how many between switches, which it shared with other jobs. */
export function jobLinkSummary(jobs: Job[], index: number, kindOf: (node: string) => "host" | "switch" | undefined) {
  const job = jobs[index];
  const links = job?.links ?? [];
  const betweenSwitches = links.filter((l) => l.link.split("->").every((n) => kindOf(n) === "switch"));
  // what left the ranks' NICs (each byte once: the job card's network bytes), not the sum over hops
  const sent = links.filter((l) => kindOf(l.link.split("->")[0]) === "host").reduce((t, l) => t + l.bytes, 0);
  return { job, links, betweenSwitches, sent, ...linkSharing(jobs, index) };
}

/** Indices of the links (either direction) a job shared with a job that ran at the same time:
 *  the ones where their frames competed (drawn thicker); undefined when none. */
export function contendedLinks(links: ExpandLink[], view: Pick<ReturnType<typeof linkSharing>, "shared" | "partners">) {
  const together = new Set(view.partners.filter((p) => p.concurrent).map((p) => p.job));
  const dirs = new Set(view.shared.filter((x) => x.others.some((o) => together.has(o.job))).map((x) => x.link));
  if (!dirs.size) return undefined;
  return new Set(links.flatMap((l, i) => (dirs.has(`${l.a}->${l.b}`) || dirs.has(`${l.b}->${l.a}`) ? [i] : [])));
}

/** A job's first start and last end (us), from its iterations; null before it started. */
export function jobSpan(job: Job): [number, number] | null {
  const starts = job.iterations.map((i) => i.start_us).filter((v): v is number => v != null);
  if (!starts.length) return null;
  const ends = job.iterations.map((i) => i.end_us ?? Infinity);
  return [Math.min(...starts), Math.max(...ends)];
}
