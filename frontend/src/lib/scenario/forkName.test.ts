// Issue 37: a fork that kept its original's name is named by what changed, so a comparison shows
// two names; the API's name limit (generated LIMITS) is never passed.
import { forkName } from "./forkName";
import { LIMITS } from "./contract.gen";
import { NEW_SCENARIO } from "../../features/scenarios/editor/model";
import type { Scenario } from "./types";

const base: Scenario = { ...NEW_SCENARIO, name: "2-to-1 incast", switch: { ecn: { kmin_bytes: 5000, kmax_bytes: 5500 } } };

describe("a fork's name", () => {
  it("adds what changed to the original's name", () => {
    const kmax = { ...base, switch: { ecn: { kmin_bytes: 5000, kmax_bytes: 200000 } } };
    expect(forkName(base.name!, base, kmax)).toBe("2-to-1 incast · ECN Kmax 200,000");
    const three = { ...kmax, duration_us: 5000, nic: { rto_us: 500 } };
    expect(forkName(base.name!, base, three)).toMatch(/^2-to-1 incast · .+, .+ \+1 more$/);
  });
  it("says copy when nothing changed, and stays within the API's limit", () => {
    expect(forkName(base.name!, base, base)).toBe("2-to-1 incast (copy)");
    const long = "x".repeat(LIMITS.MAX_NAME_CHARS);
    const name = forkName(long, { ...base, name: long }, { ...base, name: long, duration_us: 5000 });
    expect(name.length).toBeLessThanOrEqual(LIMITS.MAX_NAME_CHARS);
    expect(name).toMatch(/ · .*5,000$/);
  });
});
