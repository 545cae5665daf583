// Issue 11, part 2: compare from everywhere (the picker), the overlay and the queue chart as a difference.
import { fireEvent, render, screen, within } from "@testing-library/react";
import { MemoryRouter } from "react-router";
import type { ResultSummary } from "../../../lib/api/resultTypes";
import type { LayoutGraph } from "../../../lib/topology/types";
import type { ComparedRun } from "../api/compare";
import { difference, linkDifference } from "../utils/compare";
import { CompareView } from "../components/CompareView";
import { ComparePicker } from "./ComparePicker";
import { FabricDifference, differenceReadout } from "./FabricDifference";
import { buildCompareReportHtml, tableText } from "../utils/compareReport";

const links = [
  { id: 0, a: "h0", b: "leaf0", rate_gbps: 100 },
  { id: 1, a: "leaf0", b: "spine0", rate_gbps: 100 },
  { id: 2, a: "spine0", b: "leaf1", rate_gbps: 100 },
];
const graph = {
  nodes: ["h0", "leaf0", "spine0", "leaf1"].map((id, i) => ({ id, kind: id.startsWith("h") ? "host" : "switch", tier: i, group: "", x: i * 10, y: 0 })),
  links,
} as unknown as LayoutGraph;
const summary = (util: Record<string, number>, ecn: Record<string, number> = {}): ResultSummary => ({
  throughput_gbps: 90, max_queue_bytes: 1000, ecn_marked_packets: 0, pfc_pauses_sent: 0, drops: { total: 0 },
  link_utilization: Object.entries(util).map(([link, utilization]) => ({ link, utilization, ecn_marked_packets: ecn[link] ?? 0 })),
} as unknown as ResultSummary);

describe("differences", () => {
  it("pointwise B - A, a missing sample as zero", () => {
    expect(difference([1, 5, 2], [4, 5, 0, 7])).toEqual([3, 0, -2, 7]);
  });
  it("per link: null only where neither run recorded it", () => {
    expect(linkDifference([0.5, null, null], [0.75, 0.25, null])).toEqual([0.25, 0.25, null]);
  });
});

describe("FabricDifference", () => {
  it("lists the links that changed most with signed values, per metric", () => {
    const a = summary({ "h0->leaf0": 0.9, "leaf0->spine0": 0.2 }, { "leaf0->spine0": 10 });
    const b = summary({ "h0->leaf0": 0.5, "leaf0->spine0": 0.6, "spine0->leaf1": 0.1 }, { "leaf0->spine0": 4 });
    render(<FabricDifference graph={graph} summaries={[a, b]} />);
    const list = screen.getByRole("list", { name: "Largest differences" });
    // utilization: leaf0-spine0 +40 %, h0-leaf0 -40 %, spine0-leaf1 +10 %
    expect(within(list).getAllByRole("listitem").map((li) => li.textContent)).toEqual(["h0 – leaf0: −40 %", "leaf0 – spine0: +40 %", "spine0 – leaf1: +10 %"]);
    expect(screen.getByRole("img", { name: /Legend: B − A/ })).toBeInTheDocument();
    fireEvent.change(screen.getByLabelText("Difference metric"), { target: { value: "ecn" } });
    // ECN marks: 4 - 10 on leaf0->spine0
    expect(within(screen.getByRole("list", { name: "Largest differences" })).getByText("leaf0 – spine0: −6")).toBeInTheDocument();
  });
});

describe("the hover readout of a link", () => {
  const pct = (v: number) => `${Math.round(v * 100)} %`;
  it("gives both runs' values and the signed difference", () => {
    expect(differenceReadout({ a: "leaf0", b: "spine0" }, 0.2, 0.6, "B", pct)).toBe("leaf0 – spine0: A 20 %, B 60 %, B − A +40 %");
    expect(differenceReadout({ a: "h0", b: "leaf0" }, 0.9, 0.5, "C", pct)).toBe("h0 – leaf0: A 90 %, C 50 %, C − A −40 %");
  });
  it("says which run did not record the link, and a dash when neither did", () => {
    expect(differenceReadout({ a: "x", b: "y" }, null, 0.1, "B", pct)).toBe("x – y: A not recorded, B 10 %, B − A +10 %");
    expect(differenceReadout({ a: "x", b: "y" }, null, null, "B", pct)).toBe("x – y: A not recorded, B not recorded, B − A —");
  });
});

