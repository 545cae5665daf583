// Issue 36: a sweep screens every point at flow level and runs the best at packet level; the page
// shows the two figures side by side, and the form refuses screening over what the flow engine
// does not model before the API does.
import { fireEvent, render, screen, within } from "@testing-library/react";
import { MemoryRouter } from "react-router";
import type { SweepPublic } from "../api/sweeps";
import { ScreenedTable } from "./ScreenedTable";
import { SweepForm } from "./SweepForm";
import { screenedRows } from "../utils/screening";

const metrics = (jct: number) => ({
  jct_us: jct,
  busbw_gbps: null,
  throughput_gbps: 100,
  fct_p50_us: null,
  fct_p99_us: null,
  slowdown_p99: null,
  max_queue_bytes: null,
  ecn_marked_packets: null,
  cnps_sent: null,
  pfc_pauses_sent: null,
  drops_total: null,
  jobs: null,
});
const point = (index: number, rate: number, flow: number, packet: number | null) => ({
  index,
  params: { "topology.fabric_rate_gbps": rate },
  scenario_id: `s${index}`,
  run_id: `f${index}`,
  status: "SUCCEEDED" as const,
  metrics: metrics(flow),
  engine: "flow" as const,
  packet_run_id: packet == null ? null : `p${index}`,
  packet_status: packet == null ? null : ("SUCCEEDED" as const),
  packet_metrics: packet == null ? null : metrics(packet),
});
const SWEEP = {
  id: "sw",
  status: "SUCCEEDED",
  total: 5,
  done: 5,
  failed: 0,
  scenario_id: "base",
  seed: 1,
  created_at: "2026-11-29T00:00:00Z",
  parameters: [{ path: "topology.fabric_rate_gbps", values: [25, 100, 50] }],
  linked: [],
  screening: { engine: "flow", keep: 2, metric: "jct_us", goal: null, job: null },
  kept: [1, 2],
  points: [point(0, 25, 400, null), point(1, 100, 100, 104), point(2, 50, 200, 190)],
  points_count: 3,
  offset: 0,
  next_offset: null,
} as unknown as SweepPublic;

describe("a screening sweep", () => {
  it("lists the kept points best first, flow and packet figures side by side", () => {
    const rows = screenedRows(SWEEP);
    expect(rows.map((r) => [r.rank, r.point.index, r.flow, r.packet])).toEqual([
      [1, 1, 100, 104],
      [2, 2, 200, 190],
    ]);
    expect(rows[0].error).toBeCloseTo(-4 / 104);
    render(
      <MemoryRouter>
        <ScreenedTable sweep={SWEEP} dims={["topology.fabric_rate_gbps"]} />
      </MemoryRouter>,
    );
    const table = screen.getByRole("table", { name: "Screened points, flow and packet level" });
    const [, first, second] = within(table).getAllByRole("row");
    expect(first).toHaveTextContent(/^1.*100.*104.*-3\.8 %.*flow · packet$/);
    expect(second).toHaveTextContent(/^2.*200.*190.*\+5\.3 %/);
    expect(within(first).getByRole("link", { name: "packet" })).toHaveAttribute("href", "/runs/p1");
    expect(screen.getByTestId("screened")).toHaveTextContent(
      "ranked by jct_us (lower is better); the best 2 ran again at packet level",
    );
  });

  it("says it waits for the flow-level answers before any point is kept", () => {
    render(
      <MemoryRouter>
        <ScreenedTable sweep={{ ...SWEEP, kept: null }} dims={[]} />
      </MemoryRouter>,
    );
    expect(screen.getByTestId("screened")).toHaveTextContent(
      "the best 2 run again at packet level once every point has its flow-level answer",
    );
    expect(screen.queryByRole("table")).toBeNull();
  });

  it("sends the screening option, and refuses it over ECN settings before the API does", () => {
    const onSubmit = vi.fn();
    render(<SweepForm scenarioId="base" busy={false} error={null} onSubmit={onSubmit} />);
    fireEvent.click(screen.getByRole("checkbox", { name: "Screen at flow level first" }));
    // the form's default parameters are ECN thresholds: screening over them is refused, naming why
    expect(screen.getAllByTestId("screening-refused")[0]).toHaveTextContent(
      "switch.ecn.kmin_bytes: ECN marking is not modelled (ecn)",
    );
    expect(screen.getByRole("button", { name: "Start sweep" })).toBeDisabled();
  });
});
