import { LIMITS } from "../scenario/contract.gen";
import type { ExpandLink } from "./types";

/** One-way propagation in fibre per km (docs/model.md; backend/app/scenarios/limits.py). */
export const FIBRE_US_PER_KM = LIMITS.FIBRE_US_PER_KM;
/** Links at least this long (one-way delay) are long-haul and get a label on the canvas. */
export const LONG_HAUL_US = 50;

const num = (v: number) => v.toLocaleString("en-US", { maximumFractionDigits: 1 });

/** "100 km · 500 us · 100 Gbit/s" for a long-haul link, else null. */
export function longHaulLabel(link: Pick<ExpandLink, "delay_us" | "length_km" | "rate_gbps">): string | null {
  const delay = link.length_km !== undefined ? link.length_km * FIBRE_US_PER_KM : link.delay_us ?? 0;
  if (delay < LONG_HAUL_US) return null;
  const km = link.length_km ?? delay / FIBRE_US_PER_KM;
  return `${num(km)} km · ${num(delay)} us one way · ${num(link.rate_gbps)} Gbit/s`;
}
