// Issue 11: one test (at least) per defect found in the results page, plus tables, comparison, report.
import { useState } from "react";
import { fireEvent, render, screen, within } from "@testing-library/react";
import { MemoryRouter } from "react-router";
import type { FlowRecord, ResultSeries, ResultSummary } from "../../../lib/api/resultTypes";
import { formatDurationUs, formatWallS } from "../../../lib/format";
import { placeLabels, stretchToAspect, fitView } from "../../../lib/topology/draw";
import { composeExport } from "../../../lib/charts/save";
import { activeDomain, activeUtilization, maxQueue, runWindows } from "../utils/derive";
import { delta, scenarioDiff } from "../utils/compare";
import { buildReportHtml } from "../utils/report";
import { summaryCards, SummaryCards } from "./SummaryCards";
import { LineChart, visibleMax } from "./LineChart";
import { TimeCharts } from "./TimeCharts";
import { DataTable } from "./DataTable";
import { FlowTable, PortTable } from "./ResultTables";
import { RunLauncher } from "../../runs/components/RunLauncher";
import type { LayoutGraph } from "../../../lib/topology/types";

const flow = (id: number, src: string, dst: string, size: number, start: number, fct: number | null, slowdown: number | null = null): FlowRecord => ({
  id, src, dst, size_bytes: size, start_us: start, fct_us: fct, ideal_fct_us: null, slowdown, bytes_delivered: size, goodput_gbps: 10, retransmits: 0,
});
const base: ResultSummary = { throughput_gbps: 6.1, max_queue_bytes: 1062, ecn_marked_packets: 0, pfc_pauses_sent: 0, drops: { total: 0 } };

