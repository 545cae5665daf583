import { useEffect, useMemo, useRef } from "react";
import { scaleLinear } from "d3-scale";
import { area, line, curveStepAfter } from "d3-shape";
import { brushX } from "d3-brush";
import { select } from "d3-selection";
import { format } from "d3-format";
import { useParentSize } from "../../../lib/hooks/useParentSize";
import { categorical, categoricalDash as dash } from "../../../lib/charts/palette";
import { visibleIndices } from "../../../lib/charts/downsample";

export interface NamedSeries {
  name: string;
  values: number[];
  /** Id the page uses for highlighting (a port name, a flow id); defaults to name. */
  key?: string;
  /** A shaded interval around the line (the 95% band over seeds), sampled like values. */
  band?: { lo: number[]; hi: number[] };
}

export interface LineChartProps {
  t: number[];
  series: NamedSeries[];
  xDomain: [number, number];
  yLabel: string;
  height?: number;
  step?: boolean;
  yFormat?: (v: number) => string;
  /** Called with the brushed time range; the chart itself does not zoom. */
  onBrush?: (range: [number, number]) => void;
  /** Vertical marker (the overlay's time scrubber). */
  marker?: number | null;
  /** Warm-up end (us): shaded, since summary statistics ignore it. */
  warmupUs?: number;
  /** Fixed y domain [0, yFixedMax] and its ticks (coded values such as the pause state). */
  yFixedMax?: number;
  yTicks?: number[];
  /** Key of the series drawn on top and thicker; the others fade. */
  highlight?: string | null;
  /** Legend click. */
  onPick?: (key: string) => void;
  /** Values can be negative (differences): the y axis reaches below zero, with a zero line. */
  signed?: boolean;
}

const MARGIN = { top: 8, right: 12, bottom: 30, left: 64 };
const tickFmt = format("~s");

