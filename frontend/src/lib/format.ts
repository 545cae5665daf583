import { format } from "d3-format";

const sig3 = format(".3~r");

/** A duration given in microseconds in the unit a person reads: 820 us, 15.2 ms, 1.5 s. */
export function formatDurationUs(us: number): string {
  const a = Math.abs(us);
  if (a >= 1e6) return `${sig3(us / 1e6)} s`;
  if (a >= 1e3) return `${sig3(us / 1e3)} ms`;
  if (a >= 1 || a === 0) return `${sig3(us)} us`;
  return `${sig3(us * 1e3)} ns`;
}

/** Wall time in seconds: 12 ms for a short run (never "0.0 s"), 1.2 s, 3 min 5 s. */
export function formatWallS(s: number): string {
  if (s < 1) return `${Math.max(0, Math.round(s * 1000))} ms`;
  if (s < 60) return `${format(".2~r")(s)} s`;
  return `${Math.floor(s / 60)} min ${Math.round(s % 60)} s`;
}

export function formatBytes(b: number): string {
  if (b >= 1e6) return `${format(".4~r")(b / 1e6)} MB`;
  if (b >= 1e3) return `${format(".4~r")(b / 1e3)} KB`;
  return `${format(".0f")(b)} B`;
}

/** Counts stay exact integers with thousands separators (never 1.159e+4). */
export const formatCount = (v: number) => format(",")(Math.round(v));
export const formatNumber = format(",.4~r");
export const formatPercent = (v: number) => `${format(".1f")(v * 100)} %`;
export const formatGbps = (v: number) => `${format(",.4~r")(v)} Gbit/s`;
export const formatSigned = (v: number, f: (x: number) => string) => (v > 0 ? `+${f(v)}` : v < 0 ? `−${f(-v)}` : f(0));

/** A heading starts with a capital ("tuning of incast" -> "Tuning of incast"); the rest is kept. */
export const capitalise = (s: string) => (s ? s[0].toUpperCase() + s.slice(1) : s);
