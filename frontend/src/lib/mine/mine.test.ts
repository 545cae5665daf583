import { exportMine, importMine, loadMine, parseMine, rememberRun, rememberScenario } from "./mine";

describe("my scenarios (this browser's list)", () => {
  beforeEach(() => window.localStorage.clear());

  it("keeps what this browser saved and ran, newest first, with owner tokens", () => {
    rememberScenario({ id: "a1", name: "first", owner_token: "tok-a", created_at: "2026-01-01T00:00:00Z" });
    rememberScenario({ id: "b2", name: "second", owner_token: "tok-b", created_at: "2026-01-02T00:00:00Z" });
    rememberRun("r1", "b2");
    const m = loadMine();
    expect(m.scenarios.map((s) => s.id)).toEqual(["b2", "a1"]);
    expect(m.scenarios[0].owner_token).toBe("tok-b");
    expect(m.runs).toMatchObject([{ id: "r1", scenario_id: "b2" }]);
  });

  it("exports and imports the list into another browser without duplicates", () => {
    rememberScenario({ id: "a1", name: "first", owner_token: "tok-a", created_at: "2026-01-01T00:00:00Z" });
    rememberRun("r1", "a1");
    const file = exportMine();
    window.localStorage.clear();
    rememberScenario({ id: "z9", name: "here", created_at: "2026-02-01T00:00:00Z" });
    expect(importMine(file)).toEqual({ scenarios: 1, runs: 1 });
    expect(importMine(file)).toEqual({ scenarios: 0, runs: 0 });
    expect(loadMine().scenarios.map((s) => s.id)).toEqual(["z9", "a1"]);
  });

  it("refuses files that are not a list, and drops malformed ids", () => {
    expect(() => parseMine("nope")).toThrow("not a JSON file");
    expect(() => parseMine('{"scenarios": []}')).toThrow(/fabrictwin-mine/);
    const m = parseMine(JSON.stringify({ format: "fabrictwin-mine", version: 1, scenarios: [{ id: "../x", name: "bad" }, { id: "ok1", name: "good" }], runs: [] }));
    expect(m.scenarios.map((s) => s.id)).toEqual(["ok1"]);
  });
});
