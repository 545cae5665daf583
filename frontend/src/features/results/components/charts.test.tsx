import { fireEvent, render, screen } from "@testing-library/react";
import { LineChart } from "./LineChart";
import { CdfChart } from "./CdfChart";
import { SummaryCards, summaryCards } from "./SummaryCards";
import { runWindows } from "../utils/derive";
import { cdfByBucket } from "../utils/cdf";
import { directionalValues, linkValues } from "../utils/overlay";
import type { FlowRecord, ResultSummary } from "../../../lib/api/resultTypes";

const t = [0, 10, 20, 30];

describe("LineChart", () => {
  it("draws one path per series through every sample", () => {
    const { container } = render(
      <LineChart t={t} xDomain={[0, 30]} yLabel="bytes" series={[
        { name: "leaf0->h0", values: [0, 1000, 2000, 500] },
        { name: "leaf0->h1", values: [0, 0, 10, 0] },
      ]} />,
    );
    const paths = container.querySelectorAll("path.series-line");
    expect(paths).toHaveLength(2);
    expect(paths[0].getAttribute("data-series")).toBe("leaf0->h0");
    const d = paths[0].getAttribute("d")!;
    expect(d.startsWith("M")).toBe(true);
    expect(d.split("L")).toHaveLength(4); // M + 3 segments
    expect(screen.getByText("leaf0->h1")).toBeInTheDocument(); // legend
    expect(screen.getByRole("img", { name: "bytes over time" })).toBeInTheDocument();
  });

  it("moves a cursor with the keyboard and reads the values out", () => {
    const { container } = render(
      <LineChart t={t} xDomain={[0, 30]} yLabel="bytes" yFormat={(v) => `${v} B`} series={[
        { name: "leaf0->h0", values: [0, 1000, 2000, 500] },
        { name: "leaf0->h1", values: [0, 0, 10, 0] },
      ]} />,
    );
    const chart = screen.getByLabelText(/bytes over time: arrow keys move a cursor/);
    expect(chart.tabIndex).toBe(0);
    const readout = screen.getByTestId("chart-readout");
    expect(container.querySelector("line.chart-cursor")).toBeNull();
    fireEvent.keyDown(chart, { key: "ArrowRight" });
    expect(readout.textContent).toBe("t = 0 us · leaf0->h0: 0 B, leaf0->h1: 0 B");
    fireEvent.keyDown(chart, { key: "ArrowRight" });
    fireEvent.keyDown(chart, { key: "ArrowRight" });
    expect(readout.textContent).toBe("t = 20 us · leaf0->h0: 2000 B, leaf0->h1: 10 B");
    expect(container.querySelector("line.chart-cursor")).not.toBeNull();
    fireEvent.keyDown(chart, { key: "End" });
    expect(readout.textContent).toBe("t = 30 us · leaf0->h0: 500 B, leaf0->h1: 0 B");
    fireEvent.keyDown(chart, { key: "Home" });
    expect(readout.textContent).toMatch(/^t = 0 us/);
    fireEvent.keyDown(chart, { key: "Escape" });
    expect(container.querySelector("line.chart-cursor")).toBeNull();
  });

  it("keeps the cursor inside a zoomed range", () => {
    render(<LineChart t={t} xDomain={[10, 20]} yLabel="bytes" yFormat={(v) => `${v}`} series={[{ name: "q", values: [0, 1000, 2000, 500] }]} />);
    const chart = screen.getByLabelText(/bytes over time: arrow keys/);
    fireEvent.keyDown(chart, { key: "ArrowLeft" });
    expect(screen.getByTestId("chart-readout").textContent).toBe("t = 20 us · q: 2000");
    fireEvent.keyDown(chart, { key: "End" });
    fireEvent.keyDown(chart, { key: "ArrowRight" });
    expect(screen.getByTestId("chart-readout").textContent).toBe("t = 20 us · q: 2000");
    fireEvent.keyDown(chart, { key: "Home" });
    expect(screen.getByTestId("chart-readout").textContent).toBe("t = 10 us · q: 1000");
  });

  it("uses steps for pause state", () => {
    const { container } = render(<LineChart t={t} xDomain={[0, 30]} yLabel="paused" step series={[{ name: "p", values: [0, 1, 1, 0] }]} />);
    // a step curve needs horizontal then vertical moves: more vertices than samples
    expect(container.querySelector("path.series-line")!.getAttribute("d")!.split("L").length).toBeGreaterThan(4);
  });
});

