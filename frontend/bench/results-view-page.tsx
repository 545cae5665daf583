// The whole results page (ResultsView: cards, three time-series charts, CDF, fabric overlay, ports
// and flows tables) for a run with 100,000 flows and 10,000 samples per series, its data already
// in the query cache as after the fetch. Records the time from render to the last chart and table
// drawn and painted (wall time, and the main thread's CPU time read by the driver).
import { createRoot } from "react-dom/client";
import { flushSync } from "react-dom";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { MemoryRouter } from "react-router";
import { ResultsView } from "../src/features/results/components/ResultsView";
import type { FlowRecord, ResultSeries, ResultSummary, RunInfo } from "../src/lib/api/resultTypes";
import type { LayoutGraph } from "../src/lib/topology/types";
import "../src/styles.css";

const FLOWS = 100_000;
const SAMPLES = 10_000;
const HOSTS = 128;
const LEAVES = 16;
const SPINES = 8;

const flows: FlowRecord[] = Array.from({ length: FLOWS }, (_, i) => {
  const size = 1000 + ((i * 7919) % 3_000_000);
  const fct = 5 + (size / 12_500) * (1 + ((i * 31) % 17) / 4);
  return { id: i, src: `h${i % HOSTS}`, dst: `h${(i * 7 + 1) % HOSTS}`, size_bytes: size, start_us: 1000 + i * 0.9, fct_us: fct, ideal_fct_us: size / 12_500, slowdown: fct / (5 + size / 12_500), bytes_delivered: size, goodput_gbps: (size * 8) / fct / 1e3, retransmits: i % 5 };
});
const t = Array.from({ length: SAMPLES }, (_, i) => i * 10);
const wave = (k: number, scale: number) => t.map((x) => Math.abs(Math.sin(x / (500 + k * 37))) * scale);
const ports = Array.from({ length: 16 }, (_, k) => `leaf${k}->h${k * 8}`);
const series: ResultSeries = {
  interval_us: 10, t_us: t,
  queues: Object.fromEntries(ports.map((p, k) => [p, wave(k, 300_000)])),
  flow_rates_gbps: Object.fromEntries(Array.from({ length: 16 }, (_, k) => [String(k), wave(k + 3, 100)])),
  pause: Object.fromEntries(ports.slice(0, 8).map((p, k) => [p, t.map((x) => ((x / (700 + 50 * k)) | 0) % 2)])),
  selection: { queues: "the 16 deepest", flows: "the 16 slowest", ports: "the 8 most paused" },
};
const nodes: LayoutGraph["nodes"] = [
  ...Array.from({ length: SPINES }, (_, i) => ({ id: `spine${i}`, kind: "switch", tier: 2, group: "", x: (i + 0.5) * (1400 / SPINES), y: 0 })),
  ...Array.from({ length: LEAVES }, (_, i) => ({ id: `leaf${i}`, kind: "switch", tier: 1, group: "", x: (i + 0.5) * (1400 / LEAVES), y: 200 })),
  ...Array.from({ length: HOSTS }, (_, i) => ({ id: `h${i}`, kind: "host", tier: 0, group: "", x: (i + 0.5) * (1400 / HOSTS), y: 400 })),
] as LayoutGraph["nodes"];
const links: LayoutGraph["links"] = [];
for (let l = 0; l < LEAVES; l += 1) {
  for (let s = 0; s < SPINES; s += 1) links.push({ id: links.length, a: `leaf${l}`, b: `spine${s}`, rate_gbps: 400 } as LayoutGraph["links"][number]);
  for (let h = 0; h < HOSTS / LEAVES; h += 1) links.push({ id: links.length, a: `h${l * 8 + h}`, b: `leaf${l}`, rate_gbps: 100 } as LayoutGraph["links"][number]);
}
const graph = { nodes, links, width: 1400, height: 400 } as unknown as LayoutGraph;
const fcts = flows.map((f) => f.fct_us!).sort((a, b) => a - b);
const summary: ResultSummary = {
  throughput_gbps: 6400, max_queue_bytes: 300_000, max_queue_bytes_whole_run: 300_000, ecn_marked_packets: 123_456, cnps_sent: 23_456,
  pfc_pauses_sent: 789, pfc_pauses_received: 789, drops: { total: 0 }, retransmitted_packets: 2_000, flows_total: FLOWS, flows_completed: FLOWS,
  fct_us: { count: FLOWS, mean: fcts.reduce((x, y) => x + y, 0) / FLOWS, p50: fcts[FLOWS / 2], p99: fcts[Math.floor(FLOWS * 0.99)] },
  slowdown: { count: FLOWS, mean: 2, p50: 1.8, p99: 4.5 },
  link_utilization: links.flatMap((l, i) => [{ link: `${l.a}->${l.b}`, utilization: (i % 10) / 10, ecn_marked_packets: i * 3 }, { link: `${l.b}->${l.a}`, utilization: (i % 7) / 7 }]),
  queues: ports.map((p, k) => ({ queue: p, priority: 3, max_bytes: 300_000 - k * 1000, mean_bytes: 50_000, p99_bytes: 250_000, max_bytes_whole_run: 300_000 - k * 1000 })),
  pfc: ports.slice(0, 8).map((p) => ({ port: p, priority: 3, pauses_sent: 98, pauses_received: 0, pause_duration_us: 4_000 })),
};
const runInfo: RunInfo = { simulator: "fabricsim", version: "bench", seed: 1, scenario_sha256: "0".repeat(64), duration_ns: SAMPLES * 10_000, warmup_ns: 1_000_000, events: 1e9 };

