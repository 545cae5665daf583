// A training job's numbers as the results page shows them (docs/result-format.md, "jobs", the
// `training` object): the cards, the iteration timeline and the sentence on what dominates are all
// computed here from the same object, so the cards and the chart cannot disagree unnoticed.
import type { Job } from "../../../lib/api/resultTypes";
import { formatBytes, formatCount, formatDurationUs, formatNumber, formatPercent } from "../../../lib/format";
import type { Card } from "../components/SummaryCards";

/** The kinds of time an iteration is made of, in the timeline's row order. */
export const TRAINING_KINDS = ["compute", "tp", "pp", "dp", "ep"] as const;
export type TrainingKind = (typeof TRAINING_KINDS)[number];
export type CommKind = Exclude<TrainingKind, "compute">;
export const COMM_KINDS: readonly CommKind[] = ["tp", "pp", "dp", "ep"];

/** How people name each kind. */
export const KIND_NAMES: Record<TrainingKind, string> = {
  compute: "compute", tp: "TP (tensor parallel)", pp: "PP (pipeline)", dp: "DP (data parallel)", ep: "EP (expert all-to-all)",
};
export const KIND_SHORT: Record<TrainingKind, string> = { compute: "compute", tp: "TP", pp: "PP", dp: "DP", ep: "EP" };

/** One span of the iteration: compute, or a collective of one kind, and whether it was exposed
 *  (on the critical path, not hidden behind compute). */
export interface TrainingSpan {
  kind: TrainingKind;
  start_us: number;
  end_us: number;
  exposed: boolean;
}

/** The collective on the critical path that took longest. */
export interface CriticalCollective {
  kind: CommKind;
  op: string;
  ranks: number;
  bytes: number;
  us: number;
}

/** A training job's `training` object (the shape agreed with the simulator, issue 35 §2). */
export interface TrainingResult {
  model: string;
  tp: number;
  pp: number;
  dp: number;
  ep: number;
  micro_batches: number;
  tokens_per_iteration: number;
  iteration_us: number[];
  mean_iteration_us: number;
  tokens_per_s: number;
  compute_us: number;
  bubble_us: number;
  exposed_us: Record<CommKind, number>;
  critical_collective: CriticalCollective | null;
  timeline: TrainingSpan[];
}

/** A result job that ran a training generator. */
export type TrainingJob = Job & { kind: "training"; training: TrainingResult };

export const isTrainingJob = (job: unknown): job is TrainingJob =>
  !!job && typeof job === "object" && (job as { kind?: string }).kind === "training" && !!(job as { training?: unknown }).training;

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

/** What the timeline draws, in totals: its span, compute time, and exposed time by kind. */
export interface TimelineTotals {
  startUs: number;
  endUs: number;
  lengthUs: number;
  computeUs: number;
  exposedUs: Record<CommKind, number>;
  /** Communication time by kind, hidden or not. */
  commUs: Record<CommKind, number>;
}

export function timelineTotals(t: TrainingResult): TimelineTotals {
  const spans = t.timeline ?? [];
  const startUs = spans.length ? Math.min(...spans.map((s) => s.start_us)) : 0;
  const endUs = spans.length ? Math.max(...spans.map((s) => s.end_us)) : 0;
  const of = (k: TrainingKind, exposedOnly: boolean) => unionUs(spans.filter((s) => s.kind === k && (!exposedOnly || s.exposed)));
  const exposedUs = Object.fromEntries(COMM_KINDS.map((k) => [k, of(k, true)])) as Record<CommKind, number>;
  const commUs = Object.fromEntries(COMM_KINDS.map((k) => [k, of(k, false)])) as Record<CommKind, number>;
  return { startUs, endUs, lengthUs: endUs - startUs, computeUs: of("compute", false), exposedUs, commUs };
}

/** Two figures agree when they differ by no more than 1 % of the larger or 0.5 us (rounding in
 *  the result's microsecond figures). */
export const agrees = (a: number, b: number) => Math.abs(a - b) <= Math.max(0.5, 0.01 * Math.max(Math.abs(a), Math.abs(b)));

/** Where a card's figure and the chart's differ: one line each, empty when they agree. */
export function disagreements(t: TrainingResult): string[] {
  if (!t.timeline?.length) return [];
  const tot = timelineTotals(t);
  const out: string[] = [];
  if (!agrees(tot.computeUs, t.compute_us)) out.push(`compute: the card says ${formatDurationUs(t.compute_us)}, the timeline draws ${formatDurationUs(tot.computeUs)}`);
  for (const k of COMM_KINDS) {
    const card = t.exposed_us?.[k] ?? 0;
    if (!agrees(tot.exposedUs[k], card)) out.push(`exposed ${KIND_SHORT[k]}: the card says ${formatDurationUs(card)}, the timeline draws ${formatDurationUs(tot.exposedUs[k])}`);
  }
  return out;
}

