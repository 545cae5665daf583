// Issue 22 §2: a scenario's history (read by its id) offers its family's runs to compare with.
import { render, screen, within } from "@testing-library/react";
import { MemoryRouter } from "react-router";
import { familyRuns, parentLatest, rememberedMissing, withRuns, type ScenarioHistory } from "./history";
import { HistoryPanel } from "../../features/scenarios/components/HistoryPanel";

const run = (id: string, scenario_id: string, status = "SUCCEEDED", seed = 1, created_at = "2026-01-01T00:00:00Z") =>
  ({ id, scenario_id, seed, status, created_at, progress: 1, sim_time_ns: 0, duration_ns: 0, events: 0, wall_s: 0, attempts: 1, error: null, started_at: null }) as unknown as ScenarioHistory["runs"][number];

const history = {
  scenario_id: "fork1",
  parent: { id: "base", name: "incast-2to1", parent_id: null, preset_key: "incast-2to1", created_at: "2026-01-01T00:00:00Z" },
  runs: [run("r-mine", "fork1"), run("r-failed", "fork1", "FAILED")],
  parent_runs: [run("r-parent-new", "base", "SUCCEEDED", 2, "2026-01-03T00:00:00Z"), run("r-parent-old", "base", "SUCCEEDED", 1, "2026-01-02T00:00:00Z")],
  sweeps: [{ id: "sw1", scenario_id: "fork1", status: "SUCCEEDED", total: 4, done: 4, failed: 0, created_at: "2026-01-04T00:00:00Z" }],
  tunings: [{ id: "tu1", name: "my tuning", scenario_ids: ["fork1"], status: "SUCCEEDED", error: null, strategies: [{ strategy: "grid" }, { strategy: "vendor" }], created_at: "2026-01-05T00:00:00Z" }],
  forks: [{ id: "kid", name: "deeper edit", parent_id: "fork1", preset_key: null, created_at: "2026-01-06T00:00:00Z" }],
  fork_runs: [run("r-kid", "kid")],
} as unknown as ScenarioHistory;

describe("a scenario's family of runs", () => {
  it("lists finished runs: its own, then its parent's, then its forks', each saying whose", () => {
    const f = familyRuns(history);
    expect(f.map((r) => r.id)).toEqual(["r-mine", "r-parent-new", "r-parent-old", "r-kid"]);
    expect(f.map((r) => r.relation)).toEqual(["this", "parent", "parent", "fork"]);
    expect(f[1].label).toMatch(/^parent \(incast-2to1\) · seed 2/);
    expect(f[3].label).toMatch(/^fork \(deeper edit\)/);
  });
  it("offers the parent's latest run first, and none without a parent", () => {
    expect(parentLatest(history)?.id).toBe("r-parent-new");
    expect(parentLatest({ ...history, parent: null, parent_runs: [] })).toBeUndefined();
    expect(familyRuns(undefined)).toEqual([]);
  });
});

describe("runs this browser started that the history leaves out", () => {
  // a preset's history lists the caller's own runs only, and a run the cache handed out is its
  // first creator's: the browser that was given its id still sees it (docs/security.md)
  const mine = [
    { id: "r-cached", scenario_id: "base", created_at: "2026-01-07T00:00:00Z" },
    { id: "r-mine", scenario_id: "fork1", created_at: "2026-01-01T00:00:00Z" },
    { id: "r-elsewhere", scenario_id: "other", created_at: "2026-01-01T00:00:00Z" },
    { id: "r-kid2", scenario_id: "kid", created_at: "2026-01-08T00:00:00Z" },
  ];
  it("asks for the family's remembered runs not listed, and no other", () => {
    expect(rememberedMissing(history, mine)).toEqual(["r-cached", "r-kid2"]);
  });
  it("puts them in their lists, newest first, so the parent's latest is the remembered one", () => {
    const h = withRuns(history, [run("r-cached", "base", "SUCCEEDED", 1, "2026-01-07T00:00:00Z"), run("r-kid2", "kid", "SUCCEEDED", 1, "2026-01-08T00:00:00Z")]);
    expect(h.parent_runs.map((r) => r.id)).toEqual(["r-cached", "r-parent-new", "r-parent-old"]);
    expect(h.fork_runs.map((r) => r.id)).toEqual(["r-kid2", "r-kid"]);
    expect(h.runs.map((r) => r.id)).toEqual(["r-mine", "r-failed"]);
    expect(parentLatest(h)?.id).toBe("r-cached");
    expect(withRuns(history, [])).toBe(history);
  });
});

describe("the scenario page's history panel", () => {
  it("links every run, sweep, tuning and fork", () => {
    render(<MemoryRouter><HistoryPanel history={history} /></MemoryRouter>);
    const panel = screen.getByTestId("scenario-history");
    expect(within(panel).getByRole("link", { name: "incast-2to1" })).toHaveAttribute("href", "/s/base");
    expect(within(panel).getByRole("heading", { name: "Runs (2)" })).toBeInTheDocument();
    expect(within(panel).getByRole("link", { name: "4 points" })).toHaveAttribute("href", "/sweeps/sw1");
    expect(within(panel).getByRole("link", { name: "my tuning" })).toHaveAttribute("href", "/tunings/tu1");
    expect(within(panel).getByText(/grid, vendor/)).toBeInTheDocument();
    expect(within(panel).getByRole("link", { name: "deeper edit" })).toHaveAttribute("href", "/s/kid");
  });
});
