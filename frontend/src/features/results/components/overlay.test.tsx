import { fireEvent, render, screen } from "@testing-library/react";
import { interpolateViridis } from "d3-scale-chromatic";
import { TopologyOverlay } from "./TopologyOverlay";
import { UNRECORDED_LINK, availableMetrics, contendedLinks, jobLinkSummary, overlayColors } from "../utils/overlay";
import type { Job, ResultSummary } from "../../../lib/api/resultTypes";
import type { LayoutGraph } from "../../../lib/topology/types";

// A 2-leaf fabric: h0 - leaf0 - spine0 - leaf1 - h1, plus a link no port of which was active.
const links = [
  { id: 0, a: "h0", b: "leaf0", rate_gbps: 100 },
  { id: 1, a: "leaf0", b: "spine0", rate_gbps: 100 },
  { id: 2, a: "spine0", b: "leaf1", rate_gbps: 100 },
  { id: 3, a: "leaf1", b: "h1", rate_gbps: 100 },
];
const graph: LayoutGraph = {
  nodes: ["h0", "leaf0", "spine0", "leaf1", "h1"].map((id, i) => ({
    id, kind: id.startsWith("h") ? "host" : "switch", tier: id.startsWith("h") ? 0 : id.startsWith("leaf") ? 1 : 2, group: "", x: i * 10, y: 0,
  })),
  links,
} as unknown as LayoutGraph;

const base = { throughput_gbps: 90, max_queue_bytes: 1000, ecn_marked_packets: 60, pfc_pauses_sent: 7, drops: { total: 0 } };
const withCounts: ResultSummary = {
  ...base,
  link_utilization: [
    { link: "h0->leaf0", utilization: 0.95, ecn_marked_packets: 0, pauses_received: 5 },
    { link: "leaf0->spine0", utilization: 0.5, ecn_marked_packets: 20, pauses_received: 2 },
    { link: "spine0->leaf0", utilization: 0.1, ecn_marked_packets: 20, pauses_received: 0 },
    { link: "leaf1->h1", utilization: 0.25, ecn_marked_packets: 10, pauses_received: 0 },
  ],
};
const legacy: ResultSummary = { ...base, link_utilization: [{ link: "h0->leaf0", utilization: 0.5 }] };

describe("overlay colours per metric", () => {
  it("sums ECN marks of both directions and scales them from 0 to the busiest link", () => {
    const o = overlayColors("ecn", links, withCounts, undefined, 0);
    expect(o.values).toEqual([0, 40, null, 10]);
    expect(o.color.domain()).toEqual([0, 40]);
    expect(o.stroke[0]).toBe(interpolateViridis(0));
    expect(o.stroke[1]).toBe(interpolateViridis(1));
    expect(o.stroke[2]).toBe(UNRECORDED_LINK);
    expect(o.stroke[3]).toBe(interpolateViridis(0.25));
  });

  it("colours pauses received and keeps utilization on a fixed 0..100 % viridis scale", () => {
    const p = overlayColors("pauses_received", links, withCounts, undefined, 0);
    expect(p.values).toEqual([5, 2, null, 0]);
    expect(p.stroke[0]).toBe(interpolateViridis(1));
    const u = overlayColors("utilization", links, withCounts, undefined, 0);
    expect(u.values).toEqual([0.95, 0.5, null, 0.25]);
    expect(u.color.domain()).toEqual([0, 1]);
    expect(u.stroke[1]).toBe(interpolateViridis(0.5));
    expect(u.spec.format(0.95)).toBe("95 %");
  });

  it("offers the per-link counts only when the result has them", () => {
    expect(availableMetrics(withCounts, undefined)).toEqual(["utilization", "ecn", "pauses_received", "pauses"]);
    expect(availableMetrics(legacy, undefined)).toEqual(["utilization", "pauses"]);
  });

  it("switches the legend with the metric", () => {
    render(<TopologyOverlay graph={graph} summary={withCounts} />);
    expect(screen.getByRole("img", { name: "Legend: Link utilization after warm-up, busier direction (%) from 0 % to 100 %" })).toBeInTheDocument();
    fireEvent.change(screen.getByLabelText(/Colour links by/), { target: { value: "ecn" } });
    expect(screen.getByRole("img", { name: "Legend: ECN-marked packets, both directions (packets) from 0 to 40" })).toBeInTheDocument();
    expect(screen.getByText("leaf0 – spine0: 40")).toBeInTheDocument();
    fireEvent.change(screen.getByLabelText(/Colour links by/), { target: { value: "pauses_received" } });
    expect(screen.getByRole("img", { name: /Legend: PFC pause frames received.* from 0 to 5$/ })).toBeInTheDocument();
  });

  it("falls back to utilization for an older result", () => {
    render(<TopologyOverlay graph={graph} summary={legacy} />);
    const options = Array.from(screen.getByLabelText(/Colour links by/).querySelectorAll("option")).map((o) => o.value);
    expect(options).toEqual(["utilization", "pauses"]);
    expect(screen.getByText(/need a result that records them/)).toBeInTheDocument();
  });
});

