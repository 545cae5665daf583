import { render, screen } from "@testing-library/react";
import { toApiError } from "../api/errors";
import { fieldErrorMap, uniqueFieldErrors } from "../api/fieldErrors";
import { ErrorBox } from "../../components/States";
import { crossFieldErrors } from "../../features/scenarios/editor/checks";
import { NEW_SCENARIO } from "../../features/scenarios/editor/model";
import { humanMessage } from "./messages";

// 422 details as the API sends them (backend/app/api/errors.py keeps type and ctx)
const detail = [
  { loc: ["body", "scenario", "duration_us"], msg: "Input should be greater than 0", type: "greater_than", ctx: { gt: "0" } },
  { loc: ["body", "scenario", "duration_us"], msg: "must be > 0", type: "simulator" },
  { loc: ["body", "scenario", "switch", "ecn", "kmin_bytes"], msg: "must be <= kmax_bytes (80000)", type: "value_error" },
  { loc: ["body", "scenario", "topology", "links", 0, "rate_gbps"], msg: "Input should be less than or equal to 1600", type: "less_than_equal", ctx: { le: "1600.0" } },
];

describe("validation messages in the field's words", () => {
  it("names the field, its unit and the allowed range instead of the library's text", () => {
    const map = fieldErrorMap(toApiError(422, { detail }));
    expect(map.duration_us).toBe("Duration must be more than 0 us (allowed: more than 0, up to 10,000,000 us)");
    expect(map["switch.ecn.kmin_bytes"]).toBe("ECN Kmin must not exceed ECN Kmax (80,000 bytes)");
    expect(map["topology.links.0.rate_gbps"]).toBe("Link rate must be at most 1,600 Gbit/s (allowed: 0.01 to 1,600 Gbit/s)");
    for (const m of Object.values(map)) expect(m).not.toMatch(/Input should|kmax_bytes|_us\b/);
  });

  it("lists each field once in the Could-not-start banner", () => {
    const err = toApiError(422, { detail });
    expect(uniqueFieldErrors(err.fields).map((f) => f.path)).toEqual(["duration_us", "switch.ecn.kmin_bytes", "topology.links.0.rate_gbps"]);
    render(<ErrorBox error={err} title="Could not start" />);
    const items = screen.getAllByRole("listitem").map((li) => li.textContent);
    expect(items).toHaveLength(3);
    expect(new Set(items).size).toBe(3);
    expect(screen.getByRole("alert").textContent!.match(/Duration must be/g)).toHaveLength(1);
  });

  it("words a too-large generated fabric", () => {
    expect(humanMessage({ path: "topology", message: "expands to 33344 nodes (at most 20000)", type: "value_error" }))
      .toBe("The fabric would have 33,344 nodes (at most 20,000)");
  });
});

describe("cross-field checks the editor makes itself", () => {
  it("keeps Kmin > Kmax while another field is invalid (the API skips it then)", () => {
    const doc = { ...NEW_SCENARIO, duration_us: -5, switch: { ecn: { kmin_bytes: 90_000, kmax_bytes: 80_000 } } };
    expect(crossFieldErrors(doc)).toEqual({ "switch.ecn.kmin_bytes": "ECN Kmin must not exceed ECN Kmax (80,000 bytes)" });
    expect(crossFieldErrors({ ...doc, switch: { ecn: { kmin_bytes: 500_000 } } })["switch.ecn.kmin_bytes"]).toMatch(/400,000 bytes/);
    expect(crossFieldErrors({ ...doc, switch: { ecn: { kmin_bytes: 5_000, kmax_bytes: 5_500 } } })).toEqual({});
  });

  it("checks overrides against the fabric-wide value and the warm-up against the duration", () => {
    const doc = { ...NEW_SCENARIO, switch: { ecn: { kmin_bytes: 10_000, kmax_bytes: 50_000 } }, switch_overrides: { leaf0: { ecn: { kmin_bytes: 60_000 } } }, warmup_us: 3000, duration_us: 2000 };
    expect(crossFieldErrors(doc)).toEqual({
      "switch_overrides.leaf0.ecn.kmin_bytes": "ECN Kmin must not exceed ECN Kmax (50,000 bytes)",
      warmup_us: "Warm-up must be below the duration (2,000 us)",
    });
  });
});

describe("issue 22 §4: a name too long, a Kmin out of range", () => {
  it("says the name's limit in words", () => {
    const map = fieldErrorMap(toApiError(422, { detail: [
      { loc: ["body", "scenario", "name"], msg: "String should have at most 200 characters", type: "string_too_long", ctx: { max_length: "200" } },
      { loc: ["body", "scenario", "switch", "ecn", "kmin_bytes"], msg: "Input should be less than or equal to 1000000000", type: "less_than_equal", ctx: { le: "1000000000" } },
    ] }));
    expect(map.name).toBe("Name must be at most 200 characters");
    expect(map["switch.ecn.kmin_bytes"]).toBe("ECN Kmin must be at most 1,000,000,000 bytes (allowed: 0 to 1,000,000,000 bytes)");
  });
});
