import { useMemo, useState } from "react";
import { scaleLinear } from "d3-scale";
import { format } from "d3-format";
import { useParentSize } from "../../../lib/hooks/useParentSize";
import { CATEGORICAL } from "../../../lib/charts/palette";
import type { Job } from "../../../lib/api/resultTypes";
import { formatCount, formatDurationUs } from "../../../lib/format";
import { channelOptionText, channelsOf, isTreeJob, stepBars } from "../utils/jobs";

const MARGIN = { top: 22, right: 16, bottom: 36, left: 44 };
/** Network steps blue, NVLink-only steps green, the slowest step vermillion (Okabe-Ito). */
export const STEP_COLORS = { network: CATEGORICAL[0], nvlink: CATEGORICAL[2], slowest: CATEGORICAL[5] } as const;
const fmt = format(",~g");

const LABEL_W = 144;

/** Where the slowest step's label goes: right of its bar, else left of it, else inside it (black on
 *  vermillion), else nowhere (the legend names the step anyway). */
export function labelPlacement(x0: number, x1: number, width: number): { x: number; anchor: "start" | "end" } | null {
  if (x1 + 4 + LABEL_W <= width) return { x: x1 + 4, anchor: "start" };
  if (x0 - 4 - LABEL_W >= 0) return { x: x0 - 4, anchor: "end" };
  if (x1 - x0 >= LABEL_W + 8) return { x: x0 + 4, anchor: "start" };
  return null;
}

/**
 * A job's steps over time, one channel at a time: a bar per step (its rows are step numbers) from
 * its first transfer's start to its last completion, the iterations shaded behind, the job's
 * slowest step (the card's) in vermillion.
 */
