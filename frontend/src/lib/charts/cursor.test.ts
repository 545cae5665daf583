import { cursorAfterKey, nearestIndex, visibleRange } from "./cursor";

const t = [0, 10, 20, 30, 40, 50, 60, 70, 80, 90];

describe("chart cursor", () => {
  it("finds the samples in view and the nearest sample", () => {
    expect(visibleRange(t, [15, 62])).toEqual([2, 6]);
    expect(visibleRange(t, [20, 60])).toEqual([2, 6]);
    expect(visibleRange(t, [91, 95])).toEqual([10, 9]);
    expect(nearestIndex(t, 14)).toBe(1);
    expect(nearestIndex(t, 16)).toBe(2);
    expect(nearestIndex(t, -5)).toBe(0);
    expect(nearestIndex(t, 500)).toBe(9);
    expect(nearestIndex([], 1)).toBe(-1);
  });
  it("arrows step one pixel column: one sample when columns outnumber samples, several otherwise", () => {
    expect(cursorAfterKey("ArrowRight", false, null, [2, 6], 100)).toBe(2);
    expect(cursorAfterKey("ArrowLeft", false, null, [2, 6], 100)).toBe(6);
    expect(cursorAfterKey("ArrowRight", false, 3, [2, 6], 100)).toBe(4);
    // 10,000 samples on 500 columns: 20 samples a column
    expect(cursorAfterKey("ArrowRight", false, 100, [0, 9999], 500)).toBe(120);
    expect(cursorAfterKey("ArrowRight", true, 100, [0, 9999], 500)).toBe(300);
    expect(cursorAfterKey("PageUp", false, 100, [0, 9999], 500)).toBe(0);
  });
  it("stays inside the view, jumps to its ends, Escape clears, other keys are not the chart's", () => {
    expect(cursorAfterKey("ArrowRight", false, 6, [2, 6], 100)).toBe(6);
    expect(cursorAfterKey("ArrowLeft", false, 2, [2, 6], 100)).toBe(2);
    expect(cursorAfterKey("Home", false, 4, [2, 6], 100)).toBe(2);
    expect(cursorAfterKey("End", false, 4, [2, 6], 100)).toBe(6);
    // a cursor left outside after a zoom starts again from the view's edge
    expect(cursorAfterKey("ArrowRight", false, 9, [2, 6], 100)).toBe(2);
    expect(cursorAfterKey("Escape", false, 4, [2, 6], 100)).toBeNull();
    expect(cursorAfterKey("a", false, 4, [2, 6], 100)).toBeUndefined();
    expect(cursorAfterKey("Home", false, null, [10, 9], 100)).toBeUndefined();
  });
});
