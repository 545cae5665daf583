import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { throttle } from "./throttle";

describe("throttle", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it("runs the first call at once and folds a burst into one trailing call", () => {
    const fn = vi.fn();
    const call = throttle(fn, 1000);
    call();
    expect(fn).toHaveBeenCalledTimes(1);
    for (let i = 0; i < 20; i++) call(); // a burst of progress events
    expect(fn).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(999);
    expect(fn).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(1);
    expect(fn).toHaveBeenCalledTimes(2);
    vi.advanceTimersByTime(5000); // nothing more was asked for
    expect(fn).toHaveBeenCalledTimes(2);
  });

  it("runs at once again after a quiet window", () => {
    const fn = vi.fn();
    const call = throttle(fn, 1000);
    call();
    vi.advanceTimersByTime(1500);
    call();
    expect(fn).toHaveBeenCalledTimes(2);
  });

  it("cancel drops the pending trailing call", () => {
    const fn = vi.fn();
    const call = throttle(fn, 1000);
    call();
    call();
    call.cancel();
    vi.advanceTimersByTime(2000);
    expect(fn).toHaveBeenCalledTimes(1);
  });
});
