import { useMemo } from "react";
import { scaleLinear, scaleLog } from "d3-scale";
import { line } from "d3-shape";
import { ChartFrame } from "../../../components/ChartFrame";
import { useParentSize } from "../../../lib/hooks/useParentSize";
import { categorical } from "../../../lib/charts/palette";
import { type SweepPoint, formatMetric } from "../../../lib/charts/grid";
import { formatNumber } from "../../../lib/format";
import { TRAINING_PAIR, jobKey, lineAxis, paramNames, paramText, sortedPoints, sweepJobPair, sweepJobs } from "../utils/jobSweep";
import { runMetric } from "../../../lib/api/metrics";

type JobMetric = string;
/** "Bus bandwidth (Gbit/s)", "Tokens per second (tokens/s)": the declared label and unit. */
const metricTitle = (m: string) => {
  const spec = runMetric(m);
  return spec ? `${spec.label}${spec.unit ? ` (${spec.unit})` : ""}` : m;
};
/** The table's column heads. */
const SHORT: Record<string, string> = { jct_us: "JCT", busbw_gbps: "busbw", tokens_per_s: "tokens/s", iteration_us: "iteration" };
// the unit is in the chart's title; ticks are plain numbers
const MARGIN = { top: 12, right: 48, bottom: 40, left: 52 };

/** One line per job of a metric against the swept value (log axis over a span of sizes). */
function JobLines({ points, axis, jobs, metric }: { points: SweepPoint[]; axis: string; jobs: string[]; metric: JobMetric }) {
  const { ref, width } = useParentSize<HTMLDivElement>();
  const height = 240;
  const innerW = Math.max(width - MARGIN.left - MARGIN.right, 40);
  const innerH = height - MARGIN.top - MARGIN.bottom;
  const chart = useMemo(() => {
    const xs = points.map((p) => p.params[axis] as number);
    const lo = Math.min(...xs);
    const hi = Math.max(...xs);
    const x = lo > 0 && hi / lo >= 8 ? scaleLog().domain([lo, hi]).range([0, innerW]) : scaleLinear().domain([lo, hi]).range([0, innerW]);
    const values = points.flatMap((p) => jobs.map((j) => p.metrics?.[jobKey(metric, j)])).filter((v): v is number => v != null);
    const y = scaleLinear().domain([0, Math.max(1, ...values) * 1.1]).nice().range([innerH, 0]);
    const series = jobs.map((job) => {
      const pts = points.flatMap((p) => {
        const v = p.metrics?.[jobKey(metric, job)];
        return v == null ? [] : [{ x: p.params[axis] as number, v, point: p }];
      });
      return { job, pts, d: line<{ x: number; v: number }>().x((q) => x(q.x)).y((q) => y(q.v))(pts) ?? "" };
    });
    return { x, y, series, ticks: [...new Set(xs)].sort((a, b) => a - b) };
  }, [points, axis, jobs, metric, innerW, innerH]);
  return (
    <div ref={ref} className="line-chart">
      <svg className="chart-svg" width={width} height={height} role="img" aria-label={`${metricTitle(metric)} of each job against ${axis}`}>
        <g transform={`translate(${MARGIN.left},${MARGIN.top})`}>
          {chart.y.ticks(5).map((t) => (
            <g key={t} transform={`translate(0,${chart.y(t)})`}>
              <line x2={innerW} stroke="#eef0f3" />
              <text x={-6} dy="0.32em" textAnchor="end" fontSize={10}>{formatNumber(t)}</text>
            </g>
          ))}
          {chart.ticks.map((t) => (
            <g key={t} transform={`translate(${chart.x(t)},${innerH})`}>
              <line y2={4} stroke="#888" />
              <text y={16} textAnchor="middle" fontSize={10}>{paramText(axis, t)}</text>
            </g>
          ))}
          <text x={innerW / 2} y={innerH + 34} textAnchor="middle" fontSize={10} fill="#555">{paramNames([axis])[axis]}</text>
          {chart.series.map((s, i) => (
            <g key={s.job} className="job-line" data-job={s.job}>
              <path d={s.d} fill="none" stroke={categorical(i)} strokeWidth={2} />
              {s.pts.map((q) => (
                <circle key={q.point.index} cx={chart.x(q.x)} cy={chart.y(q.v)} r={4} fill={categorical(i)} data-value={q.v}>
                  <title>{`${s.job || "the job"}: ${formatMetric(metric, q.v)} at ${paramText(axis, q.x)}`}</title>
                </circle>
              ))}
              {s.pts.length > 0 && (
                <text x={chart.x(s.pts[s.pts.length - 1].x) + 8} y={chart.y(s.pts[s.pts.length - 1].v)} dy="0.32em" fontSize={11} fill={categorical(i)}>{s.job || "job"}</text>
              )}
            </g>
          ))}
        </g>
      </svg>
      <ul className="legend-list">
        {jobs.map((j, i) => <li key={j} data-legend-label={j || "job"} data-legend-color={categorical(i)}><span className="swatch" style={{ background: categorical(i) }} />{j ? `job ${j}` : "the job"}</li>)}
      </ul>
    </div>
  );
}

