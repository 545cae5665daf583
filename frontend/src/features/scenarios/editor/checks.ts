// Checks the editor makes itself, so their errors do not come and go with other fields:
// the API's model validators (Kmin <= Kmax, warm-up < duration) only run when every field of the
// model is valid on its own.
import { getPath } from "../../../lib/scenario/paths";
import { ROOT_DEFAULTS, SWITCH_DEFAULTS } from "../../../lib/scenario/contract.gen";
import type { JsonObject, Scenario } from "../../../lib/scenario/types";

const KMIN_DEFAULT = SWITCH_DEFAULTS["ecn.kmin_bytes"] as number;
const KMAX_DEFAULT = SWITCH_DEFAULTS["ecn.kmax_bytes"] as number;
const DURATION_DEFAULT = ROOT_DEFAULTS.duration_us as number;
const fmt = (v: number) => v.toLocaleString("en-US");
const num = (v: unknown): number | undefined => (typeof v === "number" && Number.isFinite(v) ? v : undefined);

/** Path -> message for the cross-field rules the editor can see broken. */
export function crossFieldErrors(doc: Scenario): Record<string, string> {
  const out: Record<string, string> = {};
  const sw = (doc.switch ?? {}) as JsonObject;
  const kmin = num(getPath(sw, "ecn.kmin_bytes")) ?? KMIN_DEFAULT;
  const kmax = num(getPath(sw, "ecn.kmax_bytes")) ?? KMAX_DEFAULT;
  if (kmin > kmax) out["switch.ecn.kmin_bytes"] = kminMessage(kmax);
  for (const [id, o] of Object.entries(doc.switch_overrides ?? {})) {
    const omin = num(getPath(o, "ecn.kmin_bytes")) ?? kmin;
    const omax = num(getPath(o, "ecn.kmax_bytes")) ?? kmax;
    if (omin > omax) out[`switch_overrides.${id}.ecn.kmin_bytes`] = kminMessage(omax);
  }
  const duration = num(doc.duration_us) ?? DURATION_DEFAULT;
  const warmup = num(doc.warmup_us);
  if (warmup !== undefined && duration > 0 && warmup >= duration) {
    out.warmup_us = `Warm-up must be below the duration (${fmt(duration)} us)`;
  }
  return out;
}

const kminMessage = (kmax: number) => `ECN Kmin must not exceed ECN Kmax (${fmt(kmax)} bytes)`;
