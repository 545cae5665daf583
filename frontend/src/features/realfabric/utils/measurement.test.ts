import { decadeTicks, formatRatio, formatSize, guessKind, logDomains } from "./measurement";

describe("guessKind", () => {
  it("reads NCCL-tests' header line and perftest's title", () => {
    expect(guessKind("# nThread 1 nGpus 8 minBytes 8 maxBytes 134217728 step: 2(factor)\n")).toBe("nccl_tests");
    expect(guessKind("------\n                    RDMA_Write BW Test\n Dual-port : OFF\n")).toBe("perftest");
    expect(guessKind("                    Send Latency Test\n")).toBe("perftest");
    expect(guessKind("hello")).toBeNull();
  });
});

describe("formatSize", () => {
  it("writes sizes in binary units as NCCL-tests' -b and -e do", () => {
    expect(formatSize(8)).toBe("8 B");
    expect(formatSize(65536)).toBe("64 KiB");
    expect(formatSize(134217728)).toBe("128 MiB");
    expect(formatSize(1000)).toBe("1000 B");
  });
});

describe("formatRatio", () => {
  it("shows the ratio and the percentage difference", () => {
    expect(formatRatio(0.82)).toBe("0.82 × (−18 %)");
    expect(formatRatio(1.25)).toBe("1.25 × (+25 %)");
    expect(formatRatio(1)).toBe("1.00 × (±0 %)");
    expect(formatRatio(null)).toBe("—");
  });
});

describe("logDomains", () => {
  it("spans both series and pads the values half a decade", () => {
    const d = logDomains([[{ size: 8, value: 0.01 }, { size: 1024, value: 40 }], [{ size: 8, value: 0.02 }, { size: 4096, value: 80 }]]);
    expect(d!.x).toEqual([8, 4096]);
    expect(d!.y[0]).toBeCloseTo(0.01 / Math.SQRT2);
    expect(d!.y[1]).toBeCloseTo(80 * Math.SQRT2);
    expect(logDomains([[{ size: 8, value: 0 }]])).toBeNull();
    expect(logDomains([[{ size: 64, value: 3 }]])!.x).toEqual([32, 128]);
  });
  it("labels decades", () => {
    expect(decadeTicks([0.5, 2000])).toEqual([1, 10, 100, 1000]);
  });
});
