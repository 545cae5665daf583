// Mean and 95% confidence interval over seeds (Student t): the statistics of the grouped view.
// Pure functions, checked against numbers computed by hand in stats.test.ts.

/**
 * Two-sided 95% Student t quantiles t(0.975, df) for df = 1..63 (a run request carries at most
 * 64 seeds). Computed once by bisection on the numerically integrated t density, 4 decimals; they
 * agree with the printed tables (e.g. NIST/SEMATECH e-Handbook, table 1.3.6.7.2: 12.706, 4.303,
 * 2.776 at df 4, 2.042 at df 30, 2.000 at df 60).
 */
export const T975 = [
  12.7062, 4.3027, 3.1824, 2.7764, 2.5706, 2.4469, 2.3646, 2.306, 2.2622, 2.2281, 2.201, 2.1788, 2.1604, 2.1448,
  2.1314, 2.1199, 2.1098, 2.1009, 2.093, 2.086, 2.0796, 2.0739, 2.0687, 2.0639, 2.0595, 2.0555, 2.0518, 2.0484,
  2.0452, 2.0423, 2.0395, 2.0369, 2.0345, 2.0322, 2.0301, 2.0281, 2.0262, 2.0244, 2.0227, 2.0211, 2.0195, 2.0181,
  2.0167, 2.0154, 2.0141, 2.0129, 2.0117, 2.0106, 2.0096, 2.0086, 2.0076, 2.0066, 2.0057, 2.0049, 2.004, 2.0032,
  2.0025, 2.0017, 2.001, 2.0003, 1.9996, 1.999, 1.9983,
];

/** t(0.975, df); beyond the table the normal quantile 1.96 is within 0.002 of it. */
export function tQuantile975(df: number): number {
  if (!Number.isInteger(df) || df < 1) throw new RangeError(`degrees of freedom must be an integer >= 1, got ${df}`);
  return df <= T975.length ? T975[df - 1] : 1.96;
}

export interface Estimate {
  mean: number;
  /** Half-width of the 95% interval; null with fewer than two samples (no spread to estimate). */
  halfWidth: number | null;
  /** Samples the estimate is over. */
  n: number;
  min: number;
  max: number;
}

/** Mean over the samples and its 95% confidence interval (Student t, sample standard deviation). */
export function meanCi(samples: number[]): Estimate | null {
  const n = samples.length;
  if (n === 0) return null;
  let sum = 0;
  let min = Infinity;
  let max = -Infinity;
  for (const x of samples) {
    sum += x;
    if (x < min) min = x;
    if (x > max) max = x;
  }
  const mean = sum / n;
  if (n < 2) return { mean, halfWidth: null, n, min, max };
  let ss = 0;
  for (const x of samples) ss += (x - mean) * (x - mean);
  const sd = Math.sqrt(ss / (n - 1));
  return { mean, halfWidth: (tQuantile975(n - 1) * sd) / Math.sqrt(n), n, min, max };
}

/** Estimate over the values that exist (null or undefined left out, e.g. no finite flow completed). */
export function meanCiOf(values: (number | null | undefined)[]): Estimate | null {
  return meanCi(values.filter((v): v is number => v != null && Number.isFinite(v)));
}

/** "12.5 ± 0.8" in the unit of `format`; "12.5" alone when there is no interval. */
export function formatEstimate(e: Estimate | null, format: (v: number) => string): string {
  if (!e) return "—";
  return e.halfWidth == null ? format(e.mean) : `${format(e.mean)} ± ${format(e.halfWidth)}`;
}

export interface Band {
  mean: number[];
  lo: number[];
  hi: number[];
}

/**
 * Per-sample mean and 95% band of several runs' series on one clock (each array already resampled
 * to it): the band is the pointwise interval, clipped at zero since every charted quantity is >= 0.
 */
export function pointwiseBand(runs: number[][]): Band {
  const len = runs.reduce((m, r) => Math.max(m, r.length), 0);
  const mean = new Array<number>(len);
  const lo = new Array<number>(len);
  const hi = new Array<number>(len);
  const column: number[] = new Array(runs.length);
  for (let i = 0; i < len; i += 1) {
    for (let k = 0; k < runs.length; k += 1) column[k] = runs[k][i] ?? 0;
    const e = meanCi(column)!;
    mean[i] = e.mean;
    lo[i] = Math.max(0, e.mean - (e.halfWidth ?? 0));
    hi[i] = e.mean + (e.halfWidth ?? 0);
  }
  return { mean, lo, hi };
}
