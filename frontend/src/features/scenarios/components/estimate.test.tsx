import { fireEvent, render, screen } from "@testing-library/react";
import { ApiError } from "../../../lib/api/errors";
import type { EstimateResult } from "../api/scenarios";
import { EstimatePanel, packetRunText } from "./EstimatePanel";

// Issue 36 §3: the editor shows the flow-level estimate of the scenario being edited, what it
// leaves out, why it refuses one, and runs it at packet level in one click.
const RESULT: EstimateResult = {
  engine: "flow", status: "ok", wall_s: 0.0123, throughput_gbps: 187.905, fct_p50_us: 352.1, fct_p99_us: 360.4,
  slowdown_p50: 1.02, slowdown_p99: 1.05, flows_total: 112, flows_completed: 112,
  jobs: [{ name: "ar", op: "all_reduce", algorithm: "ring", jct_us: 4933.6, busbw_gbps: 95.2131, iteration_us: 4933.6, ideal_busbw_gbps: 98.0373 }],
  caveats: [{ feature: "queues", field: "switch.buffer_bytes", message: "no queues" }],
};

describe("the estimate panel", () => {
  it("shows each job's figures, the flows', what it leaves out, and runs at packet level", () => {
    const onRunPacket = vi.fn();
    render(<EstimatePanel result={RESULT} error={null} estimating={false} onRunPacket={onRunPacket} />);
    const row = screen.getByRole("row", { name: /ar \(ring\)/ });
    expect(row).toHaveTextContent("JCT 4,934 us");
    expect(row).toHaveTextContent("busbw 95.21 Gbit/s of 98.04 Gbit/s");
    expect(screen.getByRole("row", { name: /throughput/ })).toHaveTextContent("187.9 Gbit/s");
    expect(screen.getByText("It leaves out 1 thing")).toBeInTheDocument();
    expect(screen.getByText(/Flow-level estimate in 12.3 ms/)).toBeInTheDocument();
    fireEvent.click(screen.getByRole("button", { name: "Run at packet level" }));
    expect(onRunPacket).toHaveBeenCalledTimes(1);
  });

  it("gives a training job its iteration, not a bus bandwidth of 0", () => {
    const llama = { name: "llama", op: "training", algorithm: "ring", jct_us: 22292.8, busbw_gbps: 0, iteration_us: 22292.8, ideal_busbw_gbps: 392.149 };
    render(<EstimatePanel result={{ ...RESULT, jobs: [llama] }} error={null} estimating={false} onRunPacket={() => {}} />);
    const row = screen.getByRole("row", { name: /llama \(training\)/ });
    expect(row).toHaveTextContent("JCT 22,290 us");
    expect(row).toHaveTextContent("iteration 22,290 us");
    expect(row).toHaveTextContent("no busbw: an iteration of many collectives");
    expect(row).not.toHaveTextContent("Gbit/s");
  });

  it("says why there is no estimate, and keeps the last one while the next is refused", () => {
    const refused = new ApiError(422, "topology: 10,240 hosts: an estimate takes fabrics of at most 8,192 hosts");
    const { rerender } = render(<EstimatePanel result={undefined} error={refused} estimating={false} onRunPacket={() => {}} />);
    expect(screen.getByRole("status")).toHaveTextContent("No estimate: topology: 10,240 hosts");
    rerender(<EstimatePanel result={RESULT} error={refused} estimating={true} onRunPacket={() => {}} />);
    expect(screen.getByTestId("estimate-panel")).toHaveAttribute("aria-busy", "true");
    expect(screen.getByText(/last valid version: topology: 10,240 hosts/)).toBeInTheDocument();
  });
});

describe("a refused estimate", () => {
  it("names the field in its own words and range, not the API's", () => {
    const refused = new ApiError(422, "duration_us: Input should be greater than 0", [
      { path: "duration_us", message: "Input should be greater than 0", type: "greater_than", ctx: { gt: "0" } },
    ]);
    render(<EstimatePanel result={undefined} error={refused} estimating={false} onRunPacket={() => {}} />);
    const status = screen.getByRole("status");
    expect(status).toHaveTextContent(/^No estimate: Duration must be more than 0 us \(allowed: more than 0, up to 10,000,000 us\)$/);
    expect(status).not.toHaveTextContent("Input should be");
  });
});

describe("the packet-level run's predicted time", () => {
  it("comes from the events this instance measured, and says so when it has none", () => {
    const packet_run = { seconds: 12.5, events: 62_500_000, frames: 25_000, events_per_s: 5_000_000, events_per_frame: 2500, runs: 7 };
    render(<EstimatePanel result={{ ...RESULT, packet_run }} error={null} estimating={false} onRunPacket={() => {}} />);
    expect(screen.getByTestId("packet-run-time")).toHaveTextContent(
      "A packet-level run would take about 12.5 s on one thread: 62.5M events (25k frames × 2,500 events per frame) at 5M events/s, the medians of the last 7 packet-level runs here.");
    expect(packetRunText(null)).toMatch(/No packet-level run has finished on this instance yet/);
    expect(packetRunText({ ...packet_run, seconds: 0.0421 })).toMatch(/about 42.1 ms/);
    expect(packetRunText({ ...packet_run, seconds: 5400 })).toMatch(/about 90 min/);
  });
});

describe("the estimate's measured error", () => {
  it("sits beside each figure the validation measured", () => {
    const flow_error = { kind: "collective_nonblocking" as const, label: "collectives on non-blocking fabrics", applies: true, outside: [],
      figures: { jct_us: { max_abs_error: 0.0714, target: 0.05, cases: 7 } } };
    render(<EstimatePanel result={{ ...RESULT, flow_error }} error={null} estimating={false} onRunPacket={() => {}} />);
    expect(screen.getByRole("row", { name: /ar \(ring\)/ })).toHaveTextContent("JCT 4,934 us ±7.1 %");
    expect(screen.getByTestId("estimate-error")).toHaveTextContent("the largest error measured against the packet model on collectives on non-blocking fabrics");
  });
});