/** Line chart over a shared time axis (us); D3 computes paths and ticks, React draws. */
export function LineChart({ t, series, xDomain, yLabel, height = 200, step, yFormat = tickFmt, onBrush, marker, warmupUs = 0, yFixedMax, yTicks, highlight, onPick, signed }: LineChartProps) {
  const { ref, width } = useParentSize<HTMLDivElement>();
  const brushRef = useRef<SVGGElement>(null);
  const innerW = Math.max(width - MARGIN.left - MARGIN.right, 10);
  const innerH = height - MARGIN.top - MARGIN.bottom;

  const x = useMemo(() => scaleLinear().domain(xDomain).range([0, innerW]), [xDomain, innerW]);
  // The y axis fits the samples inside the visible time range, so a zoom rescales it too.
  const yMax = useMemo(() => visibleMax(t, series, xDomain), [t, series, xDomain]);
  const yMin = useMemo(() => (signed ? visibleMin(t, series, xDomain) : 0), [signed, t, series, xDomain]);
  const y = useMemo(
    () => (yFixedMax != null ? scaleLinear().domain([0, yFixedMax]) : scaleLinear().domain([yMin, yMax]).nice()).range([innerH, 0]),
    [yMin, yMax, yFixedMax, innerH],
  );
  const paths = useMemo(() => {
    const gen = line<number>()
      .x((i) => x(t[i]));
    if (step) gen.curve(curveStepAfter);
    return series.map((s) => {
      const idx = visibleIndices(t, s.values, xDomain[0], xDomain[1], Math.max(Math.floor(innerW), 1));
      return gen.y((i) => y(s.values[i]))(idx) ?? "";
    });
  }, [series, t, x, y, step, xDomain, innerW]);
  const bands = useMemo(() => series.map((s) => {
    if (!s.band) return null;
    const { lo, hi } = s.band;
    // the band's upper edge picks the samples, so its peaks survive the per-column thinning
    const idx = visibleIndices(t, hi, xDomain[0], xDomain[1], Math.max(Math.floor(innerW), 1));
    const gen = area<number>().x((i) => x(t[i])).y0((i) => y(lo[i])).y1((i) => y(hi[i]));
    if (step) gen.curve(curveStepAfter);
    return gen(idx) ?? "";
  }), [series, t, x, y, step, xDomain, innerW]);

  useEffect(() => {
    const g = brushRef.current;
    if (!g || !onBrush) return;
    const b = brushX<unknown>()
      .extent([[0, 0], [innerW, innerH]])
      .on("end", (event) => {
        if (!event.selection) return;
        const [a, z] = event.selection as [number, number];
        select(g).call(b.move, null);
        if (z - a > 2) onBrush([x.invert(a), x.invert(z)]);
      });
    select(g).call(b);
    return () => {
      select(g).on(".brush", null);
    };
  }, [innerW, innerH, x, onBrush]);

  const clipId = useMemo(() => `clip-${Math.random().toString(36).slice(2)}`, []);
  return (
    <div ref={ref} className="line-chart">
      <svg className="chart-svg" width={width} height={height} role="img" aria-label={`${yLabel} over time`}>
        <defs>
          <clipPath id={clipId}><rect width={innerW} height={innerH} /></clipPath>
        </defs>
        <g transform={`translate(${MARGIN.left},${MARGIN.top})`}>
          {(yTicks ?? y.ticks(4)).map((v) => (
            <g key={v} transform={`translate(0,${y(v)})`}>
              <line x2={innerW} stroke="#e3e6ea" />
              <text x={-6} dy="0.32em" textAnchor="end" fontSize={10}>{yFormat(v)}</text>
            </g>
          ))}
          {x.ticks(6).map((v) => (
            <text key={v} x={x(v)} y={innerH + 14} textAnchor="middle" fontSize={10}>{tickFmt(v)}</text>
          ))}
          <text x={innerW} y={innerH + 27} textAnchor="end" fontSize={10} fill="#555">time (us)</text>
          <text transform={`translate(${-MARGIN.left + 12},${innerH / 2}) rotate(-90)`} textAnchor="middle" fontSize={11}>{yLabel}</text>
          <g clipPath={`url(#${clipId})`}>
            {warmupUs > xDomain[0] && (
              <rect className="warmup" x={0} width={Math.max(0, x(warmupUs))} height={innerH} fill="#eef0f3">
                <title>warm-up (not in the summary)</title>
              </rect>
            )}
            {bands.map((d, i) => d && (
              <path key={`band-${series[i].key ?? series[i].name}`} className="series-band" d={d} fill={categorical(i)} fillOpacity={0.18} stroke="none" data-series={series[i].name} />
            ))}
            {paths.map((d, i) => {
              const k = series[i].key ?? series[i].name;
              const dim = highlight != null && highlight !== k;
              return (
                <path key={k} className={`series-line${highlight === k ? " highlighted" : ""}`} d={d} fill="none" stroke={categorical(i)} strokeDasharray={dash(i)}
                  strokeWidth={highlight === k ? 3 : 1.5} strokeOpacity={dim ? 0.25 : 1} data-series={series[i].name} />
              );
            })}
            {signed && yMin < 0 && <line className="zero-line" x1={0} x2={innerW} y1={y(0)} y2={y(0)} stroke="#555" strokeWidth={1} />}
            {marker != null && <line className="marker" x1={x(marker)} x2={x(marker)} y2={innerH} stroke="#d62728" strokeDasharray="3 3" />}
          </g>
          {onBrush && <g ref={brushRef} className="brush" />}
        </g>
      </svg>
      {series.length > 0 && (
        <ul className="legend-list">
          {series.slice(0, 16).map((s, i) => (
            <li key={s.key ?? s.name} data-legend-label={s.name} data-legend-color={categorical(i)} data-legend-dash={dash(i) ?? ""}
              className={highlight === (s.key ?? s.name) ? "highlighted" : undefined}>
              <svg className="line-swatch" width={18} height={8} aria-hidden="true"><line x1={0} x2={18} y1={4} y2={4} stroke={categorical(i)} strokeWidth={2} strokeDasharray={dash(i)} /></svg>
              {onPick ? <button type="button" className="linkish" onClick={() => onPick(s.key ?? s.name)}>{s.name}</button> : s.name}
            </li>
          ))}
          {series.length > 16 && <li>+{series.length - 16} more (download the result JSON)</li>}
        </ul>
      )}
    </div>
  );
}

/** Largest sample inside [x0, x1] (1 when all are zero). */
export function visibleMax(t: number[], series: NamedSeries[], [x0, x1]: [number, number]): number {
  let lo = 0;
  while (lo < t.length && t[lo] < x0) lo += 1;
  // the sample before the range still draws the line entering it
  lo = Math.max(0, lo - 1);
  let m = 0;
  for (const s of series) {
    for (let i = lo; i < t.length && i < s.values.length; i += 1) {
      if (i > lo && t[i - 1] > x1) break;
      if (s.values[i] > m) m = s.values[i];
      if (s.band && s.band.hi[i] > m) m = s.band.hi[i];
    }
  }
  return m || 1;
}

/** Smallest sample inside [x0, x1], at most 0 (the axis of a difference always shows zero). */
export function visibleMin(t: number[], series: NamedSeries[], [x0, x1]: [number, number]): number {
  let m = 0;
  for (const s of series) {
    for (let i = 0; i < t.length && i < s.values.length; i += 1) {
      if (t[i] < x0 && !(i + 1 < t.length && t[i + 1] >= x0)) continue;
      if (i > 0 && t[i - 1] > x1) break;
      if (s.values[i] < m) m = s.values[i];
    }
  }
  return m;
}
