import { ApiError, toApiError } from "./errors";
import { fieldErrorMap } from "./fieldErrors";

describe("API errors", () => {
  it("turns a 422 into field paths inside the scenario document", () => {
    const err = toApiError(422, {
      detail: [
        { loc: ["body", "scenario", "switch", "ecn", "kmin_bytes"], msg: "must be <= kmax_bytes (400000)", type: "value_error" },
        { loc: ["body", "scenario", "traffic", 0, "senders", 0], msg: "unknown host 'h9'", type: "value_error" },
      ],
    });
    expect(err).toBeInstanceOf(ApiError);
    expect(err.status).toBe(422);
    expect(err.message).toBe("switch.ecn.kmin_bytes: must be <= kmax_bytes (400000)");
    // in the field's words (lib/glossary/messages.ts)
    expect(fieldErrorMap(err)).toEqual({
      "switch.ecn.kmin_bytes": "ECN Kmin must not exceed ECN Kmax (400,000 bytes)",
      "traffic.0.senders.0": "Senders: unknown host 'h9'",
    });
  });
  it("keeps plain messages (404, 409)", () => {
    expect(toApiError(409, { detail: "run already final" }).message).toBe("run already final");
    expect(toApiError(500, null).message).toBe("Request failed (HTTP 500)");
    expect(fieldErrorMap(new Error("x"))).toEqual({});
  });
});
