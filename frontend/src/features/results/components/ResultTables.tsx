import { useMemo } from "react";
import type { FlowRecord } from "../../../lib/api/resultTypes";
import type { PortRow } from "../utils/derive";
import { formatBytes, formatCount, formatDurationUs, formatNumber, formatPercent } from "../../../lib/format";
import { type Column, DataTable } from "./DataTable";

const dash = "—";
const opt = <T,>(v: T | null | undefined, f: (x: T) => string) => (v == null ? dash : f(v));

/** Per-port table: queue depth, utilization, ECN, PFC; a click highlights the port everywhere. */
export function PortTable({ rows, selected, onSelect, hasActive, hasWarmup = true }: {
  rows: PortRow[]; selected: string | null; onSelect: (port: string) => void; hasActive: boolean;
  /** Without a warm-up the "after warm-up" column would repeat "queue max" (issue 22 §4). */
  hasWarmup?: boolean;
}) {
  const columns = useMemo<Column<PortRow>[]>(() => {
    const after = hasWarmup ? "after warm-up" : "whole run (no warm-up)";
    const c: Column<PortRow>[] = [
      { key: "port", label: "port (egress)", value: (r) => r.port, width: "1.6fr" },
      { key: "qmax", label: "queue max", numeric: true, value: (r) => r.queueMax, format: (r) => opt(r.queueMax, formatBytes), title: hasWarmup ? "whole run, warm-up included" : "whole run" },
      ...(hasWarmup ? [{ key: "qmaxw", label: "max after warm-up", numeric: true, value: (r: PortRow) => r.queueMaxAfterWarmup, format: (r: PortRow) => opt(r.queueMaxAfterWarmup, formatBytes) }] : []),
      { key: "qmean", label: "mean", numeric: true, value: (r) => r.queueMean, format: (r) => opt(r.queueMean, formatBytes), title: after },
      { key: "qp99", label: "p99", numeric: true, value: (r) => r.queueP99, format: (r) => opt(r.queueP99, formatBytes), title: `${after}, sampled` },
      { key: "util", label: "utilization", numeric: true, value: (r) => r.utilization, format: (r) => opt(r.utilization, formatPercent), title: hasWarmup ? "after warm-up, whole window" : "whole run" },
    ];
    if (hasActive) c.push({ key: "utila", label: "util. (active)", numeric: true, value: (r) => r.utilizationActive, format: (r) => opt(r.utilizationActive, formatPercent), title: "over the active period (first start to last completion)" });
    c.push(
      { key: "ecn", label: "ECN marks", numeric: true, value: (r) => r.ecnMarks, format: (r) => formatCount(r.ecnMarks) },
      { key: "ps", label: "pauses sent", numeric: true, value: (r) => r.pausesSent, format: (r) => formatCount(r.pausesSent) },
      { key: "pr", label: "pauses recv.", numeric: true, value: (r) => r.pausesReceived, format: (r) => formatCount(r.pausesReceived) },
      { key: "pt", label: "pause time", numeric: true, value: (r) => r.pauseUs, format: (r) => (r.pauseUs ? formatDurationUs(r.pauseUs) : "0") },
    );
    return c;
  }, [hasActive, hasWarmup]);
  return (
    <DataTable
      label="Ports" rows={rows} columns={columns} rowKey={(r) => r.port} selected={selected} onSelect={onSelect}
      filterText={(r) => r.port} initialSort={{ key: "qmax", desc: true }}
    />
  );
}

/** Per-flow table; flows with a recorded rate series can be put on the rate chart. */
export function FlowTable({ flows, selected, onSelect, charted, recorded, onToggleChart }: {
  flows: FlowRecord[];
  selected: string | null;
  onSelect: (id: string) => void;
  charted: Set<string>;
  recorded: Set<string>;
  onToggleChart: (id: string) => void;
}) {
  const hasPath = flows.some((f) => f.path && f.path.length);
  const hasErd = flows.some((f) => f.erd);
  const columns = useMemo<Column<FlowRecord>[]>(() => {
    // numeric ids: the sort key of 100,000 rows without making 200,000 strings
    const [chartedIds, recordedIds] = [new Set([...charted].map(Number)), new Set([...recorded].map(Number))];
    const c: Column<FlowRecord>[] = [
      {
        key: "chart", label: "chart", width: "56px", value: (f) => (chartedIds.has(f.id) ? 0 : recordedIds.has(f.id) ? 1 : 2),
        format: (f) => recorded.has(String(f.id)) ? (
          <input type="checkbox" aria-label={`Chart flow ${f.id}`} checked={charted.has(String(f.id))} onClick={(e) => e.stopPropagation()} onChange={() => onToggleChart(String(f.id))} />
        ) : <span className="hint" title="no rate series recorded for this flow (monitor.flows)">·</span>,
      },
      { key: "id", label: "flow", numeric: true, width: "64px", value: (f) => f.id },
      { key: "pair", label: "src -> dst", value: (f) => `${f.src}->${f.dst}`, width: "1.4fr" },
      { key: "size", label: "size", numeric: true, value: (f) => f.size_bytes, format: (f) => (f.size_bytes ? formatBytes(f.size_bytes) : "long-lived") },
      { key: "start", label: "start", numeric: true, value: (f) => f.start_us, format: (f) => formatDurationUs(f.start_us) },
      { key: "fct", label: "FCT", numeric: true, value: (f) => f.fct_us, format: (f) => opt(f.fct_us, formatDurationUs) },
      { key: "slow", label: "slowdown", numeric: true, value: (f) => f.slowdown, format: (f) => opt(f.slowdown, (v) => `${formatNumber(v)}×`) },
      { key: "good", label: "goodput", numeric: true, value: (f) => f.goodput_gbps, format: (f) => `${formatNumber(f.goodput_gbps)} Gbit/s` },
      { key: "retx", label: "retransmits", numeric: true, value: (f) => f.retransmits ?? null, format: (f) => opt(f.retransmits, formatCount) },
    ];
    if (hasErd) {
      c.push(
        { key: "nacks", label: "NACKs (erd)", numeric: true, value: (f) => f.erd?.nacks_sent ?? null, format: (f) => opt(f.erd?.nacks_sent, formatCount), title: "NACK frames the receiver's bitmap scans sent" },
        { key: "ooo", label: "out of order", numeric: true, value: (f) => f.erd?.out_of_order_arrivals ?? null, format: (f) => opt(f.erd?.out_of_order_arrivals, formatCount), title: "arrivals below the highest PSN already seen" },
        { key: "reorder", label: "max reorder", numeric: true, value: (f) => f.erd?.max_reorder_packets ?? null, format: (f) => opt(f.erd?.max_reorder_packets, formatCount), title: "most packets held undelivered at once (packets)" },
      );
    }
    if (hasPath) c.push({ key: "path", label: "path", value: (f) => (f.path ?? []).join(" "), width: "2fr" });
    return c;
  }, [charted, recorded, onToggleChart, hasPath, hasErd]);
  return (
    <DataTable
      label="Flows" rows={flows} columns={columns} rowKey={(f) => String(f.id)} selected={selected} onSelect={onSelect}
      filterText={(f) => `${f.id} ${f.src}->${f.dst}`} initialSort={{ key: "chart", desc: false }}
    />
  );
}
