import { scaleDiverging, scaleSequential } from "d3-scale";
import { interpolateCividis, interpolatePuOr, interpolateViridis } from "d3-scale-chromatic";

export type SequentialScheme = "viridis" | "cividis";

export const NO_DATA_COLOR = "#e6e6e6";

/** Colour-blind-safe sequential scale over [min, max]. */
export function sequentialScale(domain: [number, number], scheme: SequentialScheme) {
  const [lo, hi] = domain[0] === domain[1] ? [domain[0] - 1, domain[1] + 1] : domain;
  return scaleSequential(scheme === "cividis" ? interpolateCividis : interpolateViridis).domain([lo, hi]);
}

/** Diverging scale for differences, symmetric around 0 (purple-orange, colour-blind safe). */
export function divergingScale(domain: [number, number]) {
  const m = Math.max(Math.abs(domain[0]), Math.abs(domain[1])) || 1;
  return scaleDiverging(interpolatePuOr).domain([-m, 0, m]);
}
