// Issue 22 §1: heatmap values in readable units, and a comparison opening on a metric that differs.
import { render, screen } from "@testing-library/react";
import { HeatmapExplorer } from "./HeatmapExplorer";
import { differingMetric, formatMetric, type SweepPoint } from "../../../lib/charts/grid";

// the paper's comparison: 419 Gbit/s everywhere, FCT p99 193 against 425 us
const points: SweepPoint[] = [[0, 193], [1, 425]].map(([v, fct], index) => ({
  index, run_id: `r${index}`, status: "SUCCEEDED", params: { variant: v, seed: 1 },
  metrics: { throughput_gbps: 419, fct_p99_us: fct, max_queue_bytes: 622300 + index },
}));

describe("heatmap units", () => {
  it("formats cells in their unit, never 6.223e+5", () => {
    expect(formatMetric("max_queue_bytes", 622300)).toBe("622.3 KB");
    expect(formatMetric("fct_p99_us", 193)).toBe("193 us");
    expect(formatMetric("throughput_gbps", 419)).toBe("419 Gbit/s");
    expect(formatMetric("ecn_marked_packets", 7010)).toBe("7,010");
  });
  it("a comparison opens on a metric that differs across its cells", () => {
    expect(differingMetric(points, "throughput_gbps", ["throughput_gbps", "fct_p50_us", "fct_p99_us"])).toBe("fct_p99_us");
    render(<HeatmapExplorer points={points} paths={["variant", "seed"]} onOpenRun={() => {}} />);
    expect(screen.getByRole("combobox", { name: "Metric" })).toHaveValue("fct_p99_us");
    expect(screen.queryByText("Every cell has the same value.")).toBeNull();
  });
});
