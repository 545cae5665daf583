import { useMemo } from "react";
import { Link } from "react-router";
import { ChartFrame } from "../../../components/ChartFrame";
import { Empty, ErrorBox, Loading } from "../../../components/States";
import { formatBytes, formatDurationUs, formatGbps, formatNumber, formatPercent } from "../../../lib/format";
import type { ComparedRun } from "../api/compare";
import type { CompareMetric } from "../utils/compare";
import { type Column, DataTable } from "../components/DataTable";
import { LineChart } from "../components/LineChart";
import { type GroupFlowRow, type GroupPortRow, type SeedRun, groupBands, groupCards, groupFlowRows, groupHasWarmup, groupPortRows, groupProblem } from "./group";
import { type Estimate, formatEstimate } from "./stats";
import { splitProbes } from "../utils/probes";

const fmt: Record<CompareMetric["unit"], (v: number) => string> = {
  gbps: formatGbps, us: formatDurationUs, x: (v) => `${formatNumber(v)}×`, bytes: formatBytes, count: formatNumber, ratio: formatNumber,
};
const est = (e: Estimate | null, f: (v: number) => string) => formatEstimate(e, f);
const cell = (e: Estimate | null) => e?.mean ?? null;
const bytesFmt = (v: number) => formatBytes(v);

/** The ports table of the group: each cell is the mean ± 95% half-width over the seeds. */
function GroupPortTable({ rows, warm }: { rows: GroupPortRow[]; warm: boolean }) {
  const after = warm ? "after warm-up" : "whole run (no warm-up)";
  const columns = useMemo<Column<GroupPortRow>[]>(() => [
    { key: "port", label: "port (egress)", value: (r) => r.port, width: "1.4fr", format: (r) => `${r.port}${r.seen < (r.cells.ecnMarks?.n ?? 0) ? ` (in ${r.seen})` : ""}` },
    { key: "qmax", label: "queue max", numeric: true, value: (r) => cell(r.cells.queueMax), format: (r) => est(r.cells.queueMax, formatBytes), title: warm ? "whole run, warm-up included" : "whole run" },
    { key: "qmean", label: "mean", numeric: true, value: (r) => cell(r.cells.queueMean), format: (r) => est(r.cells.queueMean, formatBytes), title: after },
    { key: "qp99", label: "p99", numeric: true, value: (r) => cell(r.cells.queueP99), format: (r) => est(r.cells.queueP99, formatBytes) },
    { key: "util", label: "utilization", numeric: true, value: (r) => cell(r.cells.utilization), format: (r) => est(r.cells.utilization, formatPercent), title: warm ? "after warm-up, whole window" : "whole run" },
    { key: "ecn", label: "ECN marks", numeric: true, value: (r) => cell(r.cells.ecnMarks), format: (r) => est(r.cells.ecnMarks, formatNumber) },
    { key: "ps", label: "pauses sent", numeric: true, value: (r) => cell(r.cells.pausesSent), format: (r) => est(r.cells.pausesSent, formatNumber) },
    { key: "pt", label: "pause time", numeric: true, value: (r) => cell(r.cells.pauseUs), format: (r) => est(r.cells.pauseUs, formatDurationUs) },
  ], [warm, after]);
  return <DataTable label="Ports over seeds" rows={rows} columns={columns} rowKey={(r) => r.port} filterText={(r) => r.port} initialSort={{ key: "qmax", desc: true }} />;
}

function GroupFlowTable({ rows }: { rows: GroupFlowRow[] }) {
  const columns = useMemo<Column<GroupFlowRow>[]>(() => [
    { key: "id", label: "flow", numeric: true, width: "64px", value: (r) => r.id },
    { key: "pair", label: "src -> dst", value: (r) => r.pair, width: "1.3fr" },
    { key: "size", label: "size", numeric: true, value: (r) => r.size, format: (r) => (r.size == null ? "differs" : r.size ? formatBytes(r.size) : "long-lived") },
    { key: "fct", label: "FCT", numeric: true, width: "1.4fr", value: (r) => cell(r.cells.fct_us), format: (r) => est(r.cells.fct_us, formatDurationUs) },
    { key: "slow", label: "slowdown", numeric: true, value: (r) => cell(r.cells.slowdown), format: (r) => est(r.cells.slowdown, (v) => `${formatNumber(v)}×`) },
    { key: "good", label: "goodput", numeric: true, width: "1.4fr", value: (r) => cell(r.cells.goodput_gbps), format: (r) => est(r.cells.goodput_gbps, formatGbps) },
    { key: "retx", label: "retransmits", numeric: true, value: (r) => cell(r.cells.retransmits), format: (r) => est(r.cells.retransmits, formatNumber) },
  ], []);
  return <DataTable label="Flows over seeds" rows={rows} columns={columns} rowKey={(r) => String(r.id)} filterText={(r) => `${r.id} ${r.pair}`} initialSort={{ key: "id", desc: false }} />;
}

