import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { fireEvent, render, screen } from "@testing-library/react";
import type { RunPublic } from "../api/runs";
import { RunLauncher } from "./RunLauncher";
import { RunProgress } from "./RunProgress";

// Issue 36: the run form offers the flow-level engine; a flow run asks for no threads.
describe("the engine choice", () => {
  it("runs at packet level by default and passes the flow engine when chosen", () => {
    const onRun = vi.fn();
    render(<RunLauncher busy={false} onRun={onRun} maxThreads={4} />);
    const engine = screen.getByRole("combobox", { name: "Engine" });
    expect(engine).toHaveValue("packet");
    fireEvent.change(screen.getByRole("spinbutton", { name: /Threads/ }), { target: { value: "2" } });
    fireEvent.click(screen.getByRole("button", { name: "Run" }));
    expect(onRun).toHaveBeenLastCalledWith([1], 2);
    fireEvent.change(engine, { target: { value: "flow" } });
    expect(screen.getByRole("spinbutton", { name: /Threads/ })).toBeDisabled();
    fireEvent.click(screen.getByRole("button", { name: "Run" }));
    expect(onRun).toHaveBeenLastCalledWith([1], undefined, "flow");
  });
});

describe("the run page's engine", () => {
  const run = (engine: "packet" | "flow"): RunPublic => ({
    id: "r1", scenario_id: "s1", seed: 1, status: "RUNNING", progress: 0.5, sim_time_ns: 50_000, duration_ns: 100_000,
    events: 1000, wall_s: 0.1, attempts: 1, error: null, created_at: "2026-11-29T09:21:33Z", started_at: null,
    finished_at: null, cached: false, threads: 1, partitions: null, engine, summary: null,
  });

  it("says which engine runs it", () => {
    const client = new QueryClient();
    const { rerender } = render(<QueryClientProvider client={client}><RunProgress run={run("flow")} /></QueryClientProvider>);
    expect(screen.getByTestId("run-engine")).toHaveTextContent("flow-level engine");
    expect(screen.queryByTestId("run-threads")).toBeNull();
    rerender(<QueryClientProvider client={client}><RunProgress run={run("packet")} /></QueryClientProvider>);
    expect(screen.getByTestId("run-engine")).toHaveTextContent("packet level");
    expect(screen.getByTestId("run-threads")).toHaveTextContent("1 thread");
  });
});
