// Reading the run metrics' declaration (metrics.gen.ts, from backend/app/runs/metrics.py).
import { RUN_METRICS, type RunMetric } from "./metrics.gen";

const BY_NAME: Readonly<Record<string, RunMetric>> = Object.fromEntries(RUN_METRICS.map((m) => [m.name, m]));

export const runMetric = (name: string): RunMetric | undefined => BY_NAME[name];

/** A job's metric: read from each job by name, the first job that has it as the run's value. */
export const isJobMetric = (name: string): boolean => BY_NAME[name]?.jobKinds !== undefined;

/** The job metrics, in the declaration's order. */
export const JOB_METRIC_NAMES: readonly string[] = RUN_METRICS.filter((m) => m.jobKinds !== undefined).map(
  (m) => m.name,
);

/** Whether a job of this kind has the metric ("collective" for a job without `kind`). */
export const jobHasMetric = (name: string, kind: string): boolean => {
  const kinds = BY_NAME[name]?.jobKinds;
  return kinds === null || (kinds !== undefined && kinds.includes(kind));
};

/** Which job the run's value is read from: "first job" or "first training job". */
export const firstJobText = (name: string): string => {
  const kinds = BY_NAME[name]?.jobKinds;
  return kinds ? `first ${kinds.join(" or ")} job` : "first job";
};

export const higherIsBetter = (name: string): boolean => BY_NAME[name]?.goal === "max";

/** A job metric of one result job (null when its kind has none or it did not finish), as the
 *  backend reads it (app/runs/metrics.py: job_value). */
export function jobValue(job: { kind?: string }, name: string): number | null {
  const spec = BY_NAME[name];
  if (!spec?.jobPath || !jobHasMetric(name, job.kind ?? "collective")) return null;
  let v: unknown = job;
  for (const key of spec.jobPath) v = v && typeof v === "object" ? (v as Record<string, unknown>)[key] : undefined;
  return typeof v === "number" ? v : null;
}
