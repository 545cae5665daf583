// The collective jobs a scenario document runs, named as the simulator names them in the result's
// `jobs` (docs/scenario-format.md, collective `job`): the generator's `job`, else its `name`,
// else "job<index in traffic>".

interface GeneratorLike { kind?: unknown; job?: unknown; name?: unknown }

/** The scenario's collective job names, in traffic order (none: an empty list). */
export function collectiveJobNames(doc: unknown): string[] {
  const traffic = (doc as { traffic?: unknown } | undefined)?.traffic;
  if (!Array.isArray(traffic)) return [];
  const out: string[] = [];
  traffic.forEach((g: GeneratorLike, i) => {
    if (!g || g.kind !== "collective") return;
    const pick = (v: unknown) => (typeof v === "string" && v !== "" ? v : null);
    out.push(pick(g.job) ?? pick(g.name) ?? `job${i}`);
  });
  return out;
}
