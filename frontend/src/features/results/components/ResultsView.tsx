import { useCallback, useMemo, useRef, useState } from "react";
import { ChartFrame } from "../../../components/ChartFrame";
import { Empty, ErrorBox, Loading } from "../../../components/States";
import type { LayoutGraph } from "../../../lib/topology/types";
import { useRunFlows, useRunJobs, useRunSeries, useRunSummary } from "../api/results";
import { activeDomain, portRows, runWindows } from "../utils/derive";
import { formatDurationUs } from "../../../lib/format";
import { type Focus, SummaryCards, summaryCards } from "./SummaryCards";
import { EngineNotice } from "./EngineNotice";
import { withFlowError } from "../../../lib/flowError";
import { CdfChart } from "./CdfChart";
import { TopologyOverlay } from "./TopologyOverlay";
import { DiagnosticsPanels } from "../diagnostics/DiagnosticsPanels";
import { JobsSection } from "./JobsSection";
import { TimeCharts } from "./TimeCharts";
import { FlowTable, PortTable } from "./ResultTables";
import { splitProbes } from "../utils/probes";
import { buildReportHtml } from "../utils/report";
import { downloadBlob } from "../../../lib/charts/save";
import { collectFigures, collectFindings } from "../../../lib/report/collect";
import type { RunInfo } from "../../../lib/api/resultTypes";
import type { Card } from "./SummaryCards";
import { acceleratorBadges } from "../../../lib/topology/accelerator";

/** Collects the charts on the page (as standalone SVG) and the fabric picture with its legend into the report. */
async function downloadReport(root: HTMLElement | null, r: { title: string; runId: string; runInfo: RunInfo; scenario?: unknown; cards: Card[]; subtitle: string; notes: string[] }) {
  if (!root) return;
  const { charts, images } = await collectFigures(root, r.subtitle);
  const html = buildReportHtml({ ...r, charts, images, findings: collectFindings(root), generatedAt: new Date().toISOString() });
  downloadBlob(new Blob([html], { type: "text/html" }), `run-${r.runId}-report.html`);
}