describe("overlay over the active period (defect 6) and its clock (defect 7)", () => {
  // 1,000 us run, no warm-up, flows active from 0 to 380 us: a link 38 % busy over the window was saturated.
  const windows = { endUs: 1000, warmupUs: 0, active: { startUs: 0, endUs: 380 } };
  const busy: ResultSummary = { ...base, link_utilization: [{ link: "leaf0->spine0", utilization: 0.38, ecn_marked_packets: 0, pauses_received: 0 }] };

  it("opens on utilization over the active period and says which window it shows", () => {
    render(<TopologyOverlay graph={graph} summary={busy} windows={windows} />);
    expect((screen.getByLabelText(/Colour links by/) as HTMLSelectElement).value).toBe("utilization_active");
    expect(screen.getByText("leaf0 – spine0: 100 %")).toBeInTheDocument();
    expect(screen.getByText(/Utilization over the active period 0 us – 380 us/)).toBeInTheDocument();
    fireEvent.change(screen.getByLabelText(/Colour links by/), { target: { value: "utilization" } });
    expect(screen.getByText("leaf0 – spine0: 38 %")).toBeInTheDocument();
  });

  it("starts the queue-at-t scrubber where the fullest queue peaks, not at t = 0", () => {
    const series = { interval_us: 10, t_us: [0, 10, 20, 30, 40], queues: { "leaf0->spine0": [0, 0, 0, 900, 100] }, flow_rates_gbps: {}, pause: {} };
    render(<TopologyOverlay graph={graph} summary={withCounts} series={series} />);
    fireEvent.change(screen.getByLabelText(/Colour links by/), { target: { value: "queue_at_t" } });
    expect((screen.getByLabelText("Time scrubber") as HTMLInputElement).value).toBe("3");
    expect(screen.getByText(/t = 30 us/)).toBeInTheDocument();
  });
});

describe("a collective job's links on the fabric", () => {
  // job A: h0 -> leaf0 -> spine0 -> leaf1 -> h1; job B shares leaf0 -> spine0 only
  const A = { name: "A", hosts: ["h0", "h1"], iterations: [{ index: 0, start_us: 0, end_us: 100 }], links: [
    { link: "h0->leaf0", bytes: 4000, frames: 4 }, { link: "leaf0->spine0", bytes: 4000, frames: 4 },
    { link: "spine0->leaf1", bytes: 4000, frames: 4 }, { link: "leaf1->h1", bytes: 4000, frames: 4 }] } as unknown as Job;
  const B = { name: "B", hosts: ["h0"], iterations: [{ index: 0, start_us: 50, end_us: 150 }], links: [{ link: "leaf0->spine0", bytes: 1000, frames: 1 }, { link: "spine0->leaf0", bytes: 500, frames: 1 }] } as unknown as Job;
  const kindOf = (id: string) => (id.startsWith("h") ? "host" as const : "switch" as const);

  it("colours each link by the job's bytes and names the links it shared, with whom", () => {
    expect(availableMetrics(withCounts, undefined, null, [A, B])).toContain("job_bytes");
    expect(availableMetrics(withCounts, undefined, null, [])).not.toContain("job_bytes");
    const o = overlayColors("job_bytes", links, withCounts, undefined, 0, null, B.links);
    expect(o.values).toEqual([null, 1500, null, null]); // both directions add up
    const a = jobLinkSummary([A, B], 0, kindOf);
    expect(a.sent).toBe(4000); // each byte once, as it left the NIC: not the sum over its 4 hops
    expect(a.partners).toEqual([{ job: "B", links: 1, concurrent: true }]);
    const later = { ...B, iterations: [{ index: 0, start_us: 100, end_us: 200 }] } as unknown as Job;
    expect(jobLinkSummary([A, later], 0, kindOf).partners).toEqual([{ job: "B", links: 1, concurrent: false }]);
    // drawn thicker: the link where both ran at once, none when B came after A
    expect(contendedLinks(links, a)).toEqual(new Set([1]));
    expect(contendedLinks(links, jobLinkSummary([A, later], 0, kindOf))).toBeUndefined();
    expect(a.betweenSwitches.map((l) => l.link)).toEqual(["leaf0->spine0", "spine0->leaf1"]);
    expect(a.shared).toEqual([{ link: "leaf0->spine0", bytes: 4000, others: [{ job: "B", bytes: 1000 }] }]);
    // the other direction of a shared link is not a shared direction
    expect(jobLinkSummary([A, B], 1, kindOf).shared.map((s) => s.link)).toEqual(["leaf0->spine0"]);
  });

  it("opens on the job a panel asked for, says what it crossed and shared, and switches jobs", () => {
    const { rerender } = render(<TopologyOverlay graph={graph} summary={withCounts} jobs={[A, B]} jobRequest={null} />);
    expect(screen.queryByTestId("job-links")).toBeNull();
    rerender(<TopologyOverlay graph={graph} summary={withCounts} jobs={[A, B]} jobRequest={{ index: 0, seq: 1 }} />);
    expect(screen.getByRole("combobox", { name: /Colour links by/ })).toHaveValue("job_bytes");
    const note = screen.getByTestId("job-links");
    expect(note).toHaveTextContent("Job A: 4 KB of DATA left its ranks' NICs (its network bytes) and crossed 4 link directions, 2 of them between switches (leaf–spine).");
    expect(note).toHaveTextContent("It shared 1 with job B: job B ran at the same time, so their frames queued together there.");
    expect(note).toHaveTextContent("leaf0 → spine0: A 4 KB, B 1 KB");
    fireEvent.change(screen.getByLabelText("Job shown on the fabric"), { target: { value: "1" } });
    expect(screen.getByTestId("job-links")).toHaveTextContent("Job B:");
    expect(screen.getByText("not crossed by the job")).toBeInTheDocument();
  });
});
