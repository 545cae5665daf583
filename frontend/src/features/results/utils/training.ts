// A training job's numbers as the results page shows them (docs/result-format.md, "jobs", the
// `training` object): the cards, the iteration timeline and the sentence on what dominates are all
// computed here from the same object, so the cards and the chart cannot disagree unnoticed.
import type { Job, Training, TrainingCollective, TrainingSegment } from "../../../lib/api/resultTypes";
import { formatBytes, formatCount, formatDurationUs, formatNumber, formatPercent } from "../../../lib/format";
import type { Card } from "../components/SummaryCards";

/** The kinds of time an iteration is made of, in the timeline's row order. */
export type TrainingKind = TrainingSegment["kind"];
export const TRAINING_KINDS: readonly TrainingKind[] = ["compute", "tp", "pp", "dp", "ep"];
export type CommKind = Exclude<TrainingKind, "compute">;
export const COMM_KINDS: readonly CommKind[] = ["tp", "pp", "dp", "ep"];

/** How people name each kind. */
export const KIND_NAMES: Record<TrainingKind, string> = {
  compute: "compute",
  tp: "TP (tensor parallel)",
  pp: "PP (pipeline)",
  dp: "DP (data parallel)",
  ep: "EP (expert all-to-all)",
};
export const KIND_SHORT: Record<TrainingKind, string> = { compute: "compute", tp: "TP", pp: "PP", dp: "DP", ep: "EP" };

/** One span of the iteration (docs/result.schema.json, TrainingSegment): compute, or a collective
 *  of one kind, and whether it was exposed (the rank was not computing). */
export type TrainingSpan = TrainingSegment;

/** The critical rank's collective with the most time not hidden behind its compute. */
export type CriticalCollective = TrainingCollective;

/** A training job's `training` object (docs/result.schema.json, Training; written by
 *  simcore/scenario/training-summary.cc). The per-iteration breakdown and the timeline are the
 *  first iteration's on the critical rank (the last to end it); null when no iteration finished. */
export type TrainingResult = Training;

/** A result job that ran a training generator. */
export type TrainingJob = Job & { kind: "training"; training: Training };

export const isTrainingJob = (job: unknown): job is TrainingJob =>
  !!job &&
  typeof job === "object" &&
  (job as { kind?: string }).kind === "training" &&
  !!(job as { training?: unknown }).training;

/** Total length of the union of intervals (overlapping spans of one kind count once). */
export function unionUs(spans: { start_us: number; end_us: number }[]): number {
  const sorted = [...spans].filter((s) => s.end_us > s.start_us).sort((a, b) => a.start_us - b.start_us);
  let total = 0;
  let curStart = -Infinity;
  let curEnd = -Infinity;
  for (const s of sorted) {
    if (s.start_us > curEnd) {
      if (curEnd > curStart) total += curEnd - curStart;
      curStart = s.start_us;
      curEnd = s.end_us;
    } else curEnd = Math.max(curEnd, s.end_us);
  }
  if (curEnd > curStart) total += curEnd - curStart;
  return total;
}

/** When several kinds wait at once and the rank is not computing, the time is charged to the
 *  first of them in this order (docs/result.schema.json, Training.exposed_us; the simulator's
 *  kCommKinds): those that block compute on every layer first, the gradient sync last. */
export const CHARGE_ORDER: readonly CommKind[] = ["tp", "ep", "pp", "dp"];

/** What the timeline draws, in totals: its span (from the job's start, 0, to the critical rank's
 *  end of the iteration), compute time, exposed time by kind as charged, and idle time. */
export interface TimelineTotals {
  startUs: number;
  endUs: number;
  lengthUs: number;
  computeUs: number;
  exposedUs: Record<CommKind, number>;
  /** Communication time by kind, hidden or not. */
  commUs: Record<CommKind, number>;
  /** Neither computing nor waiting for a collective (the pipeline bubble). */
  idleUs: number;
}

