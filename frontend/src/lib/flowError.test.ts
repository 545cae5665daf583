import { describe, expect, it } from "vitest";
import { type FlowError, errorBound, errorLegend, flowErrorText } from "./flowError";

const ring: FlowError = {
  kind: "collective_nonblocking",
  label: "collectives on non-blocking fabrics",
  applies: true,
  outside: [],
  figures: {
    jct_us: { max_abs_error: 0.0714, target: 0.05, cases: 7 },
    throughput_gbps: { max_abs_error: 0, target: null, cases: 1 },
  },
};

describe("flowErrorText", () => {
  it("says nothing for a packet-level run or a card without a figure", () => {
    expect(flowErrorText("JCT", null)).toBeNull();
    expect(flowErrorText("Jobs", ring)).toBeNull();
  });
  it("puts the measured error and its target beside the figure", () => {
    expect(flowErrorText("JCT", ring)).toBe(
      "flow-level estimate; within 7.1 % of packet level on collectives on non-blocking fabrics (7 scenarios; target 5.0 %)",
    );
    expect(flowErrorText("Throughput", ring)).toBe(
      "flow-level estimate; within 0.0 % of packet level on collectives on non-blocking fabrics (1 scenario)",
    );
  });
  it("says when the figure is not modelled or its error unmeasured", () => {
    expect(flowErrorText("Max queue", ring)).toMatch(/^not modelled at flow level/);
    expect(flowErrorText("Bus bandwidth", ring)).toMatch(/error not measured for this figure/);
    expect(flowErrorText("JCT", { ...ring, applies: false, outside: ["fault"] })).toBe(
      "flow-level estimate; its error is unmeasured with fault (what it leaves out, above)",
    );
  });
});

describe("the estimate's error bounds", () => {
  it("puts the measured error beside a figure, and says why there is none", () => {
    expect(errorBound("jct_us", ring)).toBe(" ±7.1 %");
    expect(errorBound("busbw_gbps", ring)).toBe("");
    expect(errorBound("jct_us", { ...ring, applies: false, outside: ["fault"] })).toBe("");
    expect(errorBound("jct_us", null)).toBe("");
    expect(errorLegend(ring)).toBe(
      "±: the largest error measured against the packet model on collectives on non-blocking fabrics (docs/validation-flow.md).",
    );
    expect(errorLegend({ ...ring, applies: false, outside: ["fault"] })).toMatch(
      /unmeasured for a scenario with fault/,
    );
  });
});
