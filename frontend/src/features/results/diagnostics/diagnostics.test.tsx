import { render, screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { AcceleratorPanel } from "./AcceleratorPanel";
import { DeadlockPanel } from "./DeadlockPanel";
import { PingmeshMatrix } from "./PingmeshMatrix";
import { TransportPanel } from "./TransportPanel";
import type { FaultReport, PingmeshReport, RttStats } from "./types";

const stats = (p99: number | null, count = 10): RttStats => ({ count, p50_us: p99 === null ? null : p99 / 2, p99_us: p99, p999_us: p99, max_us: p99 });

describe("DeadlockPanel", () => {
  it("names the cycle, its priority and when it formed", () => {
    const faults: FaultReport = {
      events: [], drops: { link_loss: 0, link_down: 0, pfc_watchdog: 0, nic_rx_overflow: 0 },
      switch_watchdog_triggers: 0, nic_watchdog_triggers: 0,
      deadlocks: [{ ports: ["s0->s1", "s1->s2", "s2->s0"], priority: 3, formed_us: 206.4, detected_us: 3000 }],
    };
    render(<DeadlockPanel faults={faults} />);
    const alert = screen.getByRole("alert");
    expect(alert.textContent).toContain("s0->s1 → s1->s2 → s2->s0 → s0");
    expect(alert.textContent).toContain("priority 3");
    expect(alert.textContent).toContain("206.4 us");
  });

  it("lists fault events and drops when there is no deadlock", () => {
    render(<DeadlockPanel faults={{ events: [{ t_us: 425, event: "switch_watchdog", target: "leaf1->h7", priority: 3 }],
      drops: { pfc_watchdog: 2098, link_down: 0 }, switch_watchdog_triggers: 1, nic_watchdog_triggers: 1, deadlocks: [] }} />);
    expect(screen.queryByRole("alert")).toBeNull();
    expect(screen.getByText("No PFC deadlock was found.")).toBeTruthy();
    expect(screen.getByText("leaf1->h7")).toBeTruthy();
    expect(screen.getByText(/pfc_watchdog 2098/)).toBeTruthy();
  });
});

describe("PingmeshMatrix", () => {
  const report: PingmeshReport = {
    probes_sent: 40, probes_delivered: 39, probes_unanswered: 2,
    rtt: stats(300), idle: stats(8.6), loaded: stats(394),
    scopes: { tor: stats(21), podset: stats(395), fabric: stats(null, 0) },
    pairs: [],
    tor_matrix: [
      { src_tor: "leaf0", dst_tor: "leaf0", ...stats(21) },
      { src_tor: "leaf0", dst_tor: "leaf1", ...stats(376) },
      { src_tor: "leaf1", dst_tor: "leaf0", ...stats(396) },
    ],
  };

  it("puts p99 per ToR pair in the matrix, empty where no probe went", () => {
    render(<PingmeshMatrix pingmesh={report} />);
    // the summary card counts delivered probes; the panel says delivered and answered both
    expect(screen.getByRole("heading", { level: 3 }).textContent).toBe(
      "RDMA Pingmesh (40 probes: 39 delivered, 38 answered with an RTT, 2 without an answer by the end of the run)");
    expect(screen.getByTestId("pm-leaf0-leaf1").textContent).toBe("376");
    expect(screen.getByTestId("pm-leaf1-leaf1").textContent).toBe("–");
    // the hottest cell is the darkest (highest p99)
    const hot = screen.getByTestId("pm-leaf1-leaf0").style.background;
    const cool = screen.getByTestId("pm-leaf0-leaf0").style.background;
    expect(hot).not.toBe(cool);
  });

  it("shows idle vs under-load percentiles", () => {
    render(<PingmeshMatrix pingmesh={report} />);
    const idle = screen.getByText("idle").closest("tr")!;
    const loaded = screen.getByText("under load").closest("tr")!;
    expect(idle.textContent).toContain("8.6");
    expect(loaded.textContent).toContain("394");
  });
});

describe("AcceleratorPanel", () => {
  it("lists each edge's pseudo-ACKs, resends and held bytes", () => {
    const edge = { pseudo_acks: 15163, absorbed_acks: 12149, retransmitted_packets: 4117, retransmit_timeouts: 0,
      passed_unheld_packets: 0, max_held_bytes: 12532212, held_bytes_at_end: 0 };
    render(<AcceleratorPanel report={{ buffer_bytes: 268435456, retransmit_timeout_us: 2100,
      edges: { "a-dci": edge, "b-dci": { ...edge, pseudo_acks: 0, retransmitted_packets: 0 } } }} />);
    const row = screen.getAllByRole("row").find((r) => r.textContent?.startsWith("a-dci"))!;
    const cells = [...row.querySelectorAll("td")].map((c) => c.textContent);
    expect(cells).toEqual(["a-dci", "15,163", "12,149", "4,117", "0", "0", "12.53 MB", "0 MB"]);
    expect(screen.getByText(/268.44 MB/)).toBeTruthy();
  });
});

describe("TransportPanel", () => {
  const nic = (host: string, misses: number) => ({
    host, transport: "xrc", processes: 8, qps_per_nic: 128, qp_contexts_used: 1, qp_cache_entries: 64, qp_cache_misses: misses,
  });

  it("states the QPs a NIC needs and groups hosts with equal figures", () => {
    const nics = [nic("h0", 1), ...Array.from({ length: 14 }, (_, i) => nic(`h${i + 1}`, 2)), nic("h15", 1)];
    render(<TransportPanel report={{ hosts: 16, max_qps_per_nic: 128, qp_cache_misses: 30, nics }} />);
    expect(screen.getByText(/other 15 hosts a NIC needs up to 128 QPs/)).toBeTruthy();
    expect(screen.getByText(/30 misses in all/)).toBeTruthy();
    const first = screen.getByTestId("qp-h0");
    expect(first.textContent).toContain("h0, h15");
    expect(screen.getByTestId("qp-h1").textContent).toContain("h1, h2, h3 … h14 (14)");
    expect(screen.getAllByRole("row")).toHaveLength(3); // header + two groups
  });
});

describe("findings in the run report", () => {
  it("carries a deadlock panel's words and fault log into the report as text", async () => {
    const { collectFindings } = await import("../../../lib/report/collect");
    const { buildReportHtml } = await import("../utils/report");
    const { container } = render(<DeadlockPanel faults={{
      events: [{ t_us: 450, event: "switch_watchdog", target: "s0->s1", priority: 3 }], drops: { pfc_watchdog: 15735 },
      switch_watchdog_triggers: 15, nic_watchdog_triggers: 0,
      deadlocks: [{ ports: ["s0->s1", "s1->s2", "s2->s0"], priority: 3, formed_us: 206.4, detected_us: 3000 }],
    }} />);
    const findings = collectFindings(container);
    expect(findings).toHaveLength(1);
    expect(findings[0].title).toBe("Faults, watchdogs and deadlocks");
    expect(findings[0].lines[0]).toContain("PFC deadlock on priority 3: s0->s1 → s1->s2 → s2->s0 → s0 (formed at 206.4 us");
    expect(findings[0].lines[1]).toBe("Switch watchdog triggers: 15 · NIC watchdog triggers: 0 · Fault drops: pfc_watchdog 15735");
    expect(findings[0].tables[0].rows).toEqual([["time", "event", "where", "priority"], ["450 us", "switch_watchdog", "s0->s1", "3"]]);
    const html = buildReportHtml({ title: "ring", runId: "r1", runInfo: {}, cards: [], charts: [], images: [], notes: [], findings, generatedAt: "now" });
    expect(html).toContain("<h2>Findings</h2>");
    expect(html).toContain("s0-&gt;s1 → s1-&gt;s2");
    expect(html).toContain("<th>450 us</th><td>switch_watchdog</td><td>s0-&gt;s1</td><td>3</td>");
  });
});
