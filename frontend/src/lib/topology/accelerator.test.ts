import { ACCELERATOR_BADGE, acceleratorBadges } from "./accelerator";

describe("acceleratorBadges", () => {
  it("marks both DCI edges when the accelerator is on", () => {
    const b = acceleratorBadges({ kind: "dci", length_km: 100, accelerator: { enabled: true } });
    expect([...b.keys()]).toEqual(["a-dci", "b-dci"]);
    expect(b.get("a-dci")).toBe(ACCELERATOR_BADGE);
  });

  it("marks nothing when it is off, absent, or the fabric is not a DCI", () => {
    expect(acceleratorBadges({ kind: "dci", accelerator: { enabled: false } }).size).toBe(0);
    expect(acceleratorBadges({ kind: "dci" }).size).toBe(0);
    expect(acceleratorBadges({ kind: "leaf_spine", accelerator: { enabled: true } }).size).toBe(0);
    expect(acceleratorBadges(undefined).size).toBe(0);
  });
});
