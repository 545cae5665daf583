import { useMemo } from "react";
import { scaleLinear, scaleLog } from "d3-scale";
import { line, curveStepAfter } from "d3-shape";
import { format } from "d3-format";
import { useParentSize } from "../../../lib/hooks/useParentSize";
import { categorical } from "../../../lib/charts/palette";
import type { FlowRecord } from "../../../lib/api/resultTypes";
import { type CdfBucket, cdfByBucket } from "../utils/cdf";

const MARGIN = { top: 8, right: 24, bottom: 36, left: 52 };
const fmt = (v: number) => (v >= 1e4 ? format("~s")(v) : format(",~g")(v));

/** Empirical CDF of FCT or slowdown, one line per flow-size bucket, log x axis. */
/** `buckets` replaces the per-size grouping (the comparison draws one line per run). */
export function CdfChart({ flows, metric, height = 240, buckets: given }: { flows: FlowRecord[]; metric: "fct_us" | "slowdown"; height?: number; buckets?: CdfBucket[] }) {
  const { ref, width } = useParentSize<HTMLDivElement>();
  const innerW = Math.max(width - MARGIN.left - MARGIN.right, 10);
  const innerH = height - MARGIN.top - MARGIN.bottom;
  const buckets = useMemo(() => given ?? cdfByBucket(flows, metric), [given, flows, metric]);
  const all = buckets.flatMap((b) => b.points.map((p) => p[0]));
  // log axis from the decade below the smallest value (slowdown is >= 1 by definition)
  const floor = metric === "slowdown" ? 1 : 1e-3;
  const lo = Math.max(all.length ? 10 ** Math.floor(Math.log10(Math.max(Math.min(...all), floor))) : 1, floor);
  const hi = Math.max(...all, lo * 10);
  const x = scaleLog().domain([lo, hi]).range([0, innerW]).nice();
  const decades = Math.log10(x.domain()[1] / x.domain()[0]);
  const y = scaleLinear().domain([0, 1]).range([innerH, 0]);
  const gen = line<[number, number]>().x((p) => x(Math.max(p[0], lo))).y((p) => y(p[1])).curve(curveStepAfter);
  return (
    <div ref={ref} className="line-chart">
      <svg className="chart-svg" width={width} height={height} role="img" aria-label={`${metric === "fct_us" ? "FCT" : "Slowdown"} CDF${given ? "" : " by flow size"}`}>
        <g transform={`translate(${MARGIN.left},${MARGIN.top})`}>
          {y.ticks(5).map((v) => (
            <g key={v} transform={`translate(0,${y(v)})`}>
              <line x2={innerW} stroke="#e3e6ea" />
              <text x={-6} dy="0.32em" textAnchor="end" fontSize={10}>{v}</text>
            </g>
          ))}
          {x.ticks().map((v) => {
            const mantissa = Math.round(v / 10 ** Math.floor(Math.log10(v) + 1e-9));
            const label = mantissa === 1 || (decades <= 2 && (mantissa === 2 || mantissa === 5));
            return (
              <g key={v} transform={`translate(${x(v)},0)`} className={label ? "tick-major" : "tick-minor"}>
                <line y1={innerH} y2={innerH + (label ? 5 : 3)} stroke="#888" />
                {label && <text y={innerH + 16} textAnchor="middle" fontSize={10}>{fmt(v)}</text>}
              </g>
            );
          })}
          <text x={innerW} y={innerH + 30} textAnchor="end" fontSize={10} fill="#555">{metric === "fct_us" ? "FCT (us, log scale)" : "slowdown = FCT / ideal FCT (log scale)"}</text>
          <text transform={`translate(${-36},${innerH / 2}) rotate(-90)`} textAnchor="middle" fontSize={10} fill="#555">fraction of flows</text>
          {buckets.map((b, i) => (
            <path key={b.label} className="series-line" d={gen(b.points) ?? ""} fill="none" stroke={categorical(i)} strokeWidth={1.5} data-series={b.label} />
          ))}
        </g>
      </svg>
      <ul className="legend-list">
        {buckets.map((b, i) => (
          <li key={b.label} data-legend-label={`${b.label} (${b.points.length - 1} flows)`} data-legend-color={categorical(i)}><span className="swatch" style={{ background: categorical(i) }} />{b.label} ({b.points.length - 1} flows)</li>
        ))}
      </ul>
    </div>
  );
}
