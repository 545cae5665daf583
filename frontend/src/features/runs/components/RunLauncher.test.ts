import { parseSeeds } from "./RunLauncher";
import { etaFromSamples, etaSeconds } from "../api/runs";

describe("run launcher and progress", () => {
  it("parses seed lists and ranges", () => {
    expect(parseSeeds("1")).toEqual([1]);
    expect(parseSeeds("1, 2, 5-7, 2")).toEqual([1, 2, 5, 6, 7]);
    expect(parseSeeds("x")).toBeNull();
    expect(parseSeeds("")).toBeNull();
  });
  it("extrapolates the time left from progress and wall time", () => {
    expect(etaSeconds({ progress: 0.25, wall_s: 3 })).toBe(9);
    expect(etaSeconds({ progress: 0, wall_s: 3 })).toBeNull();
    expect(etaSeconds({ progress: 1, wall_s: 3 })).toBeNull();
  });
});

describe("the time left from the simulator's recent rate (issue 22 §4)", () => {
  it("uses the last seconds' rate, not the average since the start", () => {
    // fast at first (setup done, queues empty), then 1 % per second: 14 % at 12 s
    const samples = [{ wall_s: 1, progress: 0.05 }, { wall_s: 2, progress: 0.09 }, { wall_s: 7, progress: 0.09 + 0.01 * 0 }, { wall_s: 8, progress: 0.10 }, { wall_s: 12, progress: 0.14 }];
    expect(etaFromSamples(samples)).toBeCloseTo(86, 0); // 0.86 left at 0.01 per second (the last 5 s)
    expect(etaSeconds({ progress: 0.14, wall_s: 12 })).toBeLessThan(80); // the old estimate promised less
  });
  it("says nothing until two samples a second apart", () => {
    expect(etaFromSamples([{ wall_s: 1, progress: 0.1 }])).toBeNull();
    expect(etaFromSamples([{ wall_s: 1, progress: 0.1 }, { wall_s: 1.5, progress: 0.2 }])).toBeNull();
  });
});