export function JobTimeline({ job, runEndUs }: { job: Job; /** The run's simulated end: where an unfinished step's bar ends. */ runEndUs?: number }) {
  const { ref, width } = useParentSize<HTMLDivElement>();
  const channels = channelsOf(job);
  const [channel, setChannel] = useState<number>(job.slowest_step?.channel ?? channels[0] ?? 0);
  const lastSeen = Math.max(job.jct_us ?? 0, ...job.iterations.map((i) => i.end_us ?? 0), ...job.steps.map((s) => s.end_us ?? s.start_us ?? 0));
  // an unfinished job's running steps last until the run ended, not until the last step started
  const endUs = !job.completed && runEndUs != null ? Math.max(lastSeen, runEndUs) : lastSeen;
  const finished = job.steps.filter((st) => st.end_us != null).length;
  const started = job.steps.filter((st) => st.start_us != null).length;
  const startUs = Math.min(...job.iterations.map((i) => i.start_us ?? endUs), endUs);
  const bars = useMemo(() => stepBars(job, channel, endUs), [job, channel, endUs]);
  const rows = Math.max(1, ...bars.map((b) => b.step + 1));
  // 2 px rows at least: a 128-rank ring (254 steps) stays about 500 px tall
  const rowH = Math.max(2, Math.min(14, Math.floor(280 / rows)));
  const height = MARGIN.top + MARGIN.bottom + rows * rowH;
  const innerW = Math.max(width - MARGIN.left - MARGIN.right, 10);
  const innerH = rows * rowH;
  const x = scaleLinear().domain([startUs, endUs > startUs ? endUs : startUs + 1]).range([0, innerW]);
  const y = (step: number) => step * rowH;
  const slow = bars.find((b) => b.slowest);
  const slowLabel = slow ? labelPlacement(x(slow.startUs), x(slow.endUs), innerW) : null;
  const slowText = `the job's slowest step${slow ? `: step ${slow.step}, iteration ${slow.iteration}, ${formatDurationUs(slow.endUs - slow.startUs)}` : " (on another channel)"}`;
  const yTicks = scaleLinear().domain([0, rows]).ticks(Math.min(rows, 6)).filter((t) => Number.isInteger(t) && t < rows);
  return (
    <div className="job-timeline">
      {channels.length > 1 && (
        <label className="inline">{isTreeJob(job) ? "Tree" : "Channel"}{" "}
          <select aria-label={`${isTreeJob(job) ? "Tree" : "Channel"} of ${job.name}`} value={channel} onChange={(e) => setChannel(Number(e.target.value))}>
            {channels.map((c) => <option key={c} value={c}>{channelOptionText(job, c)}{c === job.slowest_step?.channel ? " (slowest step)" : ""}</option>)}
          </select>
        </label>
      )}
      {finished === 0 ? (
        <p className="hint" data-testid="no-step-finished">
          No step finished: {started > 0
            ? `${formatCount(started)} step${started === 1 ? " was" : "s were"} still running when the run ended${runEndUs != null ? ` at ${formatDurationUs(runEndUs)}` : ""}`
            : "none started before the run ended"}, so there is nothing to draw.
        </p>
      ) : bars.length === 0 ? (
        <p className="hint">No step of {channelOptionText(job, channel)} started.</p>
      ) : null}
      {finished > 0 && <div ref={ref} className="line-chart">
        <svg className="chart-svg" width={width} height={height} role="img" aria-label={`Steps of ${job.name}, channel ${channel}, over time`}>
          <g transform={`translate(${MARGIN.left},${MARGIN.top})`}>
            {job.iterations.map((it) => it.start_us != null && (
              <g key={it.index} className="iteration-band" data-iteration={it.index}>
                <rect x={x(it.start_us)} width={Math.max(1, x(it.end_us ?? endUs) - x(it.start_us))} y={0} height={innerH}
                  fill={it.index % 2 ? "#eef1f4" : "#f7f8fa"} />
                <text x={x(it.start_us) + 2} y={-6} fontSize={10} fill="#555">iteration {it.index}{it.time_us != null ? `: ${formatDurationUs(it.time_us)}` : ""}</text>
              </g>
            ))}
            {yTicks.map((t) => (
              <g key={t} transform={`translate(0,${y(t) + rowH / 2})`}>
                <text x={-6} dy="0.32em" textAnchor="end" fontSize={10}>{t}</text>
              </g>
            ))}
            {x.ticks(6).map((t) => (
              <g key={t} transform={`translate(${x(t)},${innerH})`}>
                <line y2={4} stroke="#888" />
                <text y={15} textAnchor="middle" fontSize={10}>{fmt(t)}</text>
              </g>
            ))}
            <text x={innerW} y={innerH + 30} textAnchor="end" fontSize={10} fill="#555">time (us)</text>
            <text transform={`translate(${-32},${innerH / 2}) rotate(-90)`} textAnchor="middle" fontSize={10} fill="#555">step</text>
            {[...bars].sort((a, b) => Number(a.slowest) - Number(b.slowest)).map((b) => {
              // on rows thinner than 4 px the slowest bar is drawn 5 px tall and unstroked, so it reads
              // vermillion (the legend's colour) rather than as a black hairline
              const tall = b.slowest && rowH < 4;
              return (
                <rect key={b.key} className={`step-bar${b.slowest ? " slowest" : ""}`} data-step={b.step} data-iteration={b.iteration} data-via={b.via}
                  x={x(b.startUs)} width={Math.max(tall ? 3 : 1, x(b.endUs) - x(b.startUs))} y={tall ? y(b.step) + rowH / 2 - 2.5 : y(b.step) + 0.5}
                  height={tall ? 5 : Math.max(1, rowH - 1)}
                  fill={b.slowest ? STEP_COLORS.slowest : STEP_COLORS[b.via]} stroke={b.slowest && !tall ? "#000" : "none"}
                  shapeRendering={rowH < 4 ? "crispEdges" : undefined}>
                  <title>{b.title}</title>
                </rect>
              );
            })}
            {slow && innerW >= 700 && slowLabel && (
              <text className="slowest-label" x={slowLabel.x} y={y(slow.step) + rowH / 2} dy="0.32em" fontSize={10}
                textAnchor={slowLabel.anchor} fill="#000">
                slowest: step {slow.step}, {formatDurationUs(slow.endUs - slow.startUs)}
              </text>
            )}
          </g>
        </svg>
      </div>}
      {finished > 0 && <ul className="legend-list">
        <li data-legend-label="step with network transfers" data-legend-color={STEP_COLORS.network}><span className="swatch" style={{ background: STEP_COLORS.network }} />step with network transfers</li>
        <li data-legend-label="step inside servers only (NVLink)" data-legend-color={STEP_COLORS.nvlink}><span className="swatch" style={{ background: STEP_COLORS.nvlink }} />step inside servers only (NVLink)</li>
        <li data-legend-label={slowText} data-slowest-legend data-legend-color={STEP_COLORS.slowest}><span className="swatch" style={{ background: STEP_COLORS.slowest }} />{slowText}</li>
      </ul>}
    </div>
  );
}
