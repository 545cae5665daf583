// The jobs a scenario document runs (collective and training generators), named as the simulator
// names them in the result's `jobs` (docs/scenario-format.md, collective `job`): the generator's
// `job`, else its `name`, else "job<index in traffic>".
import { JOB_GENERATORS } from "../api/metrics.gen";

interface GeneratorLike { kind?: unknown; job?: unknown; name?: unknown }

/** A job of the scenario: its name in the result and the generator kind that runs it. */
export interface ScenarioJob { name: string; kind: string }

/** The scenario's jobs, in traffic order (none: an empty list). */
export function scenarioJobs(doc: unknown): ScenarioJob[] {
  const traffic = (doc as { traffic?: unknown } | undefined)?.traffic;
  if (!Array.isArray(traffic)) return [];
  const out: ScenarioJob[] = [];
  traffic.forEach((g: GeneratorLike, i) => {
    if (!g || !(JOB_GENERATORS as readonly unknown[]).includes(g.kind)) return;
    const pick = (v: unknown) => (typeof v === "string" && v !== "" ? v : null);
    out.push({ name: pick(g.job) ?? pick(g.name) ?? `job${i}`, kind: g.kind as string });
  });
  return out;
}

/** The scenario's collective job names, in traffic order (none: an empty list). */
export function collectiveJobNames(doc: unknown): string[] {
  return scenarioJobs(doc).filter((j) => j.kind === "collective").map((j) => j.name);
}
