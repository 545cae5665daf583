// Issue 37, section 4: a run that has not reported yet says "starting", not "simulated 0 / 0 us";
// only the run's owner is offered "Cancel run", anyone else a plain reason and a fork.
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { render, screen } from "@testing-library/react";
import { MemoryRouter } from "react-router";
import type { RunPublic } from "../api/runs";
import { RunProgress } from "./RunProgress";

const run = (over: Partial<RunPublic>): RunPublic => ({
  id: "r1", scenario_id: "s1", seed: 1, status: "RUNNING", progress: 0, sim_time_ns: 0, duration_ns: 0,
  events: 0, wall_s: 0, attempts: 1, error: null, created_at: "2026-11-29T09:21:33Z", started_at: null,
  finished_at: null, cached: false, threads: 1, partitions: null, engine: "packet", summary: null, ...over,
});

/** The access answer already in the cache (GET /runs/{id}/access), as the page would have it. */
function clientWith(access?: { may_change: boolean; reason: string }) {
  const qc = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  if (access) qc.setQueryData(["run-access", "r1"], access);
  return qc;
}

const show = (r: RunPublic, qc = clientWith({ may_change: true, reason: "" })) => render(
  <QueryClientProvider client={qc}>
    <MemoryRouter><RunProgress run={r} /></MemoryRouter>
  </QueryClientProvider>,
);



describe("a run before its first report", () => {
  it("says starting, and what it waits for", () => {
    const { unmount } = show(run({ status: "PENDING" }));
    expect(screen.getByTestId("run-starting")).toHaveTextContent("starting: waiting for a simulator worker");
    expect(screen.queryByText(/simulated 0 \/ 0 us/)).toBeNull();
    unmount();
    show(run({ status: "RUNNING" }));
    expect(screen.getByTestId("run-starting")).toHaveTextContent("starting: the simulator is reading the scenario");
  });
  it("then says how far it got", () => {
    show(run({ status: "RUNNING", progress: 0.25, sim_time_ns: 500_000, duration_ns: 2_000_000 }));
    expect(screen.queryByTestId("run-starting")).toBeNull();
    expect(screen.getByText(/simulated 500 \/ 2,000 us/)).toBeInTheDocument();
  });
});

describe("who may cancel", () => {
  it("offers Cancel run to its owner", async () => {
    show(run({ status: "RUNNING", progress: 0.1, sim_time_ns: 100_000, duration_ns: 1_000_000 }));
    expect(await screen.findByRole("button", { name: "Cancel run" })).toBeInTheDocument();
    expect(screen.queryByTestId("not-yours")).toBeNull();
  });
  it("tells anyone else why not and offers a fork, without naming a header", async () => {
    show(run({ status: "RUNNING", progress: 0.1, sim_time_ns: 100_000, duration_ns: 1_000_000 }),
      clientWith({ may_change: false, reason: "Someone else started this run: only they can cancel it." }));
    expect(await screen.findByTestId("not-yours")).toHaveTextContent("Someone else started this run: only they can cancel it.");
    expect(screen.getByRole("link", { name: "Fork with these settings" })).toHaveAttribute("href", "/editor?from=s1");
    expect(screen.queryByRole("button", { name: "Cancel run" })).toBeNull();
  });
  it("offers nothing until it knows, and asks nothing for a run that has ended", () => {
    const unknown = clientWith();
    const { unmount } = show(run({ status: "RUNNING", progress: 0.1, sim_time_ns: 100_000, duration_ns: 1_000_000 }), unknown);
    expect(screen.queryByRole("button", { name: "Cancel run" })).toBeNull();
    unmount();
    const ended = clientWith();
    show(run({ status: "SUCCEEDED", progress: 1, sim_time_ns: 1_000_000, duration_ns: 1_000_000 }), ended);
    expect(ended.getQueryCache().find({ queryKey: ["run-access", "r1"] })?.state.fetchStatus ?? "idle").toBe("idle");
    expect(screen.queryByRole("button", { name: "Cancel run" })).toBeNull();
  });
});
