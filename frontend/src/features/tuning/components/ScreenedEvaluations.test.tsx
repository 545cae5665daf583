// Issue 36: a screening tuning shows its best settings at flow level and again at packet level,
// each objective side by side with the flow engine's error on it.
import { render, screen, within } from "@testing-library/react";
import { MemoryRouter } from "react-router";
import type { TuningResults } from "../api/tunings";
import { ScreenedEvaluations } from "./ScreenedEvaluations";

const evaluation = (id: number, rate: number, flow: number, packet: number | null) => ({
  id,
  strategy: "grid",
  seq: id,
  batch: 0,
  point: [id],
  fidelity: 1,
  params: { "topology.fabric_rate_gbps": rate },
  overrides: {},
  status: "DONE",
  feasible: true,
  objectives: [{ mean: flow, ci: 0 }],
  metrics: null,
  run_ids: [`f${id}`],
  error: null,
  packet_run_ids: packet == null ? null : [`p${id}`],
  packet_objectives: packet == null ? null : [{ mean: packet, ci: 0 }],
  packet_metrics: null,
});
const RESULTS = {
  id: "t",
  status: "SUCCEEDED",
  objectives: ["jct_us"],
  goals: ["min"],
  evaluations: [evaluation(1, 25, 400, null), evaluation(2, 100, 100, 104), evaluation(3, 50, 200, 190)],
  picks: [],
  pareto: [],
  table: [],
  paths: {},
  kept: [2, 3],
} as unknown as TuningResults;

describe("a screening tuning", () => {
  it("lists the kept settings best first with both objectives and the error", () => {
    render(
      <MemoryRouter>
        <ScreenedEvaluations results={RESULTS} keep={2} />
      </MemoryRouter>,
    );
    const [, first, second] = within(
      screen.getByRole("table", { name: "Screened settings, flow and packet level" }),
    ).getAllByRole("row");
    expect(first).toHaveTextContent(/^1.*fabric_rate_gbps = 100.*100.*104.*-3\.8 %/);
    expect(second).toHaveTextContent(/^2.*200.*190.*\+5\.3 %/);
    expect(within(first).getByRole("link", { name: "packet" })).toHaveAttribute("href", "/runs/p2");
    expect(screen.getByTestId("screened")).toHaveTextContent(
      "the best 2 settings (by jct_us) ran again at packet level",
    );
  });

  it("says the packet-level stage waits for the strategies", () => {
    render(
      <MemoryRouter>
        <ScreenedEvaluations results={{ ...RESULTS, kept: null }} keep={3} />
      </MemoryRouter>,
    );
    expect(screen.getByTestId("screened")).toHaveTextContent(
      "the best 3 settings run again at packet level once every strategy has finished",
    );
  });
});
