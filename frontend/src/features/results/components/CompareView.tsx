import { useMemo, useRef, useState } from "react";
import { Link } from "react-router";
import { ChartFrame } from "../../../components/ChartFrame";
import { Empty, ErrorBox, Loading } from "../../../components/States";
import { formatBytes, formatCount, formatDurationUs, formatGbps, formatNumber, formatSigned } from "../../../lib/format";
import type { ComparedRun } from "../api/compare";
import { type CompareMetric, compareMetrics, delta, difference, jobCompareRows, resample, scenarioDiff } from "../utils/compare";
import type { LayoutGraph } from "../../../lib/topology/types";
import { FabricDifference } from "../compare/FabricDifference";
import { cdfAll, type CdfBucket } from "../utils/cdf";
import { splitProbes } from "../utils/probes";
import { activeDomain } from "../utils/derive";
import { CdfChart } from "./CdfChart";
import { LineChart } from "./LineChart";
import { downloadBlob } from "../../../lib/charts/save";
import { collectFigures } from "../../../lib/report/collect";
import { buildCompareReportHtml, tableText } from "../utils/compareReport";

const letter = (i: number) => String.fromCharCode(65 + i);
const fmt: Record<CompareMetric["unit"], (v: number) => string> = {
  gbps: formatGbps, us: formatDurationUs, x: (v) => `${formatNumber(v)}×`, bytes: formatBytes, count: formatCount, ratio: formatNumber,
};

/** A run's value with its delta against A (green when better, red when worse). */
function DeltaCell({ base, value, unit, higherIsBetter, first }: { base: number | null; value: number | null; unit: CompareMetric["unit"]; higherIsBetter: boolean; first: boolean }) {
  const d = first ? null : delta(base, value);
  const better = d && d.abs !== 0 ? (d.abs > 0) === higherIsBetter : null;
  return (
    <td>
      {value == null ? "—" : fmt[unit](value)}
      {d && (
        <small className={`delta ${better == null ? "" : better ? "better" : "worse"}`}>
          {" "}{formatSigned(d.abs, fmt[unit])}{d.rel != null ? ` (${formatSigned(d.rel * 100, (x) => `${formatNumber(x)} %`)})` : ""}
        </small>
      )}
    </td>
  );
}

/** The comparison as one HTML file: the page's tables as text, its charts as SVG, the fabric as PNG with its legend. */
async function downloadCompareReport(root: HTMLElement | null, runs: ComparedRun[]) {
  if (!root) return;
  const subtitle = `runs ${runs.map((r) => r.id).join(", ")}`;
  const { charts, images } = await collectFigures(root, subtitle);
  const html = buildCompareReportHtml({
    title: `Comparison of ${runs.length} runs: ${[...new Set(runs.map((r) => r.scenario?.name ?? r.id))].join(" vs ")}`,
    runs: runs.map((r, i) => ({
      letter: letter(i), id: r.id, scenarioName: r.scenario?.name ?? "run", seed: r.run?.seed ?? "?",
      simulator: `${r.runInfo?.simulator ?? "fabricsim"} ${r.runInfo?.version ?? "?"}`, scenarioSha256: String(r.runInfo?.scenario_sha256 ?? ""),
    })),
    // the jobs' JCT and busbw rows (when the runs have collectives) after the summary's, header left out
    summary: [...tableText(root.querySelector<HTMLTableElement>("[data-testid=compare-table]")),
      ...tableText(root.querySelector<HTMLTableElement>("[data-testid=compare-jobs]")).slice(1)],
    differences: tableText(root.querySelector<HTMLTableElement>("[data-testid=scenario-diff]")),
    charts, images, generatedAt: new Date().toISOString(),
  });
  downloadBlob(new Blob([html], { type: "text/html" }), `compare-${runs.map((r) => r.id).join("-")}-report.html`);
}

