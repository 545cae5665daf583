import { collectiveJobNames } from "./jobs";

describe("collectiveJobNames", () => {
  it("names jobs as the simulator does: job, else the generator's name, else job<index>", () => {
    const doc = { traffic: [
      { kind: "flows", flows: [] },
      { kind: "collective", job: "A", name: "first" },
      { kind: "collective", job: "", name: "second" },
      { kind: "collective", job: "", name: "" },
    ] };
    expect(collectiveJobNames(doc)).toEqual(["A", "second", "job3"]);
    expect(collectiveJobNames({ traffic: [{ kind: "incast" }] })).toEqual([]);
    expect(collectiveJobNames(undefined)).toEqual([]);
  });
});
