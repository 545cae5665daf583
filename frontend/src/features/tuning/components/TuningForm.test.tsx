import { fireEvent, render, screen, within } from "@testing-library/react";
import { ApiError } from "../../../lib/api/errors";
import { TuningForm } from "./TuningForm";

describe("the tuning form's objectives", () => {
  it("offers a collective job's JCT (min) and busbw (max) and sends them as metric objectives", () => {
    const onSubmit = vi.fn();
    render(<TuningForm scenarioId="s1" busy={false} error={null} onSubmit={onSubmit} />);
    const first = screen.getByLabelText("Objective");
    expect(within(first).getByRole("option", { name: "Job completion time (min)" })).toBeInTheDocument();
    fireEvent.change(first, { target: { value: "jct_us" } });
    fireEvent.change(screen.getByLabelText("Second objective (Pareto)"), { target: { value: "busbw_gbps" } });
    fireEvent.click(screen.getByRole("button", { name: "Start tuning" }));
    expect(onSubmit).toHaveBeenCalledTimes(1);
    expect(onSubmit.mock.calls[0][0].objectives).toEqual([{ kind: "metric", metric: "jct_us" }, { kind: "metric", metric: "busbw_gbps" }]);
  });

  it("picks the job of a JCT or busbw objective among the scenario's jobs and sends it", () => {
    const onSubmit = vi.fn();
    render(<TuningForm scenarioId="s1" jobs={["A", "B"]} busy={false} error={null} onSubmit={onSubmit} />);
    expect(screen.queryByLabelText("Job of the objective")).toBeNull(); // not for throughput
    fireEvent.change(screen.getByLabelText("Objective"), { target: { value: "jct_us" } });
    const job = screen.getByLabelText("Job of the objective");
    expect(within(job).getAllByRole("option").map((o) => o.textContent)).toEqual(["A", "B"]);
    fireEvent.change(job, { target: { value: "B" } });
    fireEvent.change(screen.getByLabelText("Second objective (Pareto)"), { target: { value: "busbw_gbps" } });
    fireEvent.click(screen.getByRole("button", { name: "Start tuning" }));
    expect(onSubmit.mock.calls[0][0].objectives).toEqual([
      { kind: "metric", metric: "jct_us", job: "B" }, { kind: "metric", metric: "busbw_gbps", job: "A" }]);
  });

  it("says when the scenario has no job to read and shows the API's error at the job field", () => {
    const error = new ApiError(422, "refused", [{ path: "objectives.0.job", message: '"C" is not a job of scenario "x" (its jobs: "A")', type: "job" }]);
    const { rerender } = render(<TuningForm scenarioId="s1" busy={false} error={null} onSubmit={vi.fn()} />);
    fireEvent.change(screen.getByLabelText("Objective"), { target: { value: "busbw_gbps" } });
    expect(screen.getByRole("alert")).toHaveTextContent("no collective job");
    rerender(<TuningForm scenarioId="s1" jobs={["A"]} busy={false} error={error} onSubmit={vi.fn()} />);
    expect(screen.getAllByRole("alert").some((a) => a.textContent?.includes('"C" is not a job'))).toBe(true);
  });

  it("offers a training job's tokens/s (max) and iteration time (min), picking among its training jobs only", () => {
    const onSubmit = vi.fn();
    render(<TuningForm scenarioId="s1" jobs={[{ name: "ring", kind: "collective" }, { name: "llama", kind: "training" }, { name: "moe", kind: "training" }]}
      busy={false} error={null} onSubmit={onSubmit} />);
    const first = screen.getByLabelText("Objective");
    expect(within(first).getByRole("option", { name: "Tokens per second (max)" })).toBeInTheDocument();
    expect(within(first).getByRole("option", { name: "Iteration time (min)" })).toBeInTheDocument();
    expect(within(first).getByRole("option", { name: "Exposed DP time (min)" })).toBeInTheDocument();
    fireEvent.change(first, { target: { value: "tokens_per_s" } });
    const job = screen.getByLabelText("Job of the objective");
    expect(within(job).getAllByRole("option").map((o) => o.textContent)).toEqual(["llama", "moe"]);
    fireEvent.change(screen.getByLabelText("Second objective (Pareto)"), { target: { value: "iteration_us" } });
    fireEvent.change(screen.getByLabelText("Job of the second objective"), { target: { value: "moe" } });
    fireEvent.click(screen.getByRole("button", { name: "Start tuning" }));
    expect(onSubmit.mock.calls[0][0].objectives).toEqual([
      { kind: "metric", metric: "tokens_per_s", job: "llama" }, { kind: "metric", metric: "iteration_us", job: "moe" }]);
  });

  it("says when the scenario has no training job for a training metric", () => {
    render(<TuningForm scenarioId="s1" jobs={["A"]} busy={false} error={null} onSubmit={vi.fn()} />);
    fireEvent.change(screen.getByLabelText("Objective"), { target: { value: "iteration_us" } });
    expect(screen.getByRole("alert")).toHaveTextContent("This scenario has no training job");
  });
});
