import { render, screen } from "@testing-library/react";
import { ComparisonChart } from "./ComparisonChart";
import type { ComparedPoint } from "../api/realFabric";

const point = (size: number, measured: number | null, simulated: number | null, differs: boolean): ComparedPoint => ({
  size_bytes: size, measured, simulated, ratio: measured && simulated ? simulated / measured : null, differs,
  reasons: differs ? ["small_message"] : [], run_id: null, status: null,
});

describe("ComparisonChart", () => {
  const points = [point(16384, 15.8, 5.6, true), point(65536, 41.8, 40, false), point(1048576, 85.6, null, false)];

  it("draws both series on log-log axes and rings the sizes that differ", () => {
    const { container } = render(<ComparisonChart points={points} unit="Gbit/s" label="bus bandwidth" />);
    expect(screen.getByRole("img", { name: "bus bandwidth against message size, measured and simulated, log-log" })).toBeInTheDocument();
    expect(container.querySelectorAll("[data-size]")).toHaveLength(3);
    expect(container.querySelector('[data-size="16384"]')).toHaveAttribute("data-differs", "true");
    expect(container.querySelector('[data-size="65536"]')).toHaveAttribute("data-differs", "false");
    expect(container.querySelectorAll(".differs-mark")).toHaveLength(1);
    // three measured dots, two simulated squares (the last size has no simulation yet)
    expect(container.querySelectorAll("circle:not(.differs-mark)")).toHaveLength(3);
    expect(container.querySelectorAll("rect")).toHaveLength(2);
    expect(container.querySelector('path[data-series="measured"]')!.getAttribute("d")).toMatch(/^M.*L.*L/);
    expect(container.querySelector('path[data-series="simulated"]')!.getAttribute("d")).toMatch(/^M[^M]*L[^L]*$/);
    expect(screen.getByText("16 KiB")).toBeInTheDocument();
    expect(screen.getByText("1 MiB")).toBeInTheDocument();
    expect(screen.getByText("bus bandwidth (Gbit/s, log)")).toBeInTheDocument();
    expect(container.querySelector('[data-size="16384"] title')!.textContent).toBe(
      "16 KiB: measured 15.8, simulated 5.6 Gbit/s; ratio 0.35 × (−65 %)");
  });

  it("says when there is nothing to plot", () => {
    render(<ComparisonChart points={[point(8, null, null, false)]} unit="us" label="latency" />);
    expect(screen.getByText("Nothing to plot yet.")).toBeInTheDocument();
  });
});
