// A fork's name when its author kept the original's: the original's name and what changed, so a
// comparison never shows two runs of "incast-2to1" side by side (issue 37).
import { parameterRows } from "./paramTable";
import type { Scenario } from "./types";
import { LIMITS } from "./contract.gen";

const MAX_NAME = LIMITS.MAX_NAME_CHARS;

/** `name` with the first differences from `base` ("2-to-1 incast · ECN Kmax 200,000 +1 more"), or
 * "(copy)" when nothing differs. */
export function forkName(name: string, base: Scenario, doc: Scenario): string {
  const changed = parameterRows(doc, base).filter((r) => r.changed);
  const what = changed.slice(0, 2).map((r) => `${r.label} ${r.value}`).join(", ");
  const suffix = changed.length === 0 ? " (copy)" : ` · ${what}${changed.length > 2 ? ` +${changed.length - 2} more` : ""}`;
  const stem = (name || "Untitled fabric").slice(0, Math.max(1, MAX_NAME - suffix.length));
  return `${stem}${suffix}`.slice(0, MAX_NAME);
}
