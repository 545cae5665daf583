import { describe, expect, it } from "vitest";
import type { FlowRecord, ResultSummary } from "../../../lib/api/resultTypes";
import { summaryCards } from "../components/SummaryCards";
import { runWindows } from "./derive";
import { probeGenerators, splitProbes } from "./probes";

// The three-tier preset's shape: 16 long-lived flows (traffic 0) and 80 pingmesh probes (traffic
// 1) of which 42 were delivered; the simulator's FCT statistics leave the probes out (count 0).
const scenario = { traffic: [{ kind: "pairs" }, { kind: "pingmesh", hosts: ["h0", "h4"] }] };
const flow = (id: number, generator: number, size: number, fct: number | null): FlowRecord => ({
  id, generator, src: `h${id % 16}`, dst: `h${(id + 4) % 16}`, size_bytes: size, start_us: id, fct_us: fct,
  ideal_fct_us: fct == null ? null : 4, slowdown: fct == null ? null : fct / 4, bytes_delivered: size, goodput_gbps: 1,
});
const flows = [
  ...Array.from({ length: 16 }, (_, i) => flow(i, 0, 0, null)),
  ...Array.from({ length: 80 }, (_, i) => flow(16 + i, 1, 512, i < 42 ? 5 + i * 12 : null)),
];
const summary: ResultSummary = {
  throughput_gbps: 184.2, max_queue_bytes: 1_625_000, ecn_marked_packets: 0, pfc_pauses_sent: 0, drops: { total: 0 },
  fct_us: { count: 0, mean: null, p50: null, p99: null }, slowdown: { count: 0, p50: null, p99: null }, flows_total: 96, flows_completed: 42,
} as unknown as ResultSummary;

describe("pingmesh probes are not data flows", () => {
  it("finds the pingmesh traffic entries and splits their flows off", () => {
    expect([...probeGenerators(scenario)]).toEqual([1]);
    expect(probeGenerators(undefined).size).toBe(0);
    const split = splitProbes(flows, scenario)!;
    expect(split.data).toHaveLength(16);
    expect([split.probes, split.probesDelivered]).toEqual([80, 42]);
    expect(splitProbes(flows, { traffic: [{ kind: "pairs" }] })!.data).toHaveLength(96);
  });

  it("keeps the FCT cards, which show no value, from naming a probe, and says where the probes went", () => {
    const split = splitProbes(flows, scenario)!;
    const cards = summaryCards(summary, runWindows({ sim_time_ns: 1e6, warmup_ns: 2e5 }, split.data), split.data, undefined,
      { total: split.probes, delivered: split.probesDelivered });
    const card = (label: string) => cards.find((c) => c.label === label)!;
    expect(card("FCT p99").value).toBe("—");
    expect(card("FCT p99").where).toBeUndefined(); // was "flow 35 h3->h7", a probe, beside a dash
    expect(card("Slowdown p99").where).toBeUndefined();
    expect(card("FCT p50").note).toBe("no finite flow completed · pingmesh probes left out");
    expect(card("Flows completed").value).toBe("42 / 96");
    expect(card("Flows completed").note).toBe("16 long-lived flows run to the end (never complete) · 42 of 80 pingmesh probes delivered (left out: see the Pingmesh panel)");
    // the same cards from every flow name a probe: the disagreement this fixes
    expect(summaryCards(summary, runWindows(undefined, flows), flows).find((c) => c.label === "FCT p99")!.where).toMatch(/^flow \d+/);
  });
});

describe("the active period leaves probes out", () => {
  it("ends at the last data flow, not at the last (or an unanswered) probe", () => {
    const data = [flow(0, 0, 1000, 250), flow(1, 0, 1000, 290)]; // start 0/1 us, done by 291 us
    const probes = Array.from({ length: 20 }, (_, i) => ({ ...flow(2 + i, 1, 512, i === 19 ? null : 8), start_us: i * 50 }));
    const info = { sim_time_ns: 1_000_000, warmup_ns: 0 };
    const all = [...data, ...probes];
    expect(runWindows(info, all).active).toBeNull(); // an unanswered probe keeps the period open
    const split = splitProbes(all, { traffic: [{ kind: "pairs" }, { kind: "pingmesh" }] })!;
    expect(runWindows(info, split.data).active).toEqual({ startUs: 0, endUs: 291 });
  });
});
