import { exportMine, importMine, loadMine, MAX_TOKENS, ownerTokens, parseMine, rememberRun, rememberScenario, rememberToken } from "./localWork";

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

describe("owner tokens of this browser", () => {
  beforeEach(() => window.localStorage.clear());

  it("sends its own token first, then scenarios' tokens, each once, at most MAX_TOKENS", () => {
    const t = (c: string) => c.repeat(32);
    rememberToken(t("a"));
    rememberScenario({ id: "s1", name: "one", owner_token: t("a"), created_at: "2026-01-01T00:00:00Z" });
    rememberScenario({ id: "s2", name: "two", owner_token: t("b"), created_at: "2026-01-02T00:00:00Z" });
    rememberToken(t("b"));
    rememberToken("not a token");
    expect(ownerTokens()).toEqual([t("a"), t("b")]);
    for (let i = 0; i < 40; i++) rememberToken(`tok${String(i).padStart(2, "0")}`.padEnd(32, "x"));
    expect(ownerTokens()).toHaveLength(MAX_TOKENS);
    expect(ownerTokens()[0]).toBe(t("a"));
  });

  it("carries the tokens through export and import", () => {
    rememberToken("k".repeat(32));
    const file = exportMine();
    window.localStorage.clear();
    rememberToken("h".repeat(32));
    importMine(file);
    expect(ownerTokens()).toEqual(["h".repeat(32), "k".repeat(32)]);
  });
});

describe("my recent work (issue 22 §2: find a tuning again from Home)", () => {
  beforeEach(() => window.localStorage.clear());
  it("keeps runs, sweeps and tunings, newest first, and moves them with the exported list", async () => {
    const { rememberWork, recentWork } = await import("./localWork");
    rememberRun("r1", "s1");
    rememberWork("sweeps", { id: "sw1", scenario_id: "s1", name: "Sweep of x", created_at: "2999-01-01T00:00:00Z" });
    rememberWork("tunings", { id: "tu1", scenario_id: "s1", name: "Tuning of x", created_at: "3000-01-01T00:00:00Z" });
    expect(recentWork(loadMine()).map((w) => `${w.kind}:${w.id}`)).toEqual(["tuning:tu1", "sweep:sw1", "run:r1"]);
    const file = exportMine();
    window.localStorage.clear();
    importMine(file);
    expect(loadMine().tunings?.map((t) => t.id)).toEqual(["tu1"]);
    expect(loadMine().sweeps?.map((t) => t.name)).toEqual(["Sweep of x"]);
  });
});
