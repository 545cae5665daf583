import { Link } from "react-router";
import { ChartFrame } from "../../../components/ChartFrame";
import { ErrorBox, Loading } from "../../../components/States";
import { formatNumber } from "../../../lib/format";
import { type Comparison, type MeasurementPublic, useComparison, useSimulateMeasurement } from "../api/realFabric";
import { formatRatio, formatSize } from "../utils/measurement";
import { ComparisonChart } from "./ComparisonChart";

const METRIC_LABEL: Record<Comparison["metric"], string> = {
  busbw_gbps: "bus bandwidth", bw_gbps: "bandwidth (average)", latency_us: "latency (mean)",
};

function fmt(v: number | null | undefined): string {
  return v == null ? "—" : formatNumber(v);
}

function Header({ m }: { m: MeasurementPublic }) {
  const h = m.header as Record<string, unknown>;
  const facts = m.kind === "nccl_tests"
    ? [`${h.ranks ?? "?"} ranks on ${(h.hosts as string[] | undefined)?.length ?? "?"} hosts`, `nThread ${h.n_threads} nGpus ${h.n_gpus}`,
       `sizes ${formatSize(Number(h.min_bytes))} … ${formatSize(Number(h.max_bytes))}`, `${h.iters ?? "?"} iteration${h.iters === 1 ? "" : "s"}`,
       `avg busbw ${fmt(Number(h.avg_busbw_gbps))} Gbit/s`]
    : [`${h.kind === "bw" ? "bandwidth" : "latency"} test`, `${h.qps ?? 1} QP`, `TX depth ${h.tx_depth ?? "?"}`,
       `MTU ${h.mtu_bytes ?? "?"} B`, `link ${h.link_type ?? "?"}`];
  return <p className="measurement-facts" data-testid="measurement-facts">{m.tool}: {facts.join(" · ")}</p>;
}

/**
 * One measurement beside its simulation: what was read, the button that runs the matching
 * simulation, measured against simulated (log-log), the ratio per size and, where they differ by
 * more than 10 %, the reasons the model lists.
 */
export function MeasurementView({ m }: { m: MeasurementPublic }) {
  const comparison = useComparison(m.id);
  const simulate = useSimulateMeasurement(m.id);
  const c = comparison.data;
  const started = !!(m.sweep_id || m.run_id || simulate.data);
  const label = c ? METRIC_LABEL[c.metric] : "value";
  return (
    <div className="measurement-view">
      <Header m={m} />
      {m.notes.length > 0 && <ul className="hint">{m.notes.map((n) => <li key={n}>{n}</li>)}</ul>}
      <div className="row">
        <button type="button" className="primary" disabled={simulate.isPending}
          onClick={() => simulate.mutate({ seed: 1 })}>
          {started ? "Run the matching simulation again" : "Run the matching simulation"}
        </button>
        {c?.status && <span className={`status status-${c.status.toLowerCase()}`} data-testid="simulation-status">{c.status}</span>}
        {c && c.status && <span className="hint">{c.done} of {c.total} points simulated</span>}
        {(simulate.data?.sweep_id ?? m.sweep_id) && <Link to={`/sweeps/${simulate.data?.sweep_id ?? m.sweep_id}`}>the sweep</Link>}
        {(simulate.data?.run_id ?? m.run_id) && <Link to={`/runs/${simulate.data?.run_id ?? m.run_id}`}>the run</Link>}
        <Link to={`/editor?from=${m.scenario_id}`}>the scenario</Link>
      </div>
      {simulate.data && simulate.data.notes.length > 0 && <ul className="hint">{simulate.data.notes.map((n) => <li key={n}>{n}</li>)}</ul>}
      <ErrorBox error={simulate.error} title="Could not start the simulation" />
      <ErrorBox error={comparison.error} title="Could not read the comparison" />
      {!c ? <Loading what="Loading the comparison" /> : (
        <>
          <ChartFrame title={`Measured against simulated ${label}`} filename={`measurement-${m.id}`}
            note={<>{c.unit} against message size, both axes logarithmic; a red ring marks a size where the simulation differs from the measurement by more than {Math.round(c.threshold * 100)} %.
              {c.measured_ranks != null && c.simulated_ranks != null && <> Ranks: {c.measured_ranks} measured, {c.simulated_ranks} simulated.</>}</>}>
            <ComparisonChart points={c.points} unit={c.unit} label={label} />
          </ChartFrame>
          <PointsTable c={c} />
        </>
      )}
    </div>
  );
}

function PointsTable({ c }: { c: Comparison }) {
  const used = [...new Set(c.points.flatMap((p) => p.reasons))];
  const percentiles = c.metric === "latency_us";
  return (
    <>
      <div className="table-scroll">
        <table className="data-table" data-testid="comparison-table">
          <thead>
            <tr>
              <th>Size</th><th>Measured ({c.unit})</th>{c.metric === "busbw_gbps" && <th>in place</th>}
              {percentiles && <><th>p99</th><th>p99.9</th></>}
              <th>Simulated ({c.unit})</th><th>Simulated / measured</th><th>Likely reasons</th>
            </tr>
          </thead>
          <tbody>
            {c.points.map((p) => (
              <tr key={p.size_bytes} data-differs={p.differs ? "true" : "false"} className={p.differs ? "differs" : undefined}>
                <td>{formatSize(p.size_bytes)}</td>
                <td>{fmt(p.measured)}</td>
                {c.metric === "busbw_gbps" && <td>{fmt(p.measured_in_place)}</td>}
                {percentiles && <><td>{fmt(p.measured_p99)}</td><td>{fmt(p.measured_p999)}</td></>}
                <td>{p.simulated == null ? (p.status && p.status !== "SUCCEEDED" ? p.status.toLowerCase() : "—") : fmt(p.simulated)}</td>
                <td>{formatRatio(p.ratio)}{p.differs && <strong className="differs-flag"> differs</strong>}</td>
                <td>{p.reasons.join(", ")}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {used.length > 0 && (
        <dl className="reasons" aria-label="What the model leaves out">
          {used.map((r) => <div key={r}><dt><code>{r}</code></dt><dd>{c.reasons[r]}</dd></div>)}
        </dl>
      )}
      {c.notes.length > 0 && <ul className="hint">{c.notes.map((n) => <li key={n}>{n}</li>)}</ul>}
    </>
  );
}