export function timelineTotals(t: TrainingResult): TimelineTotals {
  const spans = t.timeline ?? [];
  const startUs = spans.length ? Math.min(0, ...spans.map((s) => s.start_us)) : 0;
  const endUs = spans.length ? Math.max(...spans.map((s) => s.end_us)) : 0;
  const commUs = Object.fromEntries(COMM_KINDS.map((k) => [k, unionUs(spans.filter((s) => s.kind === k))])) as Record<
    CommKind,
    number
  >;
  const exposedUs = Object.fromEntries(COMM_KINDS.map((k) => [k, 0])) as Record<CommKind, number>;
  // elementary intervals between every boundary: computing, else charged to the first kind in flight
  const cuts = [...new Set([startUs, endUs, ...spans.flatMap((s) => [s.start_us, s.end_us])])].sort((a, b) => a - b);
  let computeUs = 0;
  let idleUs = 0;
  for (let i = 0; i + 1 < cuts.length; i++) {
    const a = cuts[i];
    const b = cuts[i + 1];
    const active = new Set(
      spans.filter((s) => s.start_us <= a && s.end_us >= b && s.end_us > s.start_us).map((s) => s.kind),
    );
    if (active.has("compute")) computeUs += b - a;
    else {
      const charged = CHARGE_ORDER.find((k) => active.has(k));
      if (charged) exposedUs[charged] += b - a;
      else idleUs += b - a;
    }
  }
  return { startUs, endUs, lengthUs: endUs - startUs, computeUs, exposedUs, commUs, idleUs };
}

/** Two figures agree when they differ by no more than 1 % of the larger or 0.5 us (rounding in
 *  the result's microsecond figures). */
export const agrees = (a: number, b: number) =>
  Math.abs(a - b) <= Math.max(0.5, 0.01 * Math.max(Math.abs(a), Math.abs(b)));

/** Where a card's figure and the chart's differ: one line each, empty when they agree (or when
 *  the result kept only the timeline's first segments, which cannot add up to the cards). */
export function disagreements(t: TrainingResult): string[] {
  if (!t.timeline?.length || t.timeline_truncated || t.compute_us == null) return [];
  const tot = timelineTotals(t);
  const out: string[] = [];
  const check = (what: string, card: number, drawn: number) => {
    if (!agrees(drawn, card))
      out.push(`${what}: the card says ${formatDurationUs(card)}, the timeline draws ${formatDurationUs(drawn)}`);
  };
  check("compute", t.compute_us, tot.computeUs);
  for (const k of COMM_KINDS) check(`exposed ${KIND_SHORT[k]}`, t.exposed_us?.[k] ?? 0, tot.exposedUs[k]);
  check("pipeline bubble", t.bubble_us ?? 0, tot.idleUs);
  if (t.iteration_us?.length) check("first iteration", t.iteration_us[0], tot.lengthUs);
  return out;
}

/** The parts an iteration's time is made of, largest first: compute, the pipeline bubble, and the
 *  exposed communication of each kind (nothing of 0). */
export function iterationParts(t: TrainingResult): { key: TrainingKind | "bubble"; label: string; us: number }[] {
  const parts: { key: TrainingKind | "bubble"; label: string; us: number }[] = [
    { key: "compute", label: "compute", us: t.compute_us ?? 0 },
    { key: "bubble", label: "the pipeline bubble", us: t.bubble_us ?? 0 },
    ...COMM_KINDS.map((k) => ({ key: k, label: `exposed ${KIND_SHORT[k]} communication`, us: t.exposed_us?.[k] ?? 0 })),
  ];
  return parts.filter((p) => p.us > 0).sort((a, b) => b.us - a.us);
}

const exposedTotal = (t: TrainingResult) => COMM_KINDS.reduce((a, k) => a + (t.exposed_us?.[k] ?? 0), 0);

/** One sentence or two on what the iteration's time goes to, from the cards' figures (the first
 *  iteration's breakdown against its own length). */
