import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { MemoryRouter } from "react-router";
import { MeasurementView } from "./MeasurementView";
import type { Comparison, MeasurementPublic } from "../api/realFabric";

const api = vi.hoisted(() => ({ GET: vi.fn(), POST: vi.fn() }));
vi.mock("../../../lib/api/client", async (original) => ({
  ...(await original<typeof import("../../../lib/api/client")>()),
  client: api,
}));

const measurement = {
  id: "m1", scenario_id: "sc1", kind: "nccl_tests", tool: "all_reduce_perf", name: "rail 0", points: 2,
  created_at: "2026-11-29T00:00:00Z", sweep_id: null, run_id: null, sim_scenario_id: null, generator: null,
  header: { ranks: 8, hosts: ["h0", "h1"], n_threads: 1, n_gpus: 1, min_bytes: 16384, max_bytes: 1048576, iters: 20, avg_busbw_gbps: 53.4 },
  rows: [], notes: [],
} as unknown as MeasurementPublic;

const comparison: Comparison = {
  measurement_id: "m1", tool: "all_reduce_perf", metric: "busbw_gbps", unit: "Gbit/s", threshold: 0.1,
  status: "SUCCEEDED", done: 2, total: 2, measured_ranks: 8, simulated_ranks: 8, notes: [],
  reasons: { small_message: "below 64 KiB NCCL's protocols and kernel latencies dominate", channels: "NCCL runs several channels" },
  points: [
    { size_bytes: 16384, measured: 15.84, measured_in_place: 15.9, simulated: 5.65, ratio: 5.65 / 15.84, differs: true, reasons: ["small_message"], run_id: "r1", status: "SUCCEEDED" },
    { size_bytes: 1048576, measured: 85.6, measured_in_place: 86.2, simulated: 82.0, ratio: 82 / 85.6, differs: false, reasons: [], run_id: "r2", status: "SUCCEEDED" },
  ],
};

function shell() {
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <MemoryRouter><MeasurementView m={measurement} /></MemoryRouter>
    </QueryClientProvider>,
  );
}

describe("MeasurementView", () => {
  beforeEach(() => {
    api.GET.mockResolvedValue({ data: comparison, response: new Response(null, { status: 200 }) });
    api.POST.mockResolvedValue({ data: { measurement_id: "m1", kind: "sweep", sweep_id: "sw1", run_id: null, sim_scenario_id: "sc1", generator: 0, notes: ["n"] },
                                 response: new Response(null, { status: 201 }) });
  });
  afterEach(() => vi.clearAllMocks());

  it("reads the header, flags the sizes that differ and lists their reasons", async () => {
    shell();
    expect(screen.getByTestId("measurement-facts")).toHaveTextContent(
      "all_reduce_perf: 8 ranks on 2 hosts · nThread 1 nGpus 1 · sizes 16 KiB … 1 MiB · 20 iterations · avg busbw 53.4 Gbit/s");
    const table = await screen.findByTestId("comparison-table");
    const rows = within(table).getAllByRole("row").slice(1);
    expect(rows.map((r) => r.getAttribute("data-differs"))).toEqual(["true", "false"]);
    expect(within(rows[0]).getByText("0.36 × (−64 %)")).toBeInTheDocument();
    expect(within(rows[0]).getByText("small_message")).toBeInTheDocument();
    expect(screen.getByRole("term")).toHaveTextContent("small_message");
    expect(screen.getByRole("definition")).toHaveTextContent("below 64 KiB NCCL's protocols");
    expect(screen.getByTestId("simulation-status")).toHaveTextContent("SUCCEEDED");
  });

  it("starts the matching simulation", async () => {
    shell();
    await userEvent.click(screen.getByRole("button", { name: "Run the matching simulation" }));
    expect(api.POST).toHaveBeenCalledWith("/api/v1/measurements/{id}/simulate", { params: { path: { id: "m1" } }, body: { seed: 1 } });
    expect(await screen.findByRole("link", { name: "the sweep" })).toHaveAttribute("href", "/sweeps/sw1");
  });
});
