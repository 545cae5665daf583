import { parseValues } from "../../../lib/scenario/values";

describe("form parsers", () => {
  it("reads sweep values as lists or inclusive ranges", () => {
    expect(parseValues("0:5000:500")).toHaveLength(11);
    expect(parseValues("0:1:0.1")?.at(-1)).toBe(1);
    expect(parseValues("1, 10, dcqcn-paper")).toEqual([1, 10, "dcqcn-paper"]);
    expect(parseValues(" ")).toBeNull();
    expect(parseValues("5:1:1")).toBeNull();
  });
});
