/**
 * Keyboard and pointer cursor of a time-series chart: which sample the cursor is on.
 * The arrows move one pixel column (several samples when a column holds many), Shift+arrow or
 * PageUp/PageDown ten columns, Home/End to the first/last sample in view.
 */

/** Index of the first sample at or after x0 and of the last at or before x1 (lo > hi when none). */
export function visibleRange(t: ArrayLike<number>, [x0, x1]: [number, number]): [number, number] {
  return [lowerBound(t, x0), lowerBound(t, x1 + Number.EPSILON * Math.max(1, Math.abs(x1))) - 1];
}

/** The sample nearest to time `at`. */
export function nearestIndex(t: ArrayLike<number>, at: number): number {
  if (t.length === 0) return -1;
  const i = lowerBound(t, at);
  if (i <= 0) return 0;
  if (i >= t.length) return t.length - 1;
  return at - t[i - 1] <= t[i] - at ? i - 1 : i;
}

/** The cursor after a key press, or undefined when the key is not one of the chart's. */
export function cursorAfterKey(key: string, shift: boolean, current: number | null, [lo, hi]: [number, number], columns: number): number | null | undefined {
  if (hi < lo) return undefined;
  const perColumn = Math.max(1, Math.ceil((hi - lo + 1) / Math.max(1, columns)));
  const clamp = (i: number) => Math.min(hi, Math.max(lo, i));
  const from = current == null || current < lo || current > hi ? null : current;
  switch (key) {
    case "ArrowRight": return from == null ? lo : clamp(from + perColumn * (shift ? 10 : 1));
    case "ArrowLeft": return from == null ? hi : clamp(from - perColumn * (shift ? 10 : 1));
    case "PageDown": return clamp((from ?? lo) + perColumn * 10);
    case "PageUp": return clamp((from ?? hi) - perColumn * 10);
    case "Home": return lo;
    case "End": return hi;
    case "Escape": return null;
    default: return undefined;
  }
}

function lowerBound(t: ArrayLike<number>, v: number): number {
  let a = 0;
  let b = t.length;
  while (a < b) {
    const m = (a + b) >> 1;
    if (t[m] < v) a = m + 1;
    else b = m;
  }
  return a;
}