describe("ComparePicker", () => {
  const runs = [
    { runId: "r1", label: "this scenario · seed 1", scenarioId: "s", seed: 1 },
    { runId: "r2", label: "this scenario · seed 2", scenarioId: "s", seed: 2 },
    { runId: "r3", label: "parent · seed 1", scenarioId: "p", seed: 1 },
  ];
  it("opens the ticked runs in /compare, and seeds of one scenario in /seeds", () => {
    render(<MemoryRouter><ComparePicker title="History" runs={runs} initial={["r1"]} /></MemoryRouter>);
    expect(screen.queryByTestId("compare-selected")).toBeNull();
    fireEvent.click(screen.getByLabelText("Compare this scenario · seed 2"));
    expect(screen.getByTestId("compare-selected")).toHaveAttribute("href", "/compare?runs=r1,r2");
    expect(screen.getByRole("link", { name: "Mean over 2 seeds" })).toHaveAttribute("href", "/seeds?runs=r1,r2");
    fireEvent.click(screen.getByLabelText("Compare parent · seed 1"));
    expect(screen.getByTestId("compare-selected")).toHaveAttribute("href", "/compare?runs=r1,r2,r3");
    expect(screen.queryByRole("link", { name: /Mean over/ })).toBeNull(); // two scenarios: not one result
  });
});

describe("CompareView queue chart as a difference", () => {
  const t = [0, 10, 20];
  const run = (id: string, q: number[]): ComparedRun => ({
    id, loading: false, run: { id, seed: 1, scenario_id: id } as ComparedRun["run"], scenario: { name: id, scenario: {} },
    runInfo: {}, summary: summary({}), flows: [],
    series: { interval_us: 10, t_us: t, queues: { "leaf0->h0": q }, flow_rates_gbps: {}, pause: {} },
  });
  it("toggles to X − A lines with a zero line", () => {
    const { container } = render(<MemoryRouter><CompareView runs={[run("a", [0, 100, 50]), run("b", [0, 40, 80])]} candidates={[]} onAdd={() => {}} onRemove={() => {}} /></MemoryRouter>);
    const chart = screen.getByRole("region", { name: "Deepest watched queue of each run (bytes)" });
    expect(chart.querySelectorAll("path.series-line")).toHaveLength(2);
    fireEvent.click(within(chart).getByLabelText("Show as difference from A"));
    const lines = chart.querySelectorAll("path.series-line");
    expect(lines).toHaveLength(1);
    expect(lines[0].getAttribute("data-series")).toBe("B − A");
    expect(chart.querySelector("line.zero-line")).not.toBeNull(); // -60 at t = 10
    expect(container.querySelector('[data-testid="fabric-difference"]')).toBeNull(); // no fabric given
  });
});

describe("the comparison report", () => {
  it("holds each run's version and hash, the tables as text, escaped, and nothing external", () => {
    const html = buildCompareReportHtml({
      title: "Comparison of 2 runs: incast vs <fork>",
      runs: [
        { letter: "A", id: "r1", scenarioName: "incast", seed: 1, simulator: "fabricsim 1.2.3", scenarioSha256: "a".repeat(64) },
        { letter: "B", id: "r2", scenarioName: "<fork>", seed: 1, simulator: "fabricsim 1.2.3", scenarioSha256: "b".repeat(64) },
      ],
      summary: [["metric", "A", "B"], ["Max queue (whole run)", "335.6 KB", "42.48 KB −293.1 KB (−87.34 %)"]],
      differences: [["parameter", "A", "B"], ["switch.ecn.kmax_bytes", "200000", "5500"]],
      charts: [{ title: "queues", svg: '<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg"><path class="series-line" d="M0,0L1,1"/></svg>' }],
      images: [], generatedAt: "2026-11-23T00:00:00Z",
    });
    expect(html).toContain("a".repeat(64));
    expect(html).toContain("b".repeat(64));
    expect(html).toContain("<th>switch.ecn.kmax_bytes</th><td>200000</td><td>5500</td>");
    expect(html).toContain("<td>42.48 KB −293.1 KB (−87.34 %)</td>");
    expect(html).toContain("&lt;fork&gt;");
    expect(html).not.toContain("<fork>");
    expect(html).not.toContain("<?xml");
    expect(html).not.toMatch(/<script|src="http|href="http/);
  });
  it("reads a rendered table's text row by row", () => {
    const { container } = render(<table><thead><tr><th>metric</th><th>A</th></tr></thead><tbody><tr><th>FCT  p99</th><td>1 <small>+2</small></td></tr></tbody></table>);
    expect(tableText(container.querySelector("table"))).toEqual([["metric", "A"], ["FCT p99", "1 +2"]]);
  });
});

describe("a comparison of runs that do not exist (issue 22 §4)", () => {
  it("says none could be loaded, never that the scenarios are identical", () => {
    const runs = ["zzz", "yyy"].map((id) => ({ id, loading: false, error: new Error(`run '${id}' not found`) })) as ComparedRun[];
    render(<MemoryRouter><CompareView runs={runs} candidates={[]} onAdd={() => {}} onRemove={() => {}} /></MemoryRouter>);
    expect(screen.queryByText(/scenarios are identical/)).toBeNull();
    expect(screen.getByText(/None of these runs could be loaded/)).toBeInTheDocument();
  });
});
