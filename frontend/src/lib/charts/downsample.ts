/**
 * Indices of the samples to draw for t within [t0, t1]: at most ~2 per pixel column,
 * keeping each column's min and max so spikes survive.
 */
export function visibleIndices(t: number[], values: number[], t0: number, t1: number, columns: number): number[] {
  let lo = 0;
  while (lo < t.length && t[lo] < t0) lo += 1;
  let hi = t.length - 1;
  while (hi > 0 && t[hi] > t1) hi -= 1;
  lo = Math.max(0, lo - 1);
  hi = Math.min(t.length - 1, hi + 1);
  const n = hi - lo + 1;
  if (n <= 2 * columns) return Array.from({ length: Math.max(n, 0) }, (_, i) => lo + i);
  const out: number[] = [];
  const per = n / columns;
  for (let c = 0; c < columns; c += 1) {
    const s = lo + Math.floor(c * per);
    const e = Math.min(hi, lo + Math.floor((c + 1) * per) - 1);
    let iMin = s;
    let iMax = s;
    for (let i = s; i <= e; i += 1) {
      if (values[i] < values[iMin]) iMin = i;
      if (values[i] > values[iMax]) iMax = i;
    }
    out.push(Math.min(iMin, iMax));
    if (iMin !== iMax) out.push(Math.max(iMin, iMax));
  }
  return out;
}
