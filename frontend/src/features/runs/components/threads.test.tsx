import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { fireEvent, render, screen } from "@testing-library/react";
import type { RunPublic } from "../api/runs";
import { RunLauncher, readThreads, threadsLabel } from "./RunLauncher";
import { RunProgress } from "./RunProgress";

// Issue 19 §2: the run form offers the simulator threads (empty: auto, else 1 to the instance's
// maximum), and the run page says what the run used.
describe("the threads box", () => {
  it("reads empty as auto and names the range otherwise", () => {
    expect(readThreads("", 8)).toEqual({ threads: undefined });
    expect(readThreads(" 4 ", 8)).toEqual({ threads: 4 });
    expect(readThreads("8", 8)).toEqual({ threads: 8 });
    for (const bad of ["0", "9", "2.5", "-1", "x"]) {
      expect(readThreads(bad, 8)).toEqual({ error: `Threads: ${bad} is not a whole number from 1 to 8; leave it empty for auto (chosen from the fabric's size)` });
    }
    expect(readThreads("64")).toEqual({ threads: 64 }); // the limit not loaded yet: the API checks it
  });

  it("sends the threads asked for, none for auto, and blocks Run on a bad value", () => {
    const onRun = vi.fn();
    render(<RunLauncher busy={false} onRun={onRun} maxThreads={4} />);
    const box = screen.getByRole("spinbutton", { name: /Threads/ });
    expect(box).toHaveAttribute("placeholder", "auto");
    expect(box).toHaveAttribute("max", "4");
    fireEvent.click(screen.getByRole("button", { name: "Run" }));
    expect(onRun).toHaveBeenLastCalledWith([1], undefined);
    fireEvent.change(box, { target: { value: "5" } });
    expect(screen.getByRole("button", { name: "Run" })).toBeDisabled();
    expect(screen.getByRole("alert")).toHaveTextContent("Threads: 5 is not a whole number from 1 to 4");
    expect(box).toHaveAccessibleDescription(/from 1 to 4/);
    fireEvent.change(box, { target: { value: "2" } });
    expect(screen.queryByRole("alert")).toBeNull();
    fireEvent.click(screen.getByRole("button", { name: "Run" }));
    expect(onRun).toHaveBeenLastCalledWith([1], 2);
  });

  it("labels what a run used", () => {
    expect(threadsLabel({ threads: 2, partitions: 2 })).toBe("2 threads, 2 partitions");
    expect(threadsLabel({ threads: 4, partitions: 1 })).toBe("4 threads, 1 partition");
    expect(threadsLabel({ threads: 1, partitions: null })).toBe("1 thread");
    expect(threadsLabel({})).toBe("1 thread");
  });
});

describe("the run page's threads and partitions", () => {
  const run = (over: Partial<RunPublic>): RunPublic => ({
    id: "r1", scenario_id: "s1", seed: 1, status: "SUCCEEDED", progress: 1, sim_time_ns: 100_000, duration_ns: 100_000,
    events: 1_867_401, wall_s: 0.83, attempts: 1, error: null, created_at: "2026-11-27T09:21:33Z", started_at: null,
    finished_at: null, cached: false, threads: 2, partitions: 54, engine: "packet", summary: null, ...over,
  });
  const show = (r: RunPublic) => render(
    <QueryClientProvider client={new QueryClient()}><RunProgress run={r} /></QueryClientProvider>,
  );

  it("explains a run cut into more partitions than threads (a large fabric: docs/model.md)", () => {
    show(run({}));
    const term = screen.getByRole("button", { name: "2 threads, 54 partitions" });
    expect(term).toHaveAttribute("data-term", "term.partitions");
    fireEvent.click(term);
    expect(screen.getByRole("tooltip")).toHaveTextContent(/about 384 ports even on one thread/);
    expect(screen.getByRole("tooltip")).toHaveTextContent(/same bytes for any count/);
  });

  it("says only the threads while the run has no partitions yet", () => {
    show(run({ status: "RUNNING", progress: 0.5, partitions: null }));
    expect(screen.getByTestId("run-threads")).toHaveTextContent("2 threads");
    expect(screen.queryByRole("button", { name: /threads/ })).toBeNull();
  });
});