/**
 * A sweep of collective jobs as NCCL-tests reports one: each job's JCT and busbw per point, in a
 * table, and as lines against the swept value when one numeric parameter is swept (ring against
 * tree as the message grows, in one view); of training jobs, their tokens/s and iteration time.
 * Nothing for a sweep without jobs.
 */
export function JobSweep({ points, dims, onOpenRun }: { points: SweepPoint[]; dims: string[]; onOpenRun: (runId: string) => void }) {
  const pair = useMemo(() => sweepJobPair(points), [points]);
  const training = pair === TRAINING_PAIR;
  const jobs = useMemo(() => sweepJobs(points, pair), [points, pair]);
  const rows = useMemo(() => sortedPoints(points, dims), [points, dims]);
  if (!jobs.length) return null;
  const axis = lineAxis(points, dims);
  const names = paramNames(dims);
  const cell = (p: SweepPoint, m: JobMetric, job: string) => {
    const v = p.metrics?.[jobKey(m, job)];
    return v == null ? (p.status === "SUCCEEDED" ? "not finished" : "—") : formatMetric(m, v);
  };
  return (
    <section className="job-sweep" aria-label={training ? "Training jobs per point" : "Collective jobs per point"}>
      <h2>{training ? "Training jobs per point" : "Collective jobs per point"}</h2>
      <p className="hint">{training
        ? "Each training job's tokens per second and mean iteration time"
        : "Each job's completion time and bus bandwidth (NCCL-tests' busbw)"} at every point of the sweep{axis ? `, against ${names[axis]}` : ""}. The heatmap below shows any other metric.</p>
      {axis && (
        <div className="side-by-side">
          {pair.map((m) => (
            <ChartFrame key={m} title={metricTitle(m)} filename={`sweep-jobs-${m}`}>
              <JobLines points={rows.filter((p) => p.status === "SUCCEEDED")} axis={axis} jobs={jobs} metric={m} />
            </ChartFrame>
          ))}
        </div>
      )}
      <div className="table-scroll-x">
        <table className="compare-table job-sweep-table">
          <thead>
            <tr>
              {dims.map((d) => <th key={d} scope="col" title={d}>{names[d]}</th>)}
              {[...pair].reverse().map((m) => jobs.map((j) => <th key={`${j}-${m}`} scope="col">{SHORT[m] ?? m}{j ? ` ${j}` : ""}</th>))}
              <th scope="col">run</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((p) => (
              <tr key={p.index} data-point={p.index}>
                {dims.map((d) => <td key={d}>{paramText(d, p.params[d] ?? null)}</td>)}
                {[...pair].reverse().map((m) => jobs.map((j) => <td key={`${j}-${m}`} data-job={j} data-metric={m}>{cell(p, m, j)}</td>))}
                <td>{p.run_id ? <button type="button" className="linkish" onClick={() => onOpenRun(p.run_id!)}>open</button> : p.status.toLowerCase()}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