describe("defect 1: every card says its port or flow and window, and Max queue agrees with the queue chart", () => {
  // Lab 1 step 3: incast with Kmax 200000. The queue peaks near 330 KB during the 500 us warm-up,
  // then stays near 1 KB; the chart shows the whole run.
  const summary: ResultSummary = {
    ...base, max_queue_bytes_whole_run: 331_240,
    queues: [{ queue: "leaf0->h0", priority: 3, max_bytes: 1062, max_bytes_whole_run: 331_240, mean_bytes: 300, p99_bytes: 1000 }],
  };
  const series: ResultSeries = { interval_us: 10, t_us: [0, 10, 20, 500, 510], queues: { "leaf0->h0": [0, 330_000, 200_000, 1000, 0] }, flow_rates_gbps: {}, pause: {} };
  const w = runWindows({ sim_time_ns: 3_000_000, warmup_ns: 500_000 }, [flow(0, "h2", "h0", 0, 0, null)]);

  it("shows the whole-run maximum the chart shows, names the port and the window, links the chart", () => {
    const card = summaryCards(summary, w, undefined, series).find((c) => c.label === "Max queue")!;
    expect(card.value).toBe("331.2 KB");
    expect(card.where).toBe("leaf0->h0 (priority 3)");
    expect(card.window).toBe("whole run, warm-up included");
    expect(card.note).toContain("1.062 KB after warm-up");
    // issue 22 §4: a run without warm-up (storm, deadlock) says no "warm-up included"
    const cold = summaryCards(summary, runWindows({ sim_time_ns: 3_000_000, warmup_ns: 0 }, undefined), undefined, series).find((c) => c.label === "Max queue")!;
    expect(cold.window).toBe("whole run (no warm-up)");
    expect(cold.note ?? "").not.toContain("warm-up");
    expect(card.href).toBe("#chart-queues");
    // the chart's peak is the card's value to within one sampling interval's worth of change
    const chartPeak = Math.max(...series.queues["leaf0->h0"]);
    expect(chartPeak).toBeLessThanOrEqual(maxQueue(summary).bytes);
    expect(chartPeak / maxQueue(summary).bytes).toBeGreaterThan(0.99);
  });

  it("every card carries a window and a link; an older result says 'after warm-up'", () => {
    const cards = summaryCards({ ...base, queues: [{ queue: "leaf0->h0", priority: 3, max_bytes: 1062, mean_bytes: 1, p99_bytes: 1 }] }, w, undefined, series);
    for (const c of cards) {
      expect(c.window).toMatch(/whole run|after the/);
      expect(c.href).toMatch(/^#(chart|table)-/);
    }
    expect(cards.find((c) => c.label === "Max queue")!.window).toBe("after the 500 us warm-up");
    render(<SummaryCards cards={cards} />);
    expect(screen.getAllByText("→ queue chart")[0].getAttribute("href")).toBe("#chart-queues");
  });

  it("says when the deepest port is not on the chart", () => {
    const other: ResultSeries = { ...series, queues: { "leaf1->h2": [0, 5, 0, 0, 0] } };
    const card = summaryCards(summary, w, undefined, other).find((c) => c.label === "Max queue")!;
    expect(card.note).toContain("not on the queue chart");
    expect(card.href).toBe("#table-ports");
  });
});

describe("defect 2: the charts say how the simulator chose what they show", () => {
  it("prints the selection of queues, flows and ports", () => {
    const s: ResultSeries = {
      interval_us: 10, t_us: [0, 10], queues: { "spine1->leaf3": [0, 1_148_000] }, flow_rates_gbps: { "4": [0, 50] }, pause: {},
      selection: { queues: "auto: the 1 deepest of 9 switch egress queues", flows: "auto: the 1 of 16 long-lived flows with the lowest goodput", ports: "auto: no port was paused or sent a pause frame during the run" },
    };
    render(
      <TimeCharts series={s} summary={base} flowsById={new Map([[4, flow(4, "h1", "h9", 0, 0, null)]])} chartedFlows={["4"]} xDomain={[0, 10]} fullDomain={[0, 10]}
        onDomain={() => {}} marker={null} warmupUs={0} focus={null} onFocus={() => {}} exportSubtitle="run x" runId="x" />,
    );
    expect(screen.getByText(/Watched queues: auto: the 1 deepest of 9 switch egress queues/)).toBeInTheDocument();
    expect(screen.getByText(/Recorded flows: auto: the 1 of 16 long-lived flows/)).toBeInTheDocument();
    expect(screen.getByText("No port was paused during the run (no PFC pause frame was sent).")).toBeInTheDocument();
    expect(screen.getByText("flow 4 h1->h9")).toBeInTheDocument(); // defect 5: src->dst labels
  });
});

describe("defect 3: overlay labels never collide and the drawing fills the panel", () => {
  it("drops labels that would overlap, keeps the switches and the hovered node", () => {
    // 16 hosts 14 px apart: "h10" is ~20 px wide at 11 px, so not all fit.
    const nodes = [
      ...Array.from({ length: 16 }, (_, i) => ({ id: `h${i}`, kind: "host", tier: 0, sx: 20 + i * 14, sy: 200, below: 5 })),
      { id: "leaf0", kind: "switch", tier: 1, sx: 60, sy: 100, below: 8 },
      { id: "leaf1", kind: "switch", tier: 1, sx: 180, sy: 100, below: 8 },
    ];
    const measure = (t: string) => t.length * 6.5;
    const placed = placeLabels(nodes, measure, 11, "h9");
    expect(placed.map((p) => p.id)).toEqual(expect.arrayContaining(["leaf0", "leaf1", "h9"]));
    expect(placed.length).toBeLessThan(18);
    const rects = placed.map((p) => ({ x0: p.x - measure(p.id) / 2 - 2, x1: p.x + measure(p.id) / 2 + 2, y: p.y }));
    for (let i = 0; i < rects.length; i += 1)
      for (let j = i + 1; j < rects.length; j += 1)
        if (rects[i].y === rects[j].y) expect(rects[i].x1 <= rects[j].x0 || rects[j].x1 <= rects[i].x0).toBe(true);
  });

  it("stretches a 16-host leaf-spine to use most of a 1,400 px panel", () => {
    const nodes = [
      ...Array.from({ length: 16 }, (_, i) => ({ id: `h${i}`, kind: "host" as const, tier: 0, x: 8 + i * 16, y: 240 })),
      ...Array.from({ length: 4 }, (_, i) => ({ id: `leaf${i}`, kind: "switch" as const, tier: 1, x: 32 + i * 64, y: 120 })),
      ...Array.from({ length: 4 }, (_, i) => ({ id: `spine${i}`, kind: "switch" as const, tier: 2, x: 32 + i * 64, y: 0 })),
    ];
    const g: LayoutGraph = { nodes, links: [], width: 256, height: 240 };
    const used = (graph: LayoutGraph) => {
      const v = fitView(graph, 1400, 340);
      const xs = graph.nodes.map((n) => n.x * v.k + v.x);
      return (Math.max(...xs) - Math.min(...xs)) / 1400;
    };
    expect(used(g)).toBeLessThan(0.35); // the reported defect
    expect(used(stretchToAspect(g, 1400, 340))).toBeGreaterThan(0.85);
  });
});

describe("defect 4: human units and honest notes", () => {
  it("formats durations and wall time", () => {
    expect(formatDurationUs(15_220)).toBe("15.2 ms");
    expect(formatDurationUs(820)).toBe("820 us");
    expect(formatDurationUs(2_500_000)).toBe("2.5 s");
    expect(formatWallS(0.012)).toBe("12 ms");
    expect(formatWallS(3.44)).toBe("3.4 s");
  });

  it("shows FCT p99 in ms and the right note under flows completed", () => {
    const w = runWindows({ sim_time_ns: 40_000_000 }, undefined);
    const s = { ...base, fct_us: { count: 16, mean: 9000, p50: 8000, p99: 15_220 }, flows_total: 16, flows_completed: 16 };
    const finite = Array.from({ length: 16 }, (_, i) => flow(i, "h1", "h0", 1000, 0, 100 + i));
    const cards = summaryCards(s, w, finite);
    expect(cards.find((c) => c.label === "FCT p99")!.value).toBe("15.2 ms");
    const done = cards.find((c) => c.label === "Flows completed")!;
    expect(done.value).toBe("16 / 16");
    expect(done.note).toBe("all flows completed");
    const none = summaryCards({ ...base, flows_total: 0, flows_completed: 0 }, w, []).find((c) => c.label === "Flows completed")!;
    expect(none.note).toBe("this scenario has no traffic");
    const lived = summaryCards({ ...base, flows_total: 2, flows_completed: 0 }, w, [flow(0, "h2", "h0", 0, 0, null), flow(1, "h3", "h0", 0, 0, null)]).find((c) => c.label === "Flows completed")!;
    expect(lived.note).toContain("2 long-lived flows run to the end");
  });
});

describe("defect 5: the rate chart opens where the flows are, and flows are chosen in the table", () => {
  it("opens the time axis on the active span", () => {
    // 40 ms run sampled every 10 us; the flows are all done by 1.5 ms
    const t = Array.from({ length: 4001 }, (_, i) => i * 10);
    const rate = t.map((x) => (x >= 100 && x <= 1500 ? 25 : 0));
    const [lo, hi] = activeDomain(t, [{ "0": rate }]);
    expect(lo).toBeGreaterThanOrEqual(0);
    expect(lo).toBeLessThanOrEqual(100);
    expect(hi).toBeGreaterThanOrEqual(1500);
    expect(hi).toBeLessThan(1700);
    // a run busy all the time keeps the whole axis
    expect(activeDomain(t, [{ "0": t.map(() => 1) }])).toEqual([0, 40_000]);
  });

  it("toggles a recorded flow onto the chart from the flows table", () => {
    const toggled: string[] = [];
    render(
      <FlowTable flows={[flow(0, "h1", "h0", 5000, 0, 10, 1.2), flow(1, "h3", "h2", 5000, 0, 30, 3.1)]} selected={null} onSelect={() => {}}
        charted={new Set(["1"])} recorded={new Set(["0", "1"])} onToggleChart={(id) => toggled.push(id)} />,
    );
    fireEvent.click(screen.getByLabelText("Chart flow 0"));
    expect(toggled).toEqual(["0"]);
    expect(screen.getByText("h3->h2")).toBeInTheDocument();
  });
});

describe("defect 6: utilization over the active period", () => {
  it("rescales the after-warm-up figure to the active period", () => {
    const w = runWindows({ sim_time_ns: 1_000_000 }, [flow(0, "h0", "h1", 1e6, 0, 380), flow(1, "h2", "h3", 1e6, 0, 200)]);
    expect(w.active).toEqual({ startUs: 0, endUs: 380 });
    expect(activeUtilization(0.37, w)).toBeCloseTo(0.9737, 3);
    // long-lived flows run to the end: no separate active period
    expect(runWindows({ sim_time_ns: 1_000_000 }, [flow(0, "h0", "h1", 0, 0, null)]).active).toBeNull();
  });
});

describe("defect 7: zoom rescales y, exports carry title, legend and run id, empty fabrics warn", () => {
  const t = [0, 10, 20, 30, 40];
  const series = [{ name: "leaf0->h0", values: [0, 100, 300_000, 2000, 1000] }];
  it("fits the y axis to the visible time range", () => {
    expect(visibleMax(t, series, [0, 40])).toBe(300_000);
    expect(visibleMax(t, series, [31, 40])).toBe(2000);
  });

  it("composes an export with the title, the run id and the legend", () => {
    const { container } = render(
      <section><LineChart t={t} series={series} xDomain={[0, 40]} yLabel="bytes" /></section>,
    );
    const out = composeExport(container.querySelector("section")!, { title: "Queue occupancy (bytes)", subtitle: "run 1234abcd · seed 1" });
    expect(out).not.toBeNull();
    expect(out!.svg).toContain("Queue occupancy (bytes)");
    expect(out!.svg).toContain("run 1234abcd · seed 1");
    expect(out!.svg).toContain(">leaf0-&gt;h0<"); // the legend entry, escaped
    expect(out!.svg).toContain("series-line");
  });

  it("asks before running a fabric with no traffic", () => {
    const runs: number[][] = [];
    render(<RunLauncher busy={false} onRun={(s) => runs.push(s)} warning="This fabric has no traffic" />);
    fireEvent.click(screen.getByRole("button", { name: "Run" }));
    expect(runs).toEqual([]);
    expect(screen.getByRole("alert")).toHaveTextContent("This fabric has no traffic");
    fireEvent.click(screen.getByRole("button", { name: "Run anyway" }));
    expect(runs).toEqual([[1]]);
  });
});

describe("tables: sortable, filterable, virtualised", () => {
  const rows = Array.from({ length: 100_000 }, (_, i) => ({ id: i, v: (i * 7919) % 100_003 }));
  const columns = [
    { key: "id", label: "id", numeric: true, value: (r: { id: number }) => r.id },
    { key: "v", label: "value", numeric: true, value: (r: { v: number }) => r.v },
  ];
  it("renders only the rows in view of 100,000, sorts and filters", { timeout: 60_000 }, () => {
    const picked: string[] = [];
    const { container } = render(<DataTable label="Big" rows={rows} columns={columns} rowKey={(r) => String(r.id)} filterText={(r) => String(r.id)} onSelect={(k) => picked.push(k)} />);
    const body = () => container.querySelectorAll(".dt-body [role=row]");
    expect(body().length).toBeLessThan(40);
    expect(screen.getByTestId("table-count")).toHaveTextContent("100,000 rows");
    fireEvent.click(screen.getByRole("columnheader", { name: "value" })); // numeric: largest first
    expect(within(body()[0] as HTMLElement).getAllByRole("cell")[1]).toHaveTextContent(String(Math.max(...rows.map((r) => r.v))));
    fireEvent.change(screen.getByLabelText("Filter Big"), { target: { value: "99999" } });
    expect(screen.getByTestId("table-count")).toHaveTextContent("1 of 100,000 rows");
    fireEvent.click(body()[0]);
    expect(picked).toEqual(["99999"]);
  });
});

describe("tables: keyboard", () => {
  const rows = Array.from({ length: 50 }, (_, i) => ({ id: i }));
  const columns = [{ key: "id", label: "id", numeric: true, value: (r: { id: number }) => r.id }];
  function Controlled() {
    const [sel, setSel] = useState<string | null>(null);
    return <DataTable label="Keys" rows={rows} columns={columns} rowKey={(r) => String(r.id)} filterText={(r) => String(r.id)} selected={sel} onSelect={setSel} height={26 * 10} />;
  }
  it("arrows, PageDown/PageUp and Home/End move the selection from the focused body", () => {
    const { container } = render(<Controlled />);
    const body = container.querySelector(".dt-body") as HTMLElement;
    expect(body.tabIndex).toBe(0);
    const selected = () => container.querySelector("[role=row][aria-selected=true]")?.getAttribute("data-key");
    fireEvent.keyDown(body, { key: "ArrowDown" });
    expect(selected()).toBe("0");
    fireEvent.keyDown(body, { key: "ArrowDown" });
    fireEvent.keyDown(body, { key: "ArrowDown" });
    fireEvent.keyDown(body, { key: "ArrowUp" });
    expect(selected()).toBe("1");
    fireEvent.keyDown(body, { key: "PageDown" }); // a page is the rows in view less one: 9
    expect(selected()).toBe("10");
    fireEvent.keyDown(body, { key: "PageUp" });
    expect(selected()).toBe("1");
    fireEvent.keyDown(body, { key: "End" });
    expect(selected()).toBe("49");
    expect(body.scrollTop).toBeGreaterThan(0); // scrolled to the selection
    fireEvent.keyDown(body, { key: "Home" });
    expect(selected()).toBe("0");
  });
});

describe("comparison and report", () => {
  it("gives absolute and relative deltas and the parameters that changed", () => {
    expect(delta(20, 25)).toEqual({ abs: 5, rel: 0.25 });
    expect(delta(0, 3)).toEqual({ abs: 3, rel: null });
    const a = { name: "a", switch: { ecn: { kmin_bytes: 5000, kmax_bytes: 5500 } }, traffic: [{ kind: "incast", senders: ["h2", "h3"] }] };
    const b = { name: "b", switch: { ecn: { kmin_bytes: 5000, kmax_bytes: 200000 } }, traffic: [{ kind: "incast", senders: ["h2", "h3"] }] };
    expect(scenarioDiff([a, b])).toEqual([{ path: "switch.ecn.kmax_bytes", values: ["5500", "200000"] }]);
  });

  it("builds a self-contained report with version, hash, cards, charts and parameters", () => {
    const html = buildReportHtml({
      title: "2-to-1 <incast>", runId: "r1", runInfo: { simulator: "fabricsim", version: "0.1.0", engine: "ns-3.37", seed: 1, scenario_sha256: "ab12", sim_time_ns: 3e6, warmup_ns: 5e5 },
      scenario: { switch: { ecn: { kmax_bytes: 200000 } } }, cards: [{ label: "Max queue", value: "331.2 KB", where: "leaf0->h0", window: "whole run" }],
      charts: [{ title: "Queue", svg: '<svg xmlns="http://www.w3.org/2000/svg"><path class="series-line" d="M0,0L1,1"/></svg>' }], images: [], notes: ["Watched queues: auto"], generatedAt: "2026-01-01T00:00:00Z",
    });
    expect(html).toContain("2-to-1 &lt;incast&gt;");
    expect(html).toContain("fabricsim 0.1.0");
    expect(html).toContain("ab12");
    expect(html).toContain("331.2 KB");
    expect(html).toContain("leaf0-&gt;h0");
    expect(html).toContain("switch.ecn.kmax_bytes");
    expect(html).toContain('<path class="series-line"');
    expect(html).not.toMatch(/<script|<link |src="http/);
    expect(html).toContain("@media print");
  });
});

describe("run page pieces", () => {
  it("links each card to its chart inside a router", () => {
    render(<MemoryRouter><SummaryCards cards={summaryCards(base, runWindows(undefined, undefined))} /></MemoryRouter>);
    expect(screen.getAllByRole("link").length).toBeGreaterThan(5);
  });
});

describe("charts stay light with 100,000 flows", () => {
  it("thins a CDF line to 1,000 points by rank, keeping both ends", async () => {
    const { cdfPoints, MAX_CDF_POINTS } = await import("../utils/cdf");
    const sorted = Array.from({ length: 100_000 }, (_, i) => i + 1);
    const p = cdfPoints(sorted);
    expect(p.length).toBeLessThanOrEqual(MAX_CDF_POINTS + 2);
    expect(p[0]).toEqual([1, 0]);
    expect(p[p.length - 1]).toEqual([100_000, 1]);
    // every kept point is exact: value at rank k has fraction k / n
    for (const [v, f] of p.slice(1)) expect(f).toBeCloseTo(v / 100_000, 12);
  });
});

describe("defect 2 (DCI): a queue no sample caught links the table, not an empty chart", () => {
  it("points the Max queue card at the ports table", () => {
    const s: ResultSummary = { ...base, max_queue_bytes: 4158, max_queue_bytes_whole_run: 4158, queues: [{ queue: "a-dci->b-dci", priority: 3, max_bytes: 4158, max_bytes_whole_run: 4158, mean_bytes: 0, p99_bytes: 0 }] };
    const series: ResultSeries = { interval_us: 50, t_us: [0, 50], queues: { "a-dci->b-dci": [0, 0] }, flow_rates_gbps: {}, pause: {} };
    const card = summaryCards(s, runWindows({ sim_time_ns: 5_060_000, warmup_ns: 1_000_000 }, undefined), undefined, series).find((c) => c.label === "Max queue")!;
    expect(card.href).toBe("#table-ports");
    expect(card.note).toContain("held between samples");
  });
});

describe("issue 22 §4: the ports table says 'after warm-up' only when there is one", () => {
  const rows = [{ port: "leaf0->h0", queueMax: 1000, queueMaxAfterWarmup: 1000, queueMean: 10, queueP99: 900, utilization: 0.5, utilizationActive: null, ecnMarks: 0, pausesSent: 0, pausesReceived: 0, pauseUs: 0 }] as unknown as Parameters<typeof PortTable>[0]["rows"];
  it("drops the repeated column and the label without a warm-up", () => {
    const { container, unmount } = render(<PortTable rows={rows} selected={null} onSelect={() => {}} hasActive={false} hasWarmup={false} />);
    expect(container.textContent).not.toMatch(/after warm-up/);
    const titles = [...container.querySelectorAll("[title]")].map((e) => e.getAttribute("title"));
    expect(titles.filter((t) => /after warm-up|warm-up included/.test(t ?? ""))).toEqual([]);
    unmount();
    const warm = render(<PortTable rows={rows} selected={null} onSelect={() => {}} hasActive={false} />);
    expect(warm.container.textContent).toMatch(/max after warm-up/);
  });
});