/** The parts an iteration's time is made of, largest first: compute, the pipeline bubble, and the
 *  exposed communication of each kind (nothing of 0). */
export function iterationParts(t: TrainingResult): { key: TrainingKind | "bubble"; label: string; us: number }[] {
  const parts: { key: TrainingKind | "bubble"; label: string; us: number }[] = [
    { key: "compute", label: "compute", us: t.compute_us },
    { key: "bubble", label: "the pipeline bubble", us: t.bubble_us ?? 0 },
    ...COMM_KINDS.map((k) => ({ key: k, label: `exposed ${KIND_SHORT[k]} communication`, us: t.exposed_us?.[k] ?? 0 })),
  ];
  return parts.filter((p) => p.us > 0).sort((a, b) => b.us - a.us);
}

const exposedTotal = (t: TrainingResult) => COMM_KINDS.reduce((a, k) => a + (t.exposed_us?.[k] ?? 0), 0);

/** One sentence or two on what the iteration's time goes to, from the cards' figures. */
export function dominanceText(t: TrainingResult): string {
  const it = t.mean_iteration_us;
  if (!(it > 0)) return "No iteration finished, so nothing can be said about what dominates it.";
  const parts = iterationParts(t);
  const top = parts[0];
  const share = (us: number) => formatPercent(us / it);
  const exposed = exposedTotal(t);
  const lead = top
    ? `The iteration (${formatDurationUs(it)} on average) is dominated by ${top.label}: ${formatDurationUs(top.us)}, ${share(top.us)} of it.`
    : `The iteration takes ${formatDurationUs(it)} on average.`;
  const commKinds = COMM_KINDS.filter((k) => (t.exposed_us?.[k] ?? 0) > 0).sort((a, b) => t.exposed_us[b] - t.exposed_us[a]);
  const comm = exposed > 0
    ? ` Communication not hidden behind compute adds ${formatDurationUs(exposed)} (${share(exposed)})${commKinds.length > 1 ? `, most of it ${KIND_SHORT[commKinds[0]]}` : ""}.`
    : " All communication was hidden behind compute.";
  const hint = top?.key === "dp" ? " Overlapping the gradient reduction with the backward pass, or a faster fabric, shortens it."
    : top?.key === "bubble" ? " More micro-batches per iteration make the bubble a smaller part of it."
    : top?.key === "tp" ? " Keeping each TP group inside a server (NVLink) shortens it."
    : top?.key === "compute" ? " The fabric is not what limits this job: a faster fabric would change little."
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
  return [
    { label: "Iteration time", value: formatDurationUs(t.mean_iteration_us), window: `mean of ${window}`,
      note: its.length > 1 ? spreadText(its) : undefined,
      href, linkText: "the iteration's timeline" },
    { label: "Tokens per second", value: formatNumber(t.tokens_per_s), window: `mean of ${window}`,
      note: `${formatCount(t.tokens_per_iteration)} tokens per iteration`, href, linkText: "the iteration's timeline" },
    { label: "Compute", value: formatDurationUs(t.compute_us), window: "per iteration",
      note: t.bubble_us > 0 ? `plus a pipeline bubble of ${formatDurationUs(t.bubble_us)}` : undefined, href, linkText: "the compute row" },
    ...COMM_KINDS.map((k) => ({
      label: `Exposed ${KIND_SHORT[k]}`, value: formatDurationUs(t.exposed_us?.[k] ?? 0), window: "per iteration, not hidden behind compute",
      href, linkText: `the ${KIND_SHORT[k]} row`,
    })),
    { label: "Critical collective", value: crit ? formatDurationUs(crit.us) : "—", window: "the longest on the critical path",
      note: crit ? `${KIND_SHORT[crit.kind]} ${crit.op.replace(/_/g, "-")} of ${formatBytes(crit.bytes)} over ${formatCount(crit.ranks)} ranks` : undefined,
      href, linkText: `the ${crit ? KIND_SHORT[crit.kind] : "communication"} rows` },
  ];
}

/** "TP 8 × PP 4 × DP 32 (EP 1), 8 micro-batches" for the panel's heading line. */
export const planText = (t: TrainingResult) =>
  `TP ${t.tp} × PP ${t.pp} × DP ${t.dp}${t.ep > 1 ? `, EP ${t.ep}` : ""}, ${formatCount(t.micro_batches)} micro-batch${t.micro_batches === 1 ? "" : "es"}`;