export function dominanceText(t: TrainingResult): string {
  const it = t.iteration_us?.[0];
  if (it == null || !(it > 0) || t.compute_us == null)
    return "No iteration finished, so nothing can be said about what dominates it.";
  const parts = iterationParts(t);
  const top = parts[0];
  const share = (us: number) => formatPercent(us / it);
  const exposed = exposedTotal(t);
  const lead = top
    ? `The ${t.iteration_us.length > 1 ? "first " : ""}iteration (${formatDurationUs(it)}) is dominated by ${top.label}: ${formatDurationUs(top.us)}, ${share(top.us)} of it.`
    : `The iteration takes ${formatDurationUs(it)} on average.`;
  const ex = t.exposed_us ?? { tp: 0, pp: 0, dp: 0, ep: 0 };
  const commKinds = COMM_KINDS.filter((k) => ex[k] > 0).sort((a, b) => ex[b] - ex[a]);
  const comm =
    exposed > 0
      ? ` Communication not hidden behind compute adds ${formatDurationUs(exposed)} (${share(exposed)})${commKinds.length > 1 ? `, most of it ${KIND_SHORT[commKinds[0]]}` : ""}.`
      : " All communication was hidden behind compute.";
  const hint =
    top?.key === "dp"
      ? " Overlapping the gradient reduction with the backward pass, or a faster fabric, shortens it."
      : top?.key === "bubble"
        ? " More micro-batches per iteration make the bubble a smaller part of it."
        : top?.key === "tp"
          ? " Keeping each TP group inside a server (NVLink) shortens it."
          : top?.key === "compute"
            ? exposed > 0
              ? ` The fabric is not what limits this job most: a faster one could save at most the ${formatDurationUs(exposed)} of exposed communication.`
              : " The fabric is not what limits this job: a faster one would change nothing."
            : "";
  return lead + comm + hint;
}

/** "352 ms to 368 ms", or when those read the same, how far apart the iterations were. */
function spreadText(its: number[]): string {
  const lo = Math.min(...its);
  const hi = Math.max(...its);
  const a = formatDurationUs(lo);
  const b = formatDurationUs(hi);
  return a === b ? `every iteration within ${formatDurationUs(hi - lo)} of the others` : `${a} to ${b}`;
}

/** The cards of a training job (anchor: the timeline's id, where each figure is drawn). */
export function trainingCards(job: TrainingJob, anchor: string): Card[] {
  const t = job.training;
  const href = `#${anchor}`;
  const its = t.iteration_us ?? [];
  const window = `${formatCount(its.length)} iteration${its.length === 1 ? "" : "s"}`;
  const crit = t.critical_collective;
  const us = (v: number | null | undefined) => (v == null ? "—" : formatDurationUs(v));
  const first = `first iteration, ${t.critical_rank != null ? `rank ${formatCount(t.critical_rank)} (the last to end it)` : "the critical rank"}`;
  return [
    {
      label: "Iteration time",
      value: us(t.mean_iteration_us),
      window: its.length ? `mean of ${window}` : "no iteration finished",
      note: its.length > 1 ? spreadText(its) : undefined,
      href,
      linkText: "the iteration's timeline",
    },
    {
      label: "Tokens per second",
      value: t.tokens_per_s == null ? "—" : formatNumber(t.tokens_per_s),
      window: its.length ? `mean of ${window}` : "no iteration finished",
      note: `${formatCount(t.tokens_per_iteration)} tokens per iteration`,
      href,
      linkText: "the iteration's timeline",
    },
    {
      label: "Compute",
      value: us(t.compute_us),
      window: first,
      note: (t.bubble_us ?? 0) > 0 ? `plus ${formatDurationUs(t.bubble_us!)} idle (the pipeline bubble)` : undefined,
      href,
      linkText: "the compute row",
    },
    ...COMM_KINDS.map((k) => ({
      label: `Exposed ${KIND_SHORT[k]}`,
      value: t.exposed_us ? formatDurationUs(t.exposed_us[k] ?? 0) : "—",
      window: `${first}; not hidden behind compute`,
      href,
      linkText: `the ${KIND_SHORT[k]} row`,
    })),
    {
      label: "Critical collective",
      value: crit ? formatDurationUs(crit.us) : "—",
      window: "the most time not hidden behind compute",
      note: crit
        ? `${KIND_SHORT[crit.kind]} ${crit.op.replace(/_/g, "-")} of ${formatBytes(crit.bytes)} over ${formatCount(crit.ranks)} ranks${crit.exposed_us != null ? `; ${formatDurationUs(crit.exposed_us)} exposed` : ""}`
        : undefined,
      href,
      linkText: `the ${crit ? KIND_SHORT[crit.kind] : "communication"} rows`,
    },
  ];
}

/** "TP 8 × PP 4 × DP 32 (EP 1), 8 micro-batches" for the panel's heading line. */
export const planText = (t: TrainingResult) =>
  `TP ${t.tp} × PP ${t.pp} × DP ${t.dp}${t.ep > 1 ? `, EP ${t.ep}` : ""}, ${formatCount(t.micro_batches)} micro-batch${t.micro_batches === 1 ? "" : "es"}`;