/** Everything about one finished run: cards, time series, CDF, overlay, tables, downloads. */
export function ResultsView({ runId, graph, actions, scenario, scenarioName }: {
  runId: string;
  graph: LayoutGraph | null;
  actions?: React.ReactNode;
  /** The scenario document, for the report's parameter table. */
  scenario?: unknown;
  scenarioName?: string;
}) {
  const rootRef = useRef<HTMLDivElement>(null);
  const summary = useRunSummary(runId);
  const series = useRunSeries(runId);
  const flows = useRunFlows(runId);
  const jobs = useRunJobs(runId);
  const [domain, setDomain] = useState<[number, number] | null>(null);
  const [cdfMetric, setCdfMetric] = useState<"fct_us" | "slowdown">("fct_us");
  const [marker, setMarker] = useState<number | null>(null);
  const [focus, setFocus] = useState<Focus | null>(null);
  const [picked, setPicked] = useState<string[] | null>(null);
  // hosts a job panel asked to show on the fabric (its ranks, its slowest transfer's ends)
  const [shown, setShown] = useState<{ ids: string[]; what: string } | null>(null);
  // a job panel's "Show its links": the overlay colours the fabric by that job's bytes per link
  const [jobRequest, setJobRequest] = useState<{ index: number; seq: number } | null>(null);
  const s = series.data;
  const full: [number, number] = useMemo(() => (s && s.t_us.length ? [s.t_us[0], s.t_us[s.t_us.length - 1]] : [0, 1]), [s]);
  // The charts open on the span where something happens, not on an axis that is mostly empty.
  const opening = useMemo(() => (s ? activeDomain(s.t_us, [s.queues, s.flow_rates_gbps, s.pause]) : full), [s, full]);
  const xDomain = domain ?? opening;
  const flowList = flows.data?.flows;
  // the flows the FCT statistics cover: pingmesh probes left out, as in the simulator's summary
  const split = useMemo(() => splitProbes(flowList, scenario), [flowList, scenario]);
  const dataFlows = split?.data;
  const flowsById = useMemo(() => new Map((flowList ?? []).map((f) => [f.id, f])), [flowList]);
  const recorded = useMemo(() => new Set(Object.keys(s?.flow_rates_gbps ?? {})), [s]);
  const charted = picked ?? [...recorded];
  const chartedSet = useMemo(() => new Set(charted), [charted]);
  const toggleChart = useCallback((id: string) => {
    setPicked((p) => {
      const cur = p ?? [...recorded];
      return cur.includes(id) ? cur.filter((x) => x !== id) : [...cur, id];
    });
  }, [recorded]);
  const windows = useMemo(() => runWindows(summary.data?.runInfo, dataFlows), [summary.data, dataFlows]);
  const rows = useMemo(() => (summary.data ? portRows(summary.data.summary, windows) : []), [summary.data, windows]);
  const jobList = jobs.data;
  const cards = useMemo(() => (summary.data ? withFlowError(summaryCards(summary.data.summary, windows, dataFlows, s, { total: split?.probes ?? 0, delivered: split?.probesDelivered ?? 0 }, jobList ?? []), summary.data.flowError) : []), [summary.data, windows, dataFlows, s, split, jobList]);
  const hasJobs = (jobList?.length ?? 0) > 0;
  const hasFiniteFlows = !!dataFlows?.some((f) => f.fct_us !== null);

  if (summary.isLoading) return <Loading what="Loading results" />;
  if (summary.error) return <ErrorBox error={summary.error} title="Could not load the results" />;
  if (!summary.data) return null;
  const info = summary.data.runInfo;
  const exportSubtitle = `run ${runId} · seed ${info.seed ?? "?"} · ${info.simulator ?? "fabricsim"} ${info.version ?? ""} · scenario ${String(info.scenario_sha256 ?? "").slice(0, 12)}`;
  const focusFlow = focus?.kind === "flow" ? flowsById.get(Number(focus.id)) : undefined;

  return (
    <div className="results" ref={rootRef}>
      <div className="row downloads">
        <h2>Results</h2>
        {actions}
        <button type="button" onClick={() => void downloadReport(rootRef.current, {
          title: scenarioName ?? "Run report", runId, runInfo: info, scenario, cards, subtitle: exportSubtitle,
          notes: Object.entries(s?.selection ?? {}).map(([k, v]) => `Watched ${k}: ${v}`),
        })}>Download report (HTML)</button>
        <a className="button" href={`/api/v1/runs/${runId}/result`} download={`run-${runId}.json`}>Download result JSON</a>
        <a className="button" href={`/api/v1/runs/${runId}/flows.csv`} download={`run-${runId}-flows.csv`}>Download flows CSV</a>
      </div>
      <EngineNotice info={info} caveats={summary.data.caveats} flowError={summary.data.flowError} />
      <SummaryCards cards={cards} onFocus={setFocus} />
      <JobsSection runId={runId} subtitle={exportSubtitle} flowError={summary.data.flowError} runEndUs={windows.endUs || undefined} onShowNodes={graph ? (ids, what) => {
        setFocus(null);
        setShown({ ids, what });
        document.getElementById("overlay")?.scrollIntoView?.({ block: "start" });
      } : undefined} onShowLinks={graph ? (index) => {
        setFocus(null);
        setShown(null);
        setJobRequest((r) => ({ index, seq: (r?.seq ?? 0) + 1 }));
        document.getElementById("overlay")?.scrollIntoView?.({ block: "start" });
      } : undefined} />
      <DiagnosticsPanels runId={runId} />
      {windows.active && (
        <p className="hint" data-testid="active-period">
          Active period: {formatDurationUs(windows.active.startUs)} – {formatDurationUs(windows.active.endUs)} of {formatDurationUs(windows.endUs)} (first flow start after warm-up to last completion).
          Utilization is shown over the window after warm-up and over this active period.
        </p>
      )}
      {series.isLoading && <Loading what="Loading time series" />}
      <ErrorBox error={series.error} title="Could not load the time series" />
      {s && s.t_us.length === 0 && <Empty>No samples were recorded (monitor.sample_interval_us).</Empty>}
      {s && s.t_us.length > 0 && (
        <TimeCharts
          series={s} summary={summary.data.summary} flowsById={flowsById} chartedFlows={charted} xDomain={xDomain} fullDomain={full}
          onDomain={setDomain} marker={marker} warmupUs={windows.warmupUs} focus={focus} onFocus={setFocus} exportSubtitle={exportSubtitle} runId={runId} hasJobs={hasJobs}
        />
      )}
      {/* a collective's transfers are not listed flows: without other finite flows there is no CDF to draw */}
      {(hasFiniteFlows || !hasJobs) && <ChartFrame
        id="chart-cdf" title={`${cdfMetric === "fct_us" ? "FCT" : "Slowdown"} CDF by flow size`} filename={`run-${runId}-cdf`} subtitle={exportSubtitle}
        note={split?.probes ? `Pingmesh probes (${split.probes}) are left out, as in the FCT cards and the simulator's summary.` : undefined}
        actions={
          <select aria-label="CDF metric" value={cdfMetric} onChange={(e) => setCdfMetric(e.target.value as "fct_us" | "slowdown")}>
            <option value="fct_us">FCT</option>
            <option value="slowdown">Slowdown</option>
          </select>
        }
      >
        {dataFlows && dataFlows.some((f) => f.fct_us !== null) ? (
          <CdfChart flows={dataFlows} metric={cdfMetric} />
        ) : (
          <Empty>No finite flow completed (long-lived flows have no FCT{split?.probes ? "; pingmesh probes are left out, their RTTs are in the Pingmesh panel" : ""}).</Empty>
        )}
      </ChartFrame>}
      {graph && (
        <ChartFrame id="overlay" title="Fabric overlay" filename={`run-${runId}-fabric`} subtitle={exportSubtitle}
          note={shown && !focusFlow ? <span data-testid="overlay-shown">Highlighted: {shown.what}. <button type="button" className="small" onClick={() => setShown(null)}>Clear</button></span> : undefined}>
          <TopologyOverlay
            graph={graph} summary={summary.data.summary} series={s} onTime={setMarker} windows={windows}
            focusPort={focus?.kind === "port" ? focus.id : null} focusNodes={focusFlow ? [focusFlow.src, focusFlow.dst] : shown?.ids}
            onPickPort={(p) => setFocus({ kind: "port", id: p })}
            badges={acceleratorBadges((scenario as { topology?: unknown } | undefined)?.topology)}
            jobs={jobs.data} jobRequest={jobRequest}
          />
        </ChartFrame>
      )}
      <section className="chart-frame" id="table-ports" aria-label="Ports table">
        <header><h3>Ports</h3></header>
        <p className="chart-note">Every egress port that queued, sent after warm-up, marked or paused. Click a row to highlight the port on the charts and the fabric.</p>
        <PortTable rows={rows} selected={focus?.kind === "port" ? focus.id : null} onSelect={(p) => setFocus({ kind: "port", id: p })} hasActive={!!windows.active} hasWarmup={windows.warmupUs > 0} />
      </section>
      <section className="chart-frame" id="table-flows" aria-label="Flows table">
        <header><h3>Flows</h3></header>
        <p className="chart-note">Click a row to highlight the flow (its hosts on the fabric, its line on the rate chart); tick a box to chart it.
          {(jobs.data?.length ?? 0) > 0 && " A collective's transfers are not listed here: its steps are on the job's iteration timeline above."}</p>
        {flows.isLoading && <Loading what="Loading flows" />}
        {flowList && (
          <FlowTable flows={flowList} selected={focus?.kind === "flow" ? focus.id : null} onSelect={(id) => setFocus({ kind: "flow", id })}
            charted={chartedSet} recorded={recorded} onToggleChart={toggleChart} />
        )}
      </section>
    </div>
  );
}
