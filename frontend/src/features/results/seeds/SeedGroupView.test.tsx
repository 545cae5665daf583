import { render, screen, within } from "@testing-library/react";
import { MemoryRouter } from "react-router";
import type { ComparedRun } from "../api/compare";
import type { ResultSummary } from "../../../lib/api/resultTypes";
import { SeedGroupView } from "./SeedGroupView";

const t = [0, 10, 20, 30];
function seedRun(seed: number, throughput: number, peak: number, scenario = "sc1"): ComparedRun {
  return {
    id: `run-${seed}`, loading: false,
    run: { id: `run-${seed}`, scenario_id: scenario, seed, status: "SUCCEEDED" } as ComparedRun["run"],
    scenario: { name: "incast-2to1" },
    runInfo: { sim_time_ns: 30_000, warmup_ns: 0 },
    summary: {
      throughput_gbps: throughput, max_queue_bytes: peak, max_queue_bytes_whole_run: peak, ecn_marked_packets: 0, pfc_pauses_sent: 0,
      queues: [{ queue: "leaf0->h0", priority: 3, max_bytes: peak, max_bytes_whole_run: peak, mean_bytes: peak / 2, p99_bytes: peak }],
      link_utilization: [{ link: "leaf0->h0", utilization: 0.5, ecn_marked_packets: 0 }], pfc: [],
    } as unknown as ResultSummary,
    series: { interval_us: 10, t_us: t, queues: { "leaf0->h0": [0, peak, peak / 2, 0] }, flow_rates_gbps: {}, pause: {} },
    flows: [],
  };
}

describe("SeedGroupView", () => {
  it("shows each card as mean ± 95% CI and the queue with its band", () => {
    const { container } = render(<MemoryRouter><SeedGroupView runs={[seedRun(1, 90, 1000), seedRun(2, 92, 2000), seedRun(3, 97, 3000)]} /></MemoryRouter>);
    // throughput 90, 92, 97: 93 ± 8.957 (worked out in stats.test.ts)
    const cards = screen.getByTestId("group-cards");
    expect(within(cards).getByText("93 Gbit/s ± 8.957 Gbit/s")).toBeInTheDocument();
    expect(within(cards).getAllByText("mean ± 95% CI over 3 seeds").length).toBeGreaterThan(0);
    // max queue 1000, 2000, 3000 B: mean 2000, s = 1000, /sqrt(3) x 4.3027 = 2484 B
    const mq = container.querySelector('[data-metric="max_queue"] dd')!;
    expect(mq.textContent).toMatch(/^2(\.0)? KB ± 2\.48\d? KB$/);
    expect(container.querySelectorAll("#chart-queues path.series-band")).toHaveLength(1);
    expect(container.querySelector("#chart-queues path.series-line")!.getAttribute("data-series")).toBe("leaf0->h0");
    expect(within(container.querySelector("#table-ports") as HTMLElement).getByText(/leaf0->h0/)).toBeInTheDocument();
  });

  it("refuses runs of different scenarios with a reason", () => {
    render(<MemoryRouter><SeedGroupView runs={[seedRun(1, 90, 1000), seedRun(2, 92, 2000, "other")]} /></MemoryRouter>);
    expect(screen.getByRole("alert")).toHaveTextContent("different scenarios");
    expect(screen.queryByTestId("group-cards")).toBeNull();
  });
});

// Issue 22 §4: fat-tree-k4-websearch over seeds 1-5 showed two empty charts ("No queue was watched
// in every seed": each run watches its own deepest queues), and a "Max queue (after warm-up)" card
// repeating the whole-run value in a scenario with no warm-up.
describe("SeedGroupView with random traffic and no warm-up", () => {
  const withWatched = (r: ComparedRun, queue: string, flow: string): ComparedRun => ({
    ...r, series: { ...r.series!, queues: { [queue]: [0, 500, 250, 0] }, flow_rates_gbps: { [flow]: [1, 2, 3, 4] } },
  });

  it("bands the queues and flows the seeds watched even when no seed watched the same ones", () => {
    const runs = [
      withWatched(seedRun(1, 90, 1000), "edge0->h0", "3"), withWatched(seedRun(2, 92, 2000), "edge0->h0", "7"),
      withWatched(seedRun(3, 97, 3000), "agg1->edge2", "7"),
    ];
    const { container } = render(<MemoryRouter><SeedGroupView runs={runs} /></MemoryRouter>);
    const queueLines = [...container.querySelectorAll("#chart-queues path.series-line")].map((p) => p.getAttribute("data-series"));
    expect(queueLines).toEqual(["edge0->h0 (in 2 of 3 seeds)", "agg1->edge2 (in 1 of 3 seeds)"]); // most seeds first
    expect(container.querySelectorAll("#chart-rates path.series-line")).toHaveLength(2);
    expect(screen.queryByText(/No queue was watched/)).toBeNull();
  });

  it("drops the after-warm-up card and says 'whole run' when no seed has a warm-up", () => {
    const { container } = render(<MemoryRouter><SeedGroupView runs={[seedRun(1, 90, 1000), seedRun(2, 92, 2000)]} /></MemoryRouter>);
    const labels = [...container.querySelectorAll("[data-testid=group-cards] dt")].map((d) => d.textContent);
    expect(labels).toContain("Max queue (whole run)");
    expect(labels).not.toContain("Max queue (after warm-up)");
    expect(labels).toContain("Throughput (whole run, no warm-up)");
    expect(container.textContent).not.toMatch(/after warm-up|warm-up included/);
  });

  it("keeps both when the runs have a warm-up", () => {
    const warm = (r: ComparedRun): ComparedRun => ({ ...r, runInfo: { sim_time_ns: 30_000, warmup_ns: 10_000 } });
    const { container } = render(<MemoryRouter><SeedGroupView runs={[warm(seedRun(1, 90, 1000)), warm(seedRun(2, 92, 2000))]} /></MemoryRouter>);
    const labels = [...container.querySelectorAll("[data-testid=group-cards] dt")].map((d) => d.textContent);
    expect(labels).toEqual(expect.arrayContaining(["Throughput (after warm-up)", "Max queue (whole run)", "Max queue (after warm-up)"]));
  });
});
