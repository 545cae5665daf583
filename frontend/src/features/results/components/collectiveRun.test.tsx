// Issue 37, section 2: a collective run's top cards say what the run has (jobs, steps, transfers)
// and show no card for what it has not; the rate chart draws no collective transfer.
import { render, screen } from "@testing-library/react";
import type { FlowRecord, Job, ResultSeries, ResultSummary, RunInfo } from "../../../lib/api/resultTypes";
import { runWindows } from "../utils/derive";
import { collectiveCounts } from "../utils/jobs";
import { formatDurationUs } from "../../../lib/format";
import { summaryCards } from "./SummaryCards";
import { TimeCharts } from "./TimeCharts";
import runs from "../utils/testdata/collective-runs.json";

interface Run { summary: ResultSummary; flows: FlowRecord[]; jobs: Job[]; series: ResultSeries; run_info: RunInfo }
const collective = runs.collective as unknown as Run;
const mixed = runs.mixed as unknown as Run;
const cardsOf = (r: Run) => summaryCards(r.summary, runWindows(r.run_info, r.flows), r.flows, r.series, undefined, r.jobs);
const byLabel = (r: Run) => Object.fromEntries(cardsOf(r).map((c) => [c.label, c]));

describe("a collective run's cards", () => {
  it("say its jobs, steps and transfers, from the jobs, and link to them", () => {
    const c = byLabel(collective);
    const job = collective.jobs[0];
    expect(c.Jobs.value).toBe("1");
    expect(c.Jobs.where).toBe(job.name);
    expect(c.Jobs.note).toBe("1 of 1 finished");
    expect(c.Steps.value).toBe(`${job.steps.length} / ${job.steps.length}`);
    // the summary counts the job's transfers among its flows: 448 of them, none listed as a flow
    expect(collective.summary.flows_total).toBe(job.flows);
    expect(c.Transfers.value).toBe(`${job.flows_completed} / ${job.flows}`);
    const k = collectiveCounts(collective.jobs);
    expect(k.network + k.nvlink).toBe(job.flows);
    expect(c.Transfers.note).toContain(`${k.network} over the network, ${k.nvlink} over NVLink`);
    for (const label of ["Jobs", "Steps", "Transfers"]) expect(c[label].href).toBe("#jobs");
  });

  it("show no FCT, slowdown or flows card when the run lists no flow (they pointed at an empty CDF and table)", () => {
    expect(collective.flows).toHaveLength(0);
    // the summary's FCT statistics are the transfers' (count 112): not a card's business
    expect(collective.summary.fct_us?.count).toBeGreaterThan(0);
    const labels = cardsOf(collective).map((c) => c.label);
    expect(labels).not.toContain("FCT p50");
    expect(labels).not.toContain("FCT p99");
    expect(labels).not.toContain("Slowdown p99");
    expect(labels).not.toContain("Flows completed");
    // nothing links to the empty flows table or the CDF
    expect(cardsOf(collective).filter((c) => c.href === "#table-flows" || c.href === "#chart-cdf")).toEqual([]);
  });

  it("with listed flows beside the jobs, counts and times only those flows", () => {
    const c = byLabel(mixed);
    const listed = mixed.flows;
    expect(listed).toHaveLength(2);
    expect(c["Flows completed"].value).toBe("2 / 2");
    expect(c["Flows completed"].note).toContain("collective transfers not counted");
    const fcts = listed.map((f) => f.fct_us!).sort((a, b) => a - b);
    // nearest rank, as the simulator: p50 of two is the first, p99 the second
    expect(c["FCT p50"].value).toBe(formatDurationUs(fcts[0]));
    expect(c["FCT p99"].value).toBe(formatDurationUs(fcts[1]));
    expect(fcts[1]).not.toBe(mixed.summary.fct_us?.p99);
    expect(c["FCT p50"].note).toBe("2 finite flows completed (collective transfers left out: see the jobs)");
    // the summary's figures mix in the 448 transfers
    expect(mixed.summary.fct_us?.count).toBe(2 + 112);
  });
});

describe("the per-flow rate chart of a collective run", () => {
  const common = { summary: collective.summary, xDomain: [0, 400] as [number, number], fullDomain: [0, 400] as [number, number], onDomain: () => {}, marker: null, warmupUs: 0, focus: null, onFocus: () => {}, exportSubtitle: "", runId: "r" };
  it("draws no transfer and says why", () => {
    const s = collective.series;
    expect(Object.keys(s.flow_rates_gbps).length).toBeGreaterThan(0);
    render(<TimeCharts {...common} series={s} flowsById={new Map()} chartedFlows={Object.keys(s.flow_rates_gbps)} hasJobs />);
    const frame = document.getElementById("chart-rates")!;
    expect(frame.querySelectorAll("path.line")).toHaveLength(0);
    expect(frame).toHaveTextContent(`recorded the rate of only ${Object.keys(s.flow_rates_gbps).length} of them`);
    expect(frame).toHaveTextContent("iteration timelines above show every step");
  });
  it("draws the listed flows of a mixed run and says the transfers are left out", () => {
    const s = mixed.series;
    const byId = new Map(mixed.flows.map((f) => [f.id, f]));
    render(<TimeCharts {...common} series={s} flowsById={byId} chartedFlows={Object.keys(s.flow_rates_gbps)} hasJobs />);
    const frame = document.getElementById("chart-rates")!;
    const legend = [...frame.querySelectorAll(".legend-list li, [data-legend-label]")].map((e) => e.textContent);
    expect(legend.join(" ")).toContain(`${mixed.flows[0].src}->${mixed.flows[0].dst}`);
    expect(screen.getByText(/recorded transfers of collective jobs are left out/)).toHaveTextContent(`The ${Object.keys(s.flow_rates_gbps).length - 2} recorded`);
  });
});