const flow = (id: number, size: number, fct: number | null): FlowRecord => ({
  id, src: "h1", dst: "h0", size_bytes: size, start_us: 0, fct_us: fct, ideal_fct_us: null,
  slowdown: fct === null ? null : fct / 2, bytes_delivered: size, goodput_gbps: 1,
});

describe("FCT CDF", () => {
  const flows = [flow(0, 5000, 3), flow(1, 6000, 5), flow(2, 2_000_000, 400), flow(3, 0, null)];
  it("buckets finite completed flows by size", () => {
    const b = cdfByBucket(flows, "fct_us");
    expect(b.map((x) => x.label)).toEqual(["< 10 KB", ">= 1 MB"]);
    expect(b[0].points).toEqual([[3, 0], [3, 0.5], [5, 1]]);
  });
  it("renders a path per bucket", () => {
    const { container } = render(<CdfChart flows={flows} metric="slowdown" />);
    expect(container.querySelectorAll("path.series-line")).toHaveLength(2);
    expect(screen.getByText(/< 10 KB \(2 flows\)/)).toBeInTheDocument();
  });
});

const summary: ResultSummary = {
  throughput_gbps: 24.5, max_queue_bytes: 150_000, ecn_marked_packets: 12, pfc_pauses_sent: 3,
  fct_us: { count: 2, mean: 4, p50: 3, p99: 5 }, drops: { total: 0 },
  link_utilization: [{ link: "leaf0->h0", utilization: 0.9 }, { link: "h0->leaf0", utilization: 0.1 }],
  pfc: [{ port: "leaf0->h1", priority: 3, pauses_sent: 2, pauses_received: 1, pause_duration_us: 4 }],
};

describe("SummaryCards and overlay values", () => {
  it("shows the headline metrics with units", () => {
    render(<SummaryCards cards={summaryCards(summary, runWindows(undefined, undefined))} />);
    expect(screen.getByText("24.5 Gbit/s")).toBeInTheDocument();
    expect(screen.getByText("5 us")).toBeInTheDocument();
    expect(screen.getByText("150 KB")).toBeInTheDocument();
  });
  it("prints counts as exact integers and the completed-flow ratio", () => {
    render(<SummaryCards cards={summaryCards({ ...summary, ecn_marked_packets: 11589, cnps_sent: 11098, flows_total: 120, flows_completed: 87, slowdown: { count: 2, mean: 2, p50: 1.25, p99: 9.6577 } }, runWindows(undefined, undefined))} />);
    expect(screen.getByText("11,589")).toBeInTheDocument();
    expect(screen.getByText("11,098 CNPs sent")).toBeInTheDocument();
    expect(screen.getByText("87 / 120")).toBeInTheDocument();
    expect(screen.getByText("9.658×")).toBeInTheDocument();
  });
  it("colours a link by the busier direction, and leaves unrecorded links empty", () => {
    const links = [{ id: 0, a: "h0", b: "leaf0", rate_gbps: 100 }, { id: 1, a: "h1", b: "leaf0", rate_gbps: 100 }];
    expect(linkValues(links, directionalValues("utilization", summary, undefined, 0))).toEqual([0.9, null]);
    expect(linkValues(links, directionalValues("pauses", summary, undefined, 0))).toEqual([null, 3]);
    const series = { interval_us: 10, t_us: t, queues: { "leaf0->h0": [0, 7, 9, 1] }, flow_rates_gbps: {}, pause: {} };
    expect(linkValues(links, directionalValues("queue_at_t", summary, series, 2))).toEqual([9, null]);
  });
});
