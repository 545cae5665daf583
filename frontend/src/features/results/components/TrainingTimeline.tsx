import { useMemo } from "react";
import { scaleBand, scaleLinear } from "d3-scale";
import { useParentSize } from "../../../lib/hooks/useParentSize";
import { CATEGORICAL } from "../../../lib/charts/palette";
import { formatDurationUs } from "../../../lib/format";
import {
  COMM_KINDS,
  KIND_NAMES,
  KIND_SHORT,
  TRAINING_KINDS,
  type TrainingKind,
  type TrainingResult,
  type TrainingSpan,
  timelineTotals,
} from "../utils/training";

const MARGIN = { top: 8, right: 12, bottom: 34, left: 64 };
const ROW_H = 26;
/** One colour per kind (Okabe-Ito); exposed spans full and outlined, hidden ones faded. */
export const KIND_COLORS: Record<TrainingKind, string> = {
  compute: CATEGORICAL[2],
  tp: CATEGORICAL[0],
  pp: CATEGORICAL[1],
  dp: CATEGORICAL[3],
  ep: CATEGORICAL[5],
};
export const HIDDEN_OPACITY = 0.3;

/** Spans of one kind and exposure that touch or lie closer than `gapUs` merge into one bar: a
 *  70B-class iteration has thousands of TP all-reduces, most narrower than a pixel. */
export function mergeSpans(spans: TrainingSpan[], gapUs: number): TrainingSpan[] {
  const out: TrainingSpan[] = [];
  for (const kind of TRAINING_KINDS) {
    for (const exposed of [false, true]) {
      const mine = spans
        .filter((s) => s.kind === kind && s.exposed === exposed)
        .sort((a, b) => a.start_us - b.start_us);
      let cur: TrainingSpan | null = null;
      for (const s of mine) {
        if (cur && s.start_us <= cur.end_us + gapUs) cur.end_us = Math.max(cur.end_us, s.end_us);
        else {
          if (cur) out.push(cur);
          cur = { ...s };
        }
      }
      if (cur) out.push(cur);
    }
  }
  // hidden first, so exposed bars draw on top
  return out.sort((a, b) => Number(a.exposed) - Number(b.exposed));
}

/**
 * One iteration of a training job by kind (rows compute, TP, PP, DP, EP): a bar per span, the
 * communication that was exposed (on the critical path) in full colour and outlined, the hidden
 * communication faded. The legend gives each row's totals, the same figures as the cards.
 */
export function TrainingTimeline({ training, name }: { training: TrainingResult; name: string }) {
  const { ref, width } = useParentSize<HTMLDivElement>();
  const totals = useMemo(() => timelineTotals(training), [training]);
  const innerW = Math.max(width - MARGIN.left - MARGIN.right, 10);
  const innerH = TRAINING_KINDS.length * ROW_H;
  const x = scaleLinear()
    .domain([totals.startUs, totals.endUs > totals.startUs ? totals.endUs : totals.startUs + 1])
    .range([0, innerW]);
  const y = scaleBand<TrainingKind>()
    .domain([...TRAINING_KINDS])
    .range([0, innerH])
    .padding(0.18);
  const usPerPx = (x.domain()[1] - x.domain()[0]) / innerW;
  const bars = useMemo(() => mergeSpans(training.timeline ?? [], usPerPx * 0.5), [training, usPerPx]);
  if (!training.timeline?.length) return <p className="hint">The result lists no timeline for this job.</p>;
  return (
    <div className="training-timeline">
      <div ref={ref} className="line-chart">
        <svg
          className="chart-svg"
          width={width}
          height={innerH + MARGIN.top + MARGIN.bottom}
          role="img"
          aria-label={`One iteration of ${name} by kind: compute, TP, PP, DP and EP, exposed communication highlighted`}
        >
          <g transform={`translate(${MARGIN.left},${MARGIN.top})`}>
            {TRAINING_KINDS.map((k) => (
              <g key={k} data-row={k}>
                <rect x={0} y={y(k)} width={innerW} height={y.bandwidth()} fill="#f4f5f7" />
                <text x={-6} y={(y(k) ?? 0) + y.bandwidth() / 2} dy="0.32em" textAnchor="end" fontSize={11}>
                  {KIND_SHORT[k]}
                </text>
              </g>
            ))}
            {bars.map((b, i) => {
              // a bar of a pixel or two outlined would read black: its colour matters more there
              const w = Math.max(1, x(b.end_us) - x(b.start_us));
              return (
                <rect
                  key={i}
                  className={`training-span${b.exposed ? " exposed" : ""}`}
                  data-kind={b.kind}
                  data-exposed={b.exposed}
                  x={x(b.start_us)}
                  width={w}
                  y={y(b.kind)}
                  height={y.bandwidth()}
                  fill={KIND_COLORS[b.kind]}
                  fillOpacity={b.kind === "compute" || b.exposed ? 1 : HIDDEN_OPACITY}
                  stroke={b.exposed && b.kind !== "compute" && w >= 4 ? "#000" : "none"}
                  strokeWidth={1}
                >
                  <title>{`${KIND_NAMES[b.kind]}${b.kind === "compute" ? "" : b.exposed ? ", exposed" : ", hidden behind compute"}: ${formatDurationUs(b.start_us)} to ${formatDurationUs(b.end_us)}`}</title>
                </rect>
              );
            })}
            {x.ticks(Math.max(2, Math.floor(innerW / 90))).map((t) => (
              <g key={t} transform={`translate(${x(t)},${innerH})`}>
                <line y2={4} stroke="#888" />
                <text y={15} textAnchor="middle" fontSize={10}>
                  {formatDurationUs(t)}
                </text>
              </g>
            ))}
            <text x={innerW} y={innerH + 30} textAnchor="end" fontSize={10} fill="#555">
              time from the job's start
            </text>
          </g>
        </svg>
      </div>
      <ul className="legend-list" data-testid="training-legend">
        <li data-legend-kind="compute" data-total-us={totals.computeUs} data-legend-color={KIND_COLORS.compute}>
          <span className="swatch" style={{ background: KIND_COLORS.compute }} />
          compute: {formatDurationUs(totals.computeUs)}
        </li>
        {COMM_KINDS.map((k) => (
          <li key={k} data-legend-kind={k} data-exposed-us={totals.exposedUs[k]} data-legend-color={KIND_COLORS[k]}>
            <span className="swatch" style={{ background: KIND_COLORS[k] }} />
            {KIND_NAMES[k]}:{" "}
            {totals.commUs[k] > 0
              ? `${formatDurationUs(totals.exposedUs[k])} exposed, ${formatDurationUs(totals.commUs[k])} in flight`
              : "none"}
          </li>
        ))}
        <li data-legend-kind="idle" data-total-us={totals.idleUs}>
          <span className="swatch" style={{ background: "#f4f5f7", border: "1px solid #ccc" }} />
          idle, no row filled (the pipeline bubble): {formatDurationUs(totals.idleUs)}
        </li>
        <li>
          <span className="swatch swatch-exposed" style={{ background: "#fff", border: "1.5px solid #000" }} />
          outlined, full colour: exposed (the rank was not computing; when several kinds wait at once the time counts
          for the first of TP, EP, PP, DP); faded: hidden behind compute
        </li>
      </ul>
    </div>
  );
}
