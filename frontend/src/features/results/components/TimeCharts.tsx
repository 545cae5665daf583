import { useCallback, useMemo } from "react";
import { ChartFrame } from "../../../components/ChartFrame";
import { Empty } from "../../../components/States";
import type { FlowRecord, ResultSeries, ResultSummary } from "../../../lib/api/resultTypes";
import { flowLabel } from "../utils/derive";
import { formatBytes, formatDurationUs } from "../../../lib/format";
import { LineChart, type NamedSeries } from "./LineChart";
import type { Focus } from "./SummaryCards";

// Pause state of a watched port "a->b" is a bit field (docs/model.md): 1 = a's egress toward b is
// paused, 2 = a (a switch) is sending XOFF toward b.
const pauseFmt = (v: number) => (Number.isInteger(v) ? String(v) : "");
const bytesFmt = (v: number) => (v >= 1e6 ? `${v / 1e6}M` : v >= 1e3 ? `${v / 1e3}K` : `${v}`);
const allZero = (s: NamedSeries[]) => s.every((x) => x.values.every((v) => v === 0));

/** Queue, per-flow rate and pause charts over one shared, zoomable time axis. */
export function TimeCharts({ series: s, summary, flowsById, chartedFlows, xDomain, fullDomain, onDomain, marker, warmupUs, focus, onFocus, exportSubtitle, runId, hasJobs = false }: {
  series: ResultSeries;
  summary: ResultSummary;
  flowsById: Map<number, FlowRecord>;
  chartedFlows: string[];
  xDomain: [number, number];
  fullDomain: [number, number];
  onDomain: (d: [number, number] | null) => void;
  marker: number | null;
  warmupUs: number;
  focus: Focus | null;
  onFocus: (f: Focus) => void;
  exportSubtitle: string;
  runId: string;
  /** The run has collective jobs: their transfers are not listed flows and are not charted. */
  hasJobs?: boolean;
}) {
  const onBrush = useCallback((r: [number, number]) => onDomain(r), [onDomain]);
  const queues = useMemo(() => Object.entries(s.queues).map(([name, values]) => ({ name, values })), [s]);
  // A collective's transfers are recorded like flows but not listed: the monitor keeps the first to
  // start (the first step's), which says nothing of the job, so only listed flows are drawn.
  const listed = (id: string) => !hasJobs || flowsById.has(Number(id));
  const transfersRecorded = hasJobs ? Object.keys(s.flow_rates_gbps).filter((id) => !flowsById.has(Number(id))).length : 0;
  const rates = useMemo(
    () => chartedFlows.filter((id) => id in s.flow_rates_gbps && (!hasJobs || flowsById.has(Number(id))))
      .map((id) => ({ key: id, name: flowLabel(id, flowsById), values: s.flow_rates_gbps[id] })),
    [s, chartedFlows, flowsById, hasJobs],
  );
  const anyListedRecorded = Object.keys(s.flow_rates_gbps).some(listed);
  const pauses = useMemo(() => Object.entries(s.pause).map(([name, values]) => ({ name, values })), [s]);
  const portFocus = focus?.kind === "port" ? focus.id : null;
  const flowFocus = focus?.kind === "flow" ? focus.id : null;
  const zoomed = xDomain[0] !== fullDomain[0] || xDomain[1] !== fullDomain[1];
  const sel = s.selection ?? {};
  const range = `${formatDurationUs(xDomain[0])} – ${formatDurationUs(xDomain[1])}`;
  const actions = (
    <>
      <span className="hint">{range}{zoomed ? " (zoomed)" : ""}</span>
      {zoomed && <button type="button" className="small" onClick={() => onDomain(fullDomain)}>Whole run</button>}
    </>
  );
  const common = { t: s.t_us, xDomain, onBrush, marker, warmupUs };
  return (
    <div className="charts">
      <p className="hint">
        Drag across any chart to zoom all three to that time range (the y axis follows).
        {warmupUs > 0 && ` The shaded start is the ${formatDurationUs(warmupUs)} warm-up, left out of the after-warm-up figures.`}
        {zoomed && " The charts open on the span where something happens."}
      </p>
      <ChartFrame id="chart-queues" title="Queue occupancy (bytes)" filename={`run-${runId}-queues`} subtitle={exportSubtitle} actions={actions}
        note={sel.queues ? `Watched queues: ${sel.queues}.` : undefined}>
        {queues.length === 0 || allZero(queues) ? (
          <Empty>No watched switch queue held data during the run{summary.max_queue_bytes_whole_run ? ` (the deepest queue, ${formatBytes(summary.max_queue_bytes_whole_run)}, is in the ports table)` : ""}.</Empty>
        ) : (
          <LineChart {...common} series={queues} yLabel="bytes" yFormat={bytesFmt} highlight={portFocus} onPick={(k) => onFocus({ kind: "port", id: k })} />
        )}
      </ChartFrame>
      <ChartFrame id="chart-rates" title="Per-flow rate (Gbit/s)" filename={`run-${runId}-rates`} subtitle={exportSubtitle} actions={actions}
        note={<>{sel.flows ? `Recorded flows: ${sel.flows}. ` : ""}Choose flows with the boxes in the <a href="#table-flows">flows table</a>.</>}>
        {rates.length ? (
          <LineChart {...common} series={rates} yLabel="Gbit/s" highlight={flowFocus} onPick={(k) => onFocus({ kind: "flow", id: k })} />
        ) : (
          <Empty>{anyListedRecorded ? "No flow chosen: tick flows in the flows table."
            : hasJobs ? `This run's traffic is collective: its transfers are not charted one by one (the simulator recorded the rate of only ${transfersRecorded} of them, which says nothing of the job). The jobs' iteration timelines above show every step.`
              : "No flow rate was recorded."}</Empty>
        )}
        {rates.length > 0 && transfersRecorded > 0 && (
          <p className="hint">The {transfersRecorded} recorded transfers of collective jobs are left out (a few of many, not listed as flows); the jobs' iteration timelines show their steps.</p>
        )}
      </ChartFrame>
      <ChartFrame id="chart-pause" title="PFC pause state (1 = egress paused, 2 = sending XOFF, 3 = both)" filename={`run-${runId}-pause`} subtitle={exportSubtitle} actions={actions}
        note={sel.ports ? `Watched ports: ${sel.ports}.` : undefined}>
        {pauses.length ? (
          <LineChart {...common} series={pauses} yLabel="pause state" step height={150} yFormat={pauseFmt} yFixedMax={3} yTicks={[0, 1, 2, 3]} highlight={portFocus} onPick={(k) => onFocus({ kind: "port", id: k })} />
        ) : (
          <Empty>{summary.pfc_pauses_sent > 0 ? "No watched port." : "No port was paused during the run (no PFC pause frame was sent)."}</Empty>
        )}
        {summary.pfc_pauses_sent > 0 && pauses.length > 0 && allZero(pauses) && (
          <p className="hint">The watched ports were never paused; the {summary.pfc_pauses_sent} pause frames of this run were sent elsewhere (see the ports table, or watch those ports with monitor.ports).</p>
        )}
      </ChartFrame>
    </div>
  );
}
