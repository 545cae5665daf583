import { useMemo } from "react";
import { scaleLinear } from "d3-scale";
import { line } from "d3-shape";
import { format } from "d3-format";
import { useParentSize } from "../../../lib/hooks/useParentSize";
import { type CurvePoint, STRATEGY_COLORS } from "../utils/tuning";

const M = { top: 10, right: 110, bottom: 40, left: 64 };
const fmt = format(".4~g");

/** Best objective so far against evaluations (D3 computes scales and paths, React renders). */
export function BestSoFarChart({ curves, label, height = 260 }: { curves: Record<string, CurvePoint[]>; label: string; height?: number }) {
  const { ref, width } = useParentSize<HTMLDivElement>();
  const names = Object.keys(curves).filter((k) => curves[k].length > 0);
  const all = names.flatMap((k) => curves[k]);
  const w = Math.max(width - M.left - M.right, 60);
  const h = height - M.top - M.bottom;
  const { x, y, paths } = useMemo(() => {
    const maxN = Math.max(1, ...all.map((p) => p.n));
    const lo = Math.min(...all.map((p) => p.best));
    const hi = Math.max(...all.map((p) => p.best));
    const pad = hi === lo ? Math.abs(hi) * 0.05 || 1 : (hi - lo) * 0.08;
    const x = scaleLinear().domain([0, maxN]).range([0, w]);
    const y = scaleLinear().domain([lo - pad, hi + pad]).range([h, 0]).nice();
    const gen = line<CurvePoint>().x((p) => x(p.n)).y((p) => y(p.best));
    // a fixed point (one evaluation) is drawn as a level line across the chart
    const paths = Object.fromEntries(names.map((k) => [k, curves[k].length === 1
      ? `M0,${y(curves[k][0].best)}H${w}` : gen(curves[k]) ?? ""]));
    return { x, y, paths };
  }, [curves, w, h]);
  if (names.length === 0) return <p className="hint">No evaluation has finished yet.</p>;
  return (
    <div ref={ref} className="best-so-far">
      <svg width={width} height={height} role="img" aria-label={`Best ${label} so far against evaluations`}>
        <g transform={`translate(${M.left},${M.top})`}>
          {y.ticks(5).map((t) => (
            <g key={t} transform={`translate(0,${y(t)})`}>
              <line x2={w} stroke="#eee" />
              <text x={-6} dy="0.32em" textAnchor="end" fontSize={11}>{fmt(t)}</text>
            </g>
          ))}
          {x.ticks(6).map((t) => (
            <text key={t} x={x(t)} y={h + 16} textAnchor="middle" fontSize={11}>{fmt(t)}</text>
          ))}
          <text x={w / 2} y={h + 34} textAnchor="middle" fontSize={12} fontWeight={600}>evaluations (full-duration equivalents)</text>
          <text transform={`translate(${-50},${h / 2}) rotate(-90)`} textAnchor="middle" fontSize={12} fontWeight={600}>best {label}</text>
          {names.map((k) => (
            <path key={k} d={paths[k]} fill="none" stroke={STRATEGY_COLORS[k] ?? "#333"} strokeWidth={2}
              strokeDasharray={curves[k].length === 1 ? "5 4" : undefined} data-strategy={k} />
          ))}
          {names.map((k, i) => (
            <g key={k} transform={`translate(${w + 12},${i * 18 + 6})`}>
              <line x2={18} stroke={STRATEGY_COLORS[k] ?? "#333"} strokeWidth={3} strokeDasharray={curves[k].length === 1 ? "5 4" : undefined} />
              <text x={24} dy="0.32em" fontSize={12}>{k}</text>
            </g>
          ))}
        </g>
      </svg>
    </div>
  );
}