/** Several seeds of one scenario as one result: mean ± 95% CI (Student t) everywhere, bands on charts. */
export function SeedGroupView({ runs }: { runs: ComparedRun[] }) {
  const loading = runs.some((r) => r.loading);
  const failed = runs.filter((r) => r.error);
  const seedRuns: SeedRun[] = useMemo(() => runs.filter((r) => r.summary && r.runInfo && r.run).map((r) => ({
    id: r.id, seed: r.run!.seed, runInfo: r.runInfo!, summary: r.summary!, series: r.series, flows: r.flows,
    dataFlows: splitProbes(r.flows, r.scenario?.scenario)?.data,
  })), [runs]);
  const problem = loading ? null : groupProblem(runs.map((r) => ({ scenarioId: r.run?.scenario_id, seed: r.run?.seed })));
  const ok = !loading && !failed.length && !problem && seedRuns.length === runs.length;
  const cards = useMemo(() => (ok ? groupCards(seedRuns) : []), [ok, seedRuns]);
  const ports = useMemo(() => (ok ? groupPortRows(seedRuns) : []), [ok, seedRuns]);
  const flows = useMemo(() => (ok ? groupFlowRows(seedRuns) : []), [ok, seedRuns]);
  const pairOf = useMemo(() => new Map(flows.map((f) => [String(f.id), f.pair])), [flows]);
  const queues = useMemo(() => (ok ? groupBands(seedRuns, (s) => s.queues) : null), [ok, seedRuns]);
  const rates = useMemo(() => (ok ? groupBands(seedRuns, (s) => s.flow_rates_gbps, 4, (k) => `flow ${k} ${pairOf.get(k) ?? ""}`) : null), [ok, seedRuns, pairOf]);
  const n = runs.length;
  const ids = runs.map((r) => r.id);
  const subtitle = `mean and 95% CI over ${n} seeds · runs ${ids.join(", ")}`;

  return (
    <div className="seed-group">
      <section className="chart-frame" aria-label="Seeds in this group">
        <header><h3>{runs[0]?.scenario?.name ?? "Scenario"} · {n} seeds</h3></header>
        <p className="hint">
          Every number is the mean over the seeds ± the half-width of its 95% confidence interval (Student t, n − 1 degrees of freedom),
          computed in the browser from each run's result. Seeds:{" "}
          {[...runs].sort((a, b) => (a.run?.seed ?? 0) - (b.run?.seed ?? 0)).map((r, i) => <span key={r.id}>{i > 0 && ", "}<Link to={`/runs/${r.id}`}>{r.run?.seed ?? r.id}</Link></span>)}.{" "}
          <Link to={`/compare?runs=${ids.join(",")}`}>Compare these runs side by side</Link>
        </p>
        {loading && <Loading what="Loading the runs" />}
        {failed.map((r) => <ErrorBox key={r.id} error={r.error!} title={`Run ${r.id} cannot be grouped`} />)}
        {problem && <p className="error" role="alert">Cannot show these runs as one result: {problem}.</p>}
      </section>
      {ok && (
        <>
          <dl className="summary-cards" data-testid="group-cards">
            {cards.map((c) => (
              <div className="card" key={c.metric.key} data-metric={c.metric.key}>
                <dt>{c.metric.label}</dt>
                <dd>{est(c.estimate, fmt[c.metric.unit])}</dd>
                <small className="card-window">{c.estimate ? `mean ± 95% CI over ${c.estimate.n} seed${c.estimate.n === 1 ? "" : "s"}` : "no seed has this number"}</small>
                {c.estimate && <small>range {fmt[c.metric.unit](c.estimate.min)} – {fmt[c.metric.unit](c.estimate.max)}</small>}
              </div>
            ))}
          </dl>
          <ChartFrame id="chart-queues" title="Queue occupancy, mean and 95% band over seeds (bytes)" filename="seeds-queues" subtitle={subtitle}
            note="The busiest queues the seeds watched (each run watches its own deepest queues; a queue not watched in every seed is banded over those that did and says in how many): the line is the mean, the shaded band the pointwise 95% interval.">
            {queues && queues.series.length ? (
              <LineChart t={queues.t} xDomain={[queues.t[0], queues.t[queues.t.length - 1]]} yLabel="bytes" yFormat={bytesFmt}
                series={queues.series.map((s) => ({ key: s.key, name: s.name, values: s.band.mean, band: s.band }))} />
            ) : <Empty>No watched queue held data in any seed.</Empty>}
          </ChartFrame>
          <ChartFrame id="chart-rates" title="Per-flow rate, mean and 95% band over seeds (Gbit/s)" filename="seeds-rates" subtitle={subtitle}>
            {rates && rates.series.length ? (
              <LineChart t={rates.t} xDomain={[rates.t[0], rates.t[rates.t.length - 1]]} yLabel="Gbit/s"
                series={rates.series.map((s) => ({ key: s.key, name: s.name, values: s.band.mean, band: s.band }))} />
            ) : <Empty>No flow rate was recorded in any seed.</Empty>}
          </ChartFrame>
          <section className="chart-frame" id="table-ports" aria-label="Ports table">
            <header><h3>Ports (mean ± 95% CI over seeds)</h3></header>
            <p className="chart-note">A port that did nothing in a seed counts as zero there; "(in k)" says in how many seeds it did something.</p>
            <GroupPortTable rows={ports} warm={groupHasWarmup(seedRuns)} />
          </section>
          <section className="chart-frame" id="table-flows" aria-label="Flows table">
            <header><h3>Flows by id (mean ± 95% CI over the seeds where the flow completed)</h3></header>
            <GroupFlowTable rows={flows} />
          </section>
        </>
      )}
    </div>
  );
}
