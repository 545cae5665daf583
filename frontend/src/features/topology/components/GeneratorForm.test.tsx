import { fireEvent, render, screen } from "@testing-library/react";
import { GeneratorForm, toTopology } from "./GeneratorForm";

describe("DCI generator: the WAN accelerator switch", () => {
  it("writes topology.accelerator only when it is on", () => {
    expect(toTopology("dci", { length_km: 100, "accelerator.enabled": 1 }).accelerator).toEqual({ enabled: true });
    expect(toTopology("dci", { length_km: 100, "accelerator.enabled": 0 })).not.toHaveProperty("accelerator");
  });

  it("keeps the accelerator's buffer and timeout when regenerating", () => {
    const previous = { kind: "dci" as const, accelerator: { enabled: false, buffer_bytes: 65536, retransmit_timeout_us: 5000 } };
    expect(toTopology("dci", { "accelerator.enabled": 1 }, previous).accelerator).toEqual({ enabled: true, buffer_bytes: 65536, retransmit_timeout_us: 5000 });
    expect(toTopology("dci", { "accelerator.enabled": 0 }, previous).accelerator).toEqual({ enabled: false, buffer_bytes: 65536, retransmit_timeout_us: 5000 });
  });

  it("shows the stored state and generates with what the user ticked", async () => {
    const onGenerate = vi.fn();
    render(<GeneratorForm topology={{ kind: "dci", length_km: 100, accelerator: { enabled: true } }} onGenerate={onGenerate} />);
    const box = screen.getByRole("checkbox", { name: "RDMA WAN accelerator at the site edges" }) as HTMLInputElement;
    expect(box.checked).toBe(true);
    fireEvent.click(box);
    fireEvent.click(screen.getByRole("button", { name: "Generate" }));
    await vi.waitFor(() => expect(onGenerate).toHaveBeenCalled());
    expect(onGenerate.mock.calls[0][0].accelerator).toEqual({ enabled: false });
    fireEvent.click(box);
    fireEvent.click(screen.getByRole("button", { name: "Generate" }));
    await vi.waitFor(() => expect(onGenerate).toHaveBeenCalledTimes(2));
    expect(onGenerate.mock.calls[1][0]).toMatchObject({ kind: "dci", length_km: 100, accelerator: { enabled: true } });
  });
});