/** Two or more runs side by side: metrics with deltas against run A, parameters that differ, overlaid charts. */
export function CompareView({ runs, candidates, onAdd, onRemove, graph }: {
  runs: ComparedRun[];
  /** Run A's fabric, for the overlay of differences (shown when every run has the same topology). */
  graph?: LayoutGraph | null;
  /** Other runs that can be added (a scenario's history). */
  candidates: { id: string; label: string }[];
  onAdd: (id: string) => void;
  onRemove: (id: string) => void;
}) {
  const [cdfMetric, setCdfMetric] = useState<"fct_us" | "slowdown">("fct_us");
  const [asDifference, setAsDifference] = useState(false);
  const rootRef = useRef<HTMLDivElement>(null);
  const ready = runs.filter((r) => r.summary);
  const label = (r: ComparedRun, i: number) => `${letter(i)} · ${r.scenario?.name ?? "run"} · seed ${r.run?.seed ?? "?"}`;
  const diff = useMemo(() => scenarioDiff(runs.map((r) => r.scenario?.scenario)), [runs]);

  // The deepest watched queue of each run (the simulator lists the deepest first), on A's clock.
  const queues = useMemo(() => {
    const base = ready.find((r) => r.series?.t_us.length)?.series;
    if (!base) return null;
    const longest = ready.reduce((t, r) => ((r.series?.t_us.length ?? 0) > t.length ? r.series!.t_us : t), base.t_us);
    const series = ready.flatMap((r) => {
      const entries = Object.entries(r.series?.queues ?? {});
      if (!entries.length) return [];
      const peak = (v: number[]) => v.reduce((m, x) => (x > m ? x : m), 0);
      const [port, values] = entries.reduce((best, e) => (peak(e[1]) > peak(best[1]) ? e : best));
      const i = runs.indexOf(r);
      return [{ key: r.id, name: `${letter(i)}: ${port}`, values: resample(longest, r.series!.t_us, values) }];
    });
    return { t: longest, series };
  }, [ready, runs]);
  // The overlay as a difference: each run's deepest queue minus A's, on A's clock.
  const queueShown = useMemo(() => {
    if (!queues || !asDifference || queues.series.length < 2 || queues.series[0].key !== runs[0]?.id) return queues?.series ?? [];
    const base = queues.series[0].values;
    return queues.series.slice(1).map((s) => ({ ...s, name: `${s.name.split(":")[0]} − A`, values: difference(base, s.values) }));
  }, [queues, asDifference, runs]);
  const jobRows = useMemo(() => jobCompareRows(runs), [runs]);
  const sameFabric = !diff.some((d) => d.path.startsWith("topology"));
  const queueDomain = useMemo(() => (queues ? activeDomain(queues.t, [Object.fromEntries(queues.series.map((s) => [s.name, s.values]))]) : null), [queues]);
  const cdfs = useMemo(
    // pingmesh probes left out, as in each run's FCT statistics
    () => ready.map((r) => cdfAll(splitProbes(r.flows, r.scenario?.scenario)?.data ?? [], cdfMetric, letter(runs.indexOf(r)))).filter((b): b is CdfBucket => !!b),
    [ready, runs, cdfMetric],
  );

  return (
    <div className="compare" ref={rootRef}>
      <section className="chart-frame" aria-label="Compared runs">
        <header>
          <h3>Runs</h3>
          {ready.length === runs.length && runs.length > 1 && (
            <button type="button" className="small" onClick={() => void downloadCompareReport(rootRef.current, runs)}>Download report (HTML)</button>
          )}
        </header>
        <ol className="compare-runs">
          {runs.map((r, i) => (
            <li key={r.id}>
              <strong>{letter(i)}</strong> <Link to={`/runs/${r.id}`}>{r.scenario?.name ?? r.id}</Link> · seed {r.run?.seed ?? "?"}{" "}
              <code className="muted-id">{r.id}</code>
              {r.loading && <Loading what="loading" />}
              {r.error && <ErrorBox error={r.error} title={`Run ${letter(i)} cannot be compared`} />}
              {runs.length > 1 && <button type="button" className="small" onClick={() => onRemove(r.id)} aria-label={`Remove run ${letter(i)}`}>remove</button>}
            </li>
          ))}
        </ol>
        {candidates.length > 0 && (
          <label>
            Add a run of this scenario, its parent or its forks:{" "}
            <select aria-label="Add a run" value="" onChange={(e) => e.target.value && onAdd(e.target.value)}>
              <option value="">choose…</option>
              {candidates.map((c) => <option key={c.id} value={c.id}>{c.label}</option>)}
            </select>
          </label>
        )}
        {runs.length < 2 && <p className="hint">Add a second run to compare (another seed of this scenario, or open a run of a fork and use its Compare button).</p>}
      </section>

      {ready.length > 0 && (
        <section className="chart-frame" aria-label="Summary comparison">
          <header><h3>Summary (deltas against A)</h3></header>
          <table className="compare-table" data-testid="compare-table">
            <thead>
              <tr><th>metric</th>{runs.map((r, i) => <th key={r.id} title={label(r, i)}>{letter(i)}</th>)}</tr>
            </thead>
            <tbody>
              {compareMetrics(runs.some((r) => Number(r.runInfo?.warmup_ns ?? 0) > 0)).map((m) => {
                const base = runs[0].summary ? m.get(runs[0].summary) : null;
                return (
                  <tr key={m.key} data-metric={m.key}>
                    <th scope="row">{m.label}</th>
                    {runs.map((r, i) => (
                      <DeltaCell key={r.id} base={base} value={r.summary ? m.get(r.summary) : null} unit={m.unit} higherIsBetter={m.higherIsBetter} first={i === 0} />
                    ))}
                  </tr>
                );
              })}
            </tbody>
          </table>
        </section>
      )}

      {jobRows.length > 0 && (
        <section className="chart-frame" aria-label="Collective jobs comparison">
          <header><h3>Jobs (deltas against A)</h3></header>
          <p className="chart-note">Jobs are matched by name. JCT: first send to last completion; busbw: NCCL-tests' bus bandwidth (algbw × the op's factor);
            a training job's iteration time and tokens/s are means over its iterations, its exposed DP and TP time per iteration.</p>
          <table className="compare-table" data-testid="compare-jobs">
            <thead>
              <tr><th>job</th>{runs.map((r, i) => <th key={r.id} title={label(r, i)}>{letter(i)}</th>)}</tr>
            </thead>
            <tbody>
              {jobRows.map((row) => (
                <tr key={`${row.job}-${row.metric}`} data-job={row.job} data-metric={row.metric}>
                  <th scope="row">{row.label}</th>
                  {row.values.map((v, i) => <DeltaCell key={runs[i].id} base={row.values[0]} value={v} unit={row.unit} higherIsBetter={row.higherIsBetter} first={i === 0} />)}
                </tr>
              ))}
            </tbody>
          </table>
        </section>
      )}

      <section className="chart-frame" aria-label="Scenario differences">
        <header><h3>Scenario differences</h3></header>
        {runs.some((r) => r.run) && (
          <table className="compare-table" data-testid="scenario-diff">
            <thead><tr><th>parameter</th>{runs.map((r, i) => <th key={r.id}>{letter(i)}</th>)}</tr></thead>
            <tbody>
              {runs.some((r) => r.run?.seed !== runs[0].run?.seed) && (
                <tr><th scope="row">seed</th>{runs.map((r) => <td key={r.id}>{r.run?.seed}</td>)}</tr>
              )}
              {diff.map((d) => (
                <tr key={d.path}><th scope="row"><code>{d.path}</code></th>{d.values.map((v, i) => <td key={i}>{v ?? "(default)"}</td>)}</tr>
              ))}
            </tbody>
          </table>
        )}
        {runs.length > 0 && runs.every((r) => r.error) ? <p className="hint">None of these runs could be loaded, so there is nothing to compare.</p>
          : runs.some((r) => !r.scenario) ? null
          : diff.length === 0 && <p className="hint">The scenarios are identical{runs.some((r) => r.run?.seed !== runs[0].run?.seed) ? "; only the seed differs" : ""}.</p>}
      </section>

      {graph && ready.length > 1 && ready.length === runs.length && sameFabric && (
        <section className="chart-frame" aria-label="Fabric overlay, difference from A">
          <header><h3>Fabric overlay: difference from A</h3></header>
          <FabricDifference graph={graph} summaries={runs.map((r) => r.summary!)} />
        </section>
      )}
      {queues && queueDomain && (
        <ChartFrame title="Deepest watched queue of each run (bytes)" filename="compare-queues" subtitle={`runs ${runs.map((r) => r.id).join(", ")}`}
          actions={ready.length > 1 ? (
            <label className="hint"><input type="checkbox" checked={asDifference} onChange={(e) => setAsDifference(e.target.checked)} aria-label="Show as difference from A" /> difference (X − A)</label>
          ) : undefined}
          note={asDifference ? "Each run's deepest queue minus run A's, sample by sample: above zero the run queues more than A." : undefined}>
          {queueShown.length ? <LineChart t={queues.t} series={queueShown} xDomain={queueDomain} yLabel={asDifference ? "bytes (X − A)" : "bytes"} signed={asDifference} /> : <Empty>No run recorded a queue.</Empty>}
        </ChartFrame>
      )}
      {ready.length > 0 && (
        <ChartFrame
          title={`${cdfMetric === "fct_us" ? "FCT" : "Slowdown"} CDF of each run`} filename="compare-cdf" subtitle={`runs ${runs.map((r) => r.id).join(", ")}`}
          actions={
            <select aria-label="CDF metric" value={cdfMetric} onChange={(e) => setCdfMetric(e.target.value as "fct_us" | "slowdown")}>
              <option value="fct_us">FCT</option>
              <option value="slowdown">Slowdown</option>
            </select>
          }
        >
          {cdfs.length ? <CdfChart flows={[]} metric={cdfMetric} buckets={cdfs} /> : <Empty>No finite flow completed in these runs.</Empty>}
        </ChartFrame>
      )}
    </div>
  );
}
