import { fireEvent, render, screen, within } from "@testing-library/react";
import { TuningForm } from "./TuningForm";

describe("the tuning form's objectives", () => {
  it("offers a collective job's JCT (min) and busbw (max) and sends them as metric objectives", () => {
    const onSubmit = vi.fn();
    render(<TuningForm scenarioId="s1" busy={false} error={null} onSubmit={onSubmit} />);
    const first = screen.getByLabelText("Objective");
    expect(within(first).getByRole("option", { name: "Job completion time, first job (min)" })).toBeInTheDocument();
    fireEvent.change(first, { target: { value: "jct_us" } });
    fireEvent.change(screen.getByLabelText("Second objective (Pareto)"), { target: { value: "busbw_gbps" } });
    fireEvent.click(screen.getByRole("button", { name: "Start tuning" }));
    expect(onSubmit).toHaveBeenCalledTimes(1);
    expect(onSubmit.mock.calls[0][0].objectives).toEqual([{ kind: "metric", metric: "jct_us" }, { kind: "metric", metric: "busbw_gbps" }]);
  });
});
