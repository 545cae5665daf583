import { useMemo } from "react";
import { scaleLinear } from "d3-scale";
import { line } from "d3-shape";
import { format } from "d3-format";
import { useParentSize } from "../../../lib/hooks/useParentSize";
import type { TuningResults } from "../api/tunings";
import { STRATEGY_COLORS } from "../utils/tuning";

const M = { top: 10, right: 20, bottom: 40, left: 70 };
const fmt = format(".4~g");

/** Every two-objective evaluation as a dot; the Pareto front joined by a step line. */
export function ParetoScatter({ results, onPick, height = 300 }: { results: TuningResults; onPick: (id: number) => void; height?: number }) {
  const { ref, width } = useParentSize<HTMLDivElement>();
  const dots = results.evaluations.filter((e) => e.status === "DONE" && e.objectives && e.objectives.length > 1 && e.fidelity >= 1);
  const front = new Set(results.pareto);
  const w = Math.max(width - M.left - M.right, 60);
  const h = height - M.top - M.bottom;
  const { x, y, frontPath } = useMemo(() => {
    const xs = dots.map((d) => d.objectives![0].mean);
    const ys = dots.map((d) => d.objectives![1].mean);
    const x = scaleLinear().domain([Math.min(...xs), Math.max(...xs)]).range([0, w]).nice();
    const y = scaleLinear().domain([Math.min(...ys), Math.max(...ys)]).range([h, 0]).nice();
    const fr = dots.filter((d) => front.has(d.id)).sort((a, b) => a.objectives![0].mean - b.objectives![0].mean);
    const frontPath = line<(typeof fr)[number]>().x((d) => x(d.objectives![0].mean)).y((d) => y(d.objectives![1].mean))(fr) ?? "";
    return { x, y, frontPath };
  }, [results, w, h]); // eslint-disable-line react-hooks/exhaustive-deps -- dots and front derive from results
  const strategies = [...new Set(dots.map((d) => d.strategy))];
  if (dots.length === 0) return <p className="hint">No two-objective evaluation has finished yet.</p>;
  return (
    <div ref={ref}>
      <svg width={width} height={height} role="img" aria-label={`Pareto front: ${results.objectives.join(" against ")}`}>
        <g transform={`translate(${M.left},${M.top})`}>
          {x.ticks(6).map((t) => <text key={t} x={x(t)} y={h + 16} textAnchor="middle" fontSize={11}>{fmt(t)}</text>)}
          {y.ticks(5).map((t) => <text key={t} x={-6} y={y(t)} dy="0.32em" textAnchor="end" fontSize={11}>{fmt(t)}</text>)}
          <text x={w / 2} y={h + 34} textAnchor="middle" fontSize={12} fontWeight={600}>{results.objectives[0]} ({results.goals[0]})</text>
          <text transform={`translate(-56,${h / 2}) rotate(-90)`} textAnchor="middle" fontSize={12} fontWeight={600}>{results.objectives[1]} ({results.goals[1]})</text>
          <path d={frontPath} fill="none" stroke="#222" strokeWidth={1.5} />
          {dots.map((d) => (
            <circle key={d.id} cx={x(d.objectives![0].mean)} cy={y(d.objectives![1].mean)} r={front.has(d.id) ? 6 : 3.5}
              fill={STRATEGY_COLORS[d.strategy] ?? "#333"} stroke={front.has(d.id) ? "#000" : "none"} opacity={front.has(d.id) ? 1 : 0.6}
              data-front={front.has(d.id) ? "1" : "0"} style={{ cursor: "pointer" }} onClick={() => onPick(d.id)}>
              <title>{`${d.strategy}: ${JSON.stringify(d.params)}`}</title>
            </circle>
          ))}
        </g>
      </svg>
      <ul className="legend-list" aria-label="Legend">
        {strategies.map((st) => (
          <li key={st} data-legend-label={`${st} (an evaluation)`} data-legend-color={STRATEGY_COLORS[st] ?? "#333"} data-legend-dash="">
            <svg width={12} height={12} aria-hidden="true"><circle cx={6} cy={6} r={4} fill={STRATEGY_COLORS[st] ?? "#333"} opacity={0.8} /></svg> {st}
          </li>
        ))}
        <li data-legend-label="Pareto front (no other point is better on both objectives)" data-legend-color="#222" data-legend-dash="">
          <svg width={30} height={12} aria-hidden="true"><line x1={0} x2={30} y1={6} y2={6} stroke="#222" strokeWidth={1.5} /><circle cx={15} cy={6} r={5} fill="#fff" stroke="#000" /></svg>{" "}
          Pareto front: large outlined dots, joined (no other point is better on both objectives)
        </li>
      </ul>
    </div>
  );
}
