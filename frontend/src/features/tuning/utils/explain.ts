// Why a tuning's pick won: its score split into the objective's terms, the raw metrics beside
// them, what got worse against the vendor setting, settings in one unit system.
import { formatBytes, formatDurationUs, formatGbps, formatCount } from "../../../lib/format";
import { shortParamPath } from "../../../lib/scenario/paths";
import type { TuningPublic, TuningResults } from "../api/tunings";

type Row = TuningResults["table"][number];
type Spec = NonNullable<TuningResults["objective_specs"]>[number];

export interface ScoreTerms { throughput: number; queue: number; fairness: number }

/** The score's parts from an evaluation's metrics (`term_*`, composite objectives only). */
export function scoreTerms(metrics: Record<string, number | null> | null | undefined): ScoreTerms | null {
  const t = metrics?.term_throughput_part, q = metrics?.term_queue_part;
  if (t == null || q == null) return null;
  return { throughput: t, queue: q, fairness: metrics?.term_fairness_penalty ?? 0 };
}

const n3 = (v: number) => Number(v.toPrecision(3)).toString();

/** "0.262 (throughput, β 0.5) + 0.5 (empty queue, 1 − β)" and, for the latency form, "÷ (1 + …)". */
export function describeTerms(t: ScoreTerms, spec: Spec | undefined): string {
  const beta = spec?.beta ?? 0.5;
  const sum = `${n3(t.throughput)} throughput part (β ${n3(beta)}) + ${n3(t.queue)} queue part (1 − β = ${n3(1 - beta)})`;
  return spec?.kind === "bytetuning_latency" ? `(${sum}) ÷ (1 + ${n3(t.fairness)} unfairness, γ ${n3(spec.gamma)})` : sum;
}

/** The raw metrics of the table with their sense and unit. */
export const RAW_METRICS: { key: keyof Row & string; label: string; higherIsBetter: boolean; fmt: (v: number) => string }[] = [
  { key: "throughput_gbps", label: "throughput", higherIsBetter: true, fmt: formatGbps },
  { key: "fct_p99_us", label: "FCT p99", higherIsBetter: false, fmt: formatDurationUs },
  { key: "queue_p99_bytes", label: "queue p99", higherIsBetter: false, fmt: formatBytes },
  { key: "max_queue_bytes", label: "max queue", higherIsBetter: false, fmt: formatBytes },
  { key: "ecn_marked_packets", label: "ECN-marked packets", higherIsBetter: false, fmt: formatCount },
];

/** The raw metrics on which `row` is worse than `base` (the vendor's pick), worst first. */
export function worseThan(row: Row, base: Row | undefined): string[] {
  if (!base || row.strategy === base.strategy) return [];
  const out: { rel: number; text: string }[] = [];
  for (const m of RAW_METRICS) {
    const a = (row[m.key] as { mean: number } | null)?.mean, b = (base[m.key] as { mean: number } | null)?.mean;
    if (a == null || b == null || a === b) continue;
    const worse = m.higherIsBetter ? a < b : a > b;
    if (!worse) continue;
    const rel = b !== 0 ? Math.abs(a - b) / Math.abs(b) : Infinity;
    if (rel < 0.005) continue; // under half a percent: noise
    out.push({ rel, text: `${m.label} ${m.fmt(a)} vs ${m.fmt(b)}` });
  }
  return out.sort((x, y) => y.rel - x.rel).map((x) => x.text);
}

/** A pick's settings as (path, value) pairs in the scenario's units: the API's `settings` (grid
 * cells and percentages converted), else its overrides. */
export function pickSettings(pick: { settings?: Record<string, unknown> | null; overrides?: Record<string, unknown> | null } | undefined): [string, unknown][] {
  if (!pick) return [];
  return Object.entries(pick.settings && Object.keys(pick.settings).length ? pick.settings : pick.overrides ?? {});
}

/** A setting in the model's units with its unit: bytes as B/KB/MB, Pmax as a percentage. */
export function fmtSetting(path: string, v: unknown): string {
  const name = shortParamPath(path);
  if (typeof v !== "number") return `${name} = ${String(v)}`;
  if (/_bytes$/.test(path)) return `${name} = ${formatBytes(v)}`;
  if (/\.pmax$/.test(path)) return `${name} = ${n3(v * 100)} %`;
  if (/_us$/.test(path)) return `${name} = ${formatDurationUs(v)}`;
  if (/_mbps$/.test(path)) return `${name} = ${n3(v)} Mbit/s`;
  return `${name} = ${n3(v)}`;
}

/** The evaluations a strategy will make when it is done: its budget (the grid: the whole space;
 * the vendor and experience settings: one), known from the start. */
export function plannedEvaluations(t: Pick<TuningPublic, "spec" | "space">, strategy: string): number {
  const s = t.spec.strategies.find((x) => x.name === strategy);
  const size = t.space.size;
  if (strategy === "grid") return size;
  if (strategy === "vendor" || strategy === "experience") return 1;
  if (strategy === "random") return Math.min(s?.budget ?? 50, size);
  return s?.budget ?? 50;
}
