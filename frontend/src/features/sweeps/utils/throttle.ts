/**
 * Calls `fn` at most once per `ms`: the first call runs at once, calls within the window are
 * folded into one trailing call at its end. `cancel` drops a pending trailing call.
 */
export function throttle(fn: () => void, ms: number, now: () => number = Date.now) {
  let last = -Infinity;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const run = () => {
    timer = undefined;
    last = now();
    fn();
  };
  const call = () => {
    const wait = last + ms - now();
    if (wait <= 0 && timer === undefined) run();
    else if (timer === undefined) timer = setTimeout(run, wait);
  };
  call.cancel = () => {
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
  };
  return call;
}
