import { describe, expect, it } from "vitest";
import { unmodelledReason } from "./flowModel";

describe("unmodelledReason", () => {
  it("names what the flow engine leaves out, overrides read as the field they override", () => {
    expect(unmodelledReason("switch.ecn.kmin_bytes")).toBe("ECN marking is not modelled (ecn)");
    expect(unmodelledReason("switch_overrides.leaf0.pfc.alpha")).toBe("PFC pauses are not modelled (pfc)");
    expect(unmodelledReason("nic_overrides.h1.cc.algorithm")).toMatch(/DCQCN.*\(congestion_control\)$/);
    expect(unmodelledReason("faults[0]")).toMatch(/\(fault\)$/);
  });
  it("is null for what it models", () => {
    for (const path of ["topology.spines", "traffic.0.message_bytes", "switch.ecnx", "nic.mtu_bytes", "seed"]) {
      expect(unmodelledReason(path)).toBeNull();
    }
  });
});
