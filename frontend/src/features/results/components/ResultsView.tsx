import { useCallback, useMemo, useState } from "react";
import { ChartFrame } from "../../../components/ChartFrame";
import { Empty, ErrorBox, Loading } from "../../../components/States";
import type { LayoutGraph } from "../../../lib/topology/types";
import { useRunFlows, useRunSeries, useRunSummary } from "../api/results";
import { SummaryCards } from "./SummaryCards";
import { LineChart } from "./LineChart";
import { CdfChart } from "./CdfChart";
import { TopologyOverlay } from "./TopologyOverlay";
import { DiagnosticsPanels } from "../diagnostics/DiagnosticsPanels";

// Pause state of a watched port "a->b" is a bit field (docs/model.md): 1 = a's egress toward b is
// paused, 2 = a (a switch) is sending XOFF toward b.
const pauseFmt = (v: number) => (Number.isInteger(v) ? String(v) : "");
const bytesFmt = (v: number) => (v >= 1e6 ? `${v / 1e6}M` : v >= 1e3 ? `${v / 1e3}K` : `${v}`);

/** Everything about one finished run: cards, time series, CDF, overlay, downloads. */
export function ResultsView({ runId, graph }: { runId: string; graph: LayoutGraph | null }) {
  const summary = useRunSummary(runId);
  const series = useRunSeries(runId);
  const flows = useRunFlows(runId);
  const [domain, setDomain] = useState<[number, number] | null>(null);
  const [cdfMetric, setCdfMetric] = useState<"fct_us" | "slowdown">("fct_us");
  const [marker, setMarker] = useState<number | null>(null);
  const s = series.data;
  const full: [number, number] = useMemo(() => (s && s.t_us.length ? [s.t_us[0], s.t_us[s.t_us.length - 1]] : [0, 1]), [s]);
  const xDomain = domain ?? full;
  const onBrush = useCallback((r: [number, number]) => setDomain(r), []);
  const toSeries = (obj: Record<string, number[]> | undefined) => Object.entries(obj ?? {}).map(([name, values]) => ({ name, values }));
  const queues = useMemo(() => toSeries(s?.queues), [s]);
  const rates = useMemo(() => toSeries(s?.flow_rates_gbps).map((x) => ({ ...x, name: `flow ${x.name}` })), [s]);
  const pauses = useMemo(() => toSeries(s?.pause), [s]);

  const warmupUs = Number(summary.data?.runInfo?.warmup_ns ?? 0) / 1000;
  if (summary.isLoading) return <Loading what="Loading results" />;
  if (summary.error) return <ErrorBox error={summary.error} title="Could not load the results" />;
  if (!summary.data) return null;
  const zoomActions = domain && (
    <button type="button" className="small" onClick={() => setDomain(null)}>Reset zoom</button>
  );
  return (
    <div className="results">
      <div className="row downloads">
        <h2>Results</h2>
        <a className="button" href={`/api/v1/runs/${runId}/result`} download={`run-${runId}.json`}>Download result JSON</a>
        <a className="button" href={`/api/v1/runs/${runId}/flows.csv`} download={`run-${runId}-flows.csv`}>Download flows CSV</a>
      </div>
      <SummaryCards summary={summary.data.summary} />
      <DiagnosticsPanels runId={runId} />
      {series.isLoading && <Loading what="Loading time series" />}
      <ErrorBox error={series.error} title="Could not load the time series" />
      {s && s.t_us.length === 0 && <Empty>No samples were recorded (monitor.sample_interval_us).</Empty>}
      {s && s.t_us.length > 0 && (
        <div className="charts">
          <p className="hint">Drag across any chart to zoom all three to that time range.{warmupUs > 0 && ` The shaded start is the ${warmupUs} us warm-up, left out of the summary.`}</p>
          <ChartFrame title="Queue occupancy (bytes)" filename={`run-${runId}-queues`} actions={zoomActions}>
            {queues.length ? <LineChart t={s.t_us} series={queues} xDomain={xDomain} yLabel="bytes" yFormat={bytesFmt} onBrush={onBrush} marker={marker} warmupUs={warmupUs} /> : <Empty>No watched queues.</Empty>}
          </ChartFrame>
          <ChartFrame title="Per-flow rate (Gbit/s)" filename={`run-${runId}-rates`} actions={zoomActions}>
            {rates.length ? <LineChart t={s.t_us} series={rates} xDomain={xDomain} yLabel="Gbit/s" onBrush={onBrush} marker={marker} warmupUs={warmupUs} /> : <Empty>No watched flows.</Empty>}
          </ChartFrame>
          <ChartFrame title="PFC pause state (1 = egress paused, 2 = sending XOFF, 3 = both)" filename={`run-${runId}-pause`} actions={zoomActions}>
            {pauses.length ? <LineChart t={s.t_us} series={pauses} xDomain={xDomain} yLabel="pause state" step height={150} yFormat={pauseFmt} yFixedMax={3} yTicks={[0, 1, 2, 3]} onBrush={onBrush} marker={marker} warmupUs={warmupUs} /> : <Empty>No watched ports.</Empty>}
            {summary.data.summary.pfc_pauses_sent > 0 && pauses.every((p) => p.values.every((v) => v === 0)) && (
              <p className="hint">The watched ports were never paused; the {summary.data.summary.pfc_pauses_sent} pause frames of this run were sent elsewhere (see the overlay, or watch those ports with monitor.ports).</p>
            )}
          </ChartFrame>
        </div>
      )}
      <ChartFrame
        title={`${cdfMetric === "fct_us" ? "FCT" : "Slowdown"} CDF by flow size`}
        filename={`run-${runId}-cdf`}
        actions={
          <select aria-label="CDF metric" value={cdfMetric} onChange={(e) => setCdfMetric(e.target.value as "fct_us" | "slowdown")}>
            <option value="fct_us">FCT</option>
            <option value="slowdown">Slowdown</option>
          </select>
        }
      >
        {flows.data && flows.data.flows.some((f) => f.fct_us !== null) ? (
          <CdfChart flows={flows.data.flows} metric={cdfMetric} />
        ) : (
          <Empty>No finite flow completed (long-lived flows have no FCT).</Empty>
        )}
      </ChartFrame>
      {graph && (
        <ChartFrame title="Fabric overlay" filename={`run-${runId}-fabric`}>
          <TopologyOverlay graph={graph} summary={summary.data.summary} series={s} onTime={setMarker} />
        </ChartFrame>
      )}
    </div>
  );
}
