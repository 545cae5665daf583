// Issue 22 §2: one parameter picker for the sweep and the tuning forms.
import { fireEvent, render, screen, within } from "@testing-library/react";
import { SweepForm } from "../features/sweeps/components/SweepForm";
import { TuningForm } from "../features/tuning/components/TuningForm";

describe("the parameter picker shared by sweeps and tunings", () => {
  it("the sweep form names its parameters like the tuning form, and still takes any path", () => {
    const onSubmit = vi.fn();
    render(<SweepForm scenarioId="s1" busy={false} error={null} onSubmit={onSubmit} />);
    const pick = screen.getByLabelText("Parameter 1", { selector: "select" });
    expect(within(pick).getByRole("option", { name: "Switch: ECN Kmin (bytes)" })).toBeInTheDocument();
    expect((pick as HTMLSelectElement).value).toBe("switch.ecn.kmin_bytes");
    fireEvent.change(pick, { target: { value: "__other__" } });
    fireEvent.change(screen.getByLabelText("Parameter 1 path"), { target: { value: "traffic.1.size_bytes" } });
    fireEvent.submit(screen.getByRole("form", { name: "Sweep" }));
    expect(onSubmit.mock.calls[0][0].parameters[0].path).toBe("traffic.1.size_bytes");
  });
  it("the tuning form offers the same fields, numbers only", () => {
    render(<TuningForm scenarioId="s1" busy={false} error={null} onSubmit={() => {}} />);
    const pick = screen.getByLabelText("Parameter 1", { selector: "select" });
    expect(within(pick).getByRole("option", { name: "Switch: ECN Kmin (bytes)" })).toBeInTheDocument();
    expect(within(pick).queryByRole("option", { name: /Load balancing/ })).toBeNull();
    expect(within(pick).queryByRole("option", { name: "Other path…" })).toBeNull();
  });
});
