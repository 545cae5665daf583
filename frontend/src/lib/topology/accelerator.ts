/**
 * The DCI accelerator (topology.accelerator, docs/scenario-format.md): which nodes run it, for the
 * canvas badges in the editor and the results overlay.
 */

/** The label drawn beside each accelerated DCI edge. */
export const ACCELERATOR_BADGE = "WAN accelerator";

/** node id -> badge text: a-dci and b-dci when the topology is a DCI with the accelerator on. */
export function acceleratorBadges(topology: unknown): Map<string, string> {
  const badges = new Map<string, string>();
  if (!topology || typeof topology !== "object") return badges;
  const t = topology as { kind?: unknown; accelerator?: { enabled?: unknown } | null };
  if (t.kind === "dci" && t.accelerator?.enabled === true) {
    badges.set("a-dci", ACCELERATOR_BADGE);
    badges.set("b-dci", ACCELERATOR_BADGE);
  }
  return badges;
}