const frame = () => new Promise((r) => requestAnimationFrame(() => r(null)));

/** Everything a user sees is drawn: 16 queue lines, the CDF, the flows table counted, the overlay's canvas. */
function drawn(el: HTMLElement) {
  return el.querySelectorAll("#chart-queues path.series-line").length === 16 &&
    el.querySelectorAll("#chart-rates path.series-line").length === 16 &&
    el.querySelector("#chart-cdf path") != null &&
    (el.querySelector("#table-flows [data-testid=table-count]")?.textContent ?? "").startsWith("100,000") &&
    el.querySelectorAll("#table-flows .dt-body [role=row]").length > 0 &&
    ((el.querySelector("#overlay canvas") as HTMLCanvasElement | null)?.width ?? 0) > 0;
}

async function once() {
  const el = document.getElementById("root")!;
  const qc = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const id = "bench";
  qc.setQueryData(["run", id, "summary"], { runInfo, summary });
  qc.setQueryData(["run", id, "series"], series);
  qc.setQueryData(["run", id, "flows"], { flows, count: FLOWS });
  qc.setQueryData(["run", id, "diagnostics"], { faults: null, pingmesh: null, port_counters: null });
  const root = createRoot(el);
  const t0 = performance.now();
  flushSync(() => root.render(
    <QueryClientProvider client={qc}><MemoryRouter><ResultsView runId={id} graph={graph} scenarioName="bench" /></MemoryRouter></QueryClientProvider>,
  ));
  const firstCommit = performance.now() - t0;
  let frames = 0;
  while (!drawn(el)) {
    await frame();
    frames += 1;
    if (frames > 600) throw new Error("the results page never finished drawing");
  }
  await frame(); // the frame that paints it
  const page = performance.now() - t0;
  root.unmount();
  return { page, firstCommit, frames };
}

// The driver (results-browser.mjs) calls __once() seven times, reading the renderer's main-thread
// CPU time around each call, so a loaded machine's figures can still be compared.
(window as unknown as { __once: typeof once; __meta: unknown }).__once = once;
(window as unknown as { __meta: unknown }).__meta = {
  what: "ResultsView, whole page", flows: FLOWS, samples_per_series: SAMPLES, series_per_chart: 16, links: links.length,
};
