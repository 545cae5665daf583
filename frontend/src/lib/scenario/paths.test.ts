import { describe, expect, it } from "vitest";
import { shortParamPath } from "./paths";

describe("shortParamPath", () => {
  it("keeps a list index with its list", () => {
    expect(shortParamPath("traffic.0.message_bytes")).toBe("traffic[0].message_bytes");
    expect(shortParamPath("faults.2.at_us")).toBe("faults[2].at_us");
  });
  it("keeps the last two names of a plain path", () => {
    expect(shortParamPath("switch.ecn.kmin_bytes")).toBe("ecn.kmin_bytes");
    expect(shortParamPath("seed")).toBe("seed");
    expect(shortParamPath("topology.length_km")).toBe("topology.length_km");
  });
});
