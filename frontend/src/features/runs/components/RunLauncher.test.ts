import { parseSeeds } from "./RunLauncher";
import { etaSeconds } from "../api/runs";

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
