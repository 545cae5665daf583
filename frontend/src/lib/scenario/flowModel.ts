import { FLOW_UNMODELLED } from "./contract.gen";

/** `switch_overrides.leaf0.pfc.enabled` -> `switch.pfc.enabled` (likewise nic_overrides). */
function canonical(path: string): string {
  const parts = path.replace(/\[(\d+)\]/g, ".$1").split(".");
  if ((parts[0] === "switch_overrides" || parts[0] === "nic_overrides") && parts.length > 2) {
    return [parts[0].replace("_overrides", ""), ...parts.slice(2)].join(".");
  }
  return parts.join(".");
}

/**
 * Why the flow-level engine does not model the scenario field at `path` (app/scenarios/flow_model.py,
 * generated into FLOW_UNMODELLED), or null when it does: a flow-level screening over it is refused.
 */
export function unmodelledReason(path: string): string | null {
  const p = canonical(path);
  for (const [feature, { why, paths }] of Object.entries(FLOW_UNMODELLED)) {
    if (paths.some((prefix) => p === prefix || p.startsWith(`${prefix}.`))) return `${why} (${feature})`;
  }
  return null;
}
