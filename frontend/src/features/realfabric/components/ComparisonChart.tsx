import { useMemo } from "react";
import { scaleLog } from "d3-scale";
import { line } from "d3-shape";
import { format } from "d3-format";
import { useParentSize } from "../../../lib/hooks/useParentSize";
import type { ComparedPoint } from "../api/realFabric";
import { type ChartPoint, formatRatio, formatSize, logDomains } from "../utils/measurement";

const MARGIN = { top: 12, right: 16, bottom: 40, left: 64 };
const MEASURED = "#1f5fa8";
const SIMULATED = "#d2691e";
const DIFFERS = "#c0262d";
const yFmt = format("~s");

const sizeOf = (p: ChartPoint) => p.size;

/** Powers of two inside the domain, at most `max` of them labelled (every k-th). */
function binaryTicks([lo, hi]: [number, number], max = 8): number[] {
  const out: number[] = [];
  for (let e = Math.ceil(Math.log2(lo)); e <= Math.floor(Math.log2(hi)); e++) out.push(2 ** e);
  const step = Math.max(1, Math.ceil(out.length / max));
  return out.filter((_, i) => i % step === 0);
}

/** Decades when there are two or more, else every k-th tick (at most 6). */
function logTicks(all: number[]): number[] {
  const decades = all.filter((t) => Math.abs(Math.log10(t) - Math.round(Math.log10(t))) < 1e-9);
  if (decades.length >= 2) return decades;
  const step = Math.max(1, Math.ceil(all.length / 6));
  return all.filter((_, i) => i % step === 0);
}

/**
 * Measured against simulated on log-log axes (D3 computes the scales and paths, React draws):
 * the measured line with dots, the simulated one dashed with squares, and a red ring on every
 * size where the two differ by more than the threshold. Each mark's <title> reads its numbers.
 */
export function ComparisonChart({ points, unit, label, height = 320 }: {
  points: ComparedPoint[];
  unit: string;
  label: string;
  height?: number;
}) {
  const { ref, width } = useParentSize<HTMLDivElement>();
  const innerW = Math.max(width - MARGIN.left - MARGIN.right, 10);
  const innerH = height - MARGIN.top - MARGIN.bottom;
  const measured = useMemo(() => points.filter((p) => p.measured != null && p.measured > 0)
    .map((p) => ({ size: p.size_bytes, value: p.measured! })), [points]);
  const simulated = useMemo(() => points.filter((p) => p.simulated != null && p.simulated > 0)
    .map((p) => ({ size: p.size_bytes, value: p.simulated! })), [points]);
  const domains = useMemo(() => logDomains([measured, simulated]), [measured, simulated]);
  const x = useMemo(() => scaleLog().base(2).domain(domains?.x ?? [1, 2]).range([0, innerW]), [domains, innerW]);
  const y = useMemo(() => scaleLog().domain(domains?.y ?? [1, 10]).range([innerH, 0]), [domains, innerH]);
  const path = useMemo(() => line<ChartPoint>().x((p) => x(sizeOf(p))).y((p) => y(p.value)), [x, y]);
  if (!domains) return <div ref={ref} className="comparison-chart empty">Nothing to plot yet.</div>;
  const yTicks = logTicks(y.ticks(6));
  return (
    <div ref={ref} className="comparison-chart">
      <svg width={width} height={height} role="img" aria-label={`${label} against message size, measured and simulated, log-log`}>
        <g transform={`translate(${MARGIN.left},${MARGIN.top})`}>
          {yTicks.map((t) => (
            <g key={`y${t}`} transform={`translate(0,${y(t)})`} className="tick">
              <line x2={innerW} stroke="#e4e7ec" />
              <text x={-6} dy="0.32em" textAnchor="end">{yFmt(t)}</text>
            </g>
          ))}
          {binaryTicks(domains.x, Math.max(2, Math.floor(innerW / 72))).map((t) => (
            <g key={`x${t}`} transform={`translate(${x(t)},${innerH})`} className="tick">
              <line y2={5} stroke="#888" />
              <text y={18} textAnchor="middle">{formatSize(t)}</text>
            </g>
          ))}
          <line x1={0} x2={innerW} y1={innerH} y2={innerH} stroke="#888" />
          <text className="axis-label" x={innerW / 2} y={innerH + 34} textAnchor="middle">message size (bytes, log)</text>
          <text className="axis-label" transform={`translate(${-50},${innerH / 2}) rotate(-90)`} textAnchor="middle">{label} ({unit}, log)</text>
          <path d={path(measured) ?? ""} fill="none" stroke={MEASURED} strokeWidth={2} data-series="measured" />
          <path d={path(simulated) ?? ""} fill="none" stroke={SIMULATED} strokeWidth={2} strokeDasharray="6 4" data-series="simulated" />
          {points.map((p) => {
            const m = p.measured != null && p.measured > 0 ? y(p.measured) : null;
            const s = p.simulated != null && p.simulated > 0 ? y(p.simulated) : null;
            const cx = x(p.size_bytes);
            const text = `${formatSize(p.size_bytes)}: measured ${p.measured == null ? "—" : format(".4~r")(p.measured)}, simulated ${p.simulated == null ? "—" : format(".4~r")(p.simulated)} ${unit}; ratio ${formatRatio(p.ratio)}`;
            return (
              <g key={p.size_bytes} data-size={p.size_bytes} data-differs={p.differs ? "true" : "false"}>
                {p.differs && m != null && <circle cx={cx} cy={m} r={9} fill="none" stroke={DIFFERS} strokeWidth={2} className="differs-mark"><title>{text}</title></circle>}
                {m != null && <circle cx={cx} cy={m} r={4} fill={MEASURED}><title>{text}</title></circle>}
                {s != null && <rect x={cx - 4} y={s - 4} width={8} height={8} fill={SIMULATED}><title>{text}</title></rect>}
              </g>
            );
          })}
        </g>
      </svg>
      <ul className="legend" aria-label="Legend">
        <li><span className="swatch" style={{ background: MEASURED }} /> measured</li>
        <li><span className="swatch" style={{ background: SIMULATED }} /> simulated</li>
        <li><span className="swatch ring" style={{ borderColor: DIFFERS }} /> differs by more than 10 %</li>
      </ul>
    </div>
  );
}
