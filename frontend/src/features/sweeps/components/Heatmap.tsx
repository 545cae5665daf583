import { useEffect, useMemo, useRef, useState } from "react";
import { format } from "d3-format";
import { useParentSize } from "../../../lib/hooks/useParentSize";
import { type Grid, type GridCell, type ParamValue } from "../../../lib/charts/grid";
import { drawHeatmapCells } from "../utils/drawHeatmap";
import { NO_DATA_COLOR } from "../../../lib/charts/color";
import { ColorLegend } from "../../../components/ColorLegend";

/** Above this many cells the grid is painted on a canvas instead of SVG rects. */
export const CANVAS_THRESHOLD = 600;

const MARGIN = { top: 12, right: 20, bottom: 56, left: 90 };
const fmt = format(".4~g");
const intFmt = format(",");
const si = format(".3~s");
const plain = format(".3~g");
/** Cell numbers: 0.614 as it is, 1,003,590 as 1M (SI prefixes only for large values). */
const short = (v: number) => (Math.abs(v) >= 1e4 ? si(v) : plain(v));
/** Black or white text, whichever reads better on `background` (an rgb() or #hex colour). */
function contrast(background: string): string {
  const m = background.match(/\d+/g);
  const [r, g, b] = background.startsWith("#")
    ? [1, 3, 5].map((i) => parseInt(background.slice(i, i + 2), 16))
    : (m ?? ["0", "0", "0"]).slice(0, 3).map(Number);
  return 0.299 * r + 0.587 * g + 0.114 * b > 140 ? "#000" : "#fff";
}
export const label = (v: ParamValue) =>
  typeof v === "number" ? (Number.isInteger(v) && Math.abs(v) < 1e9 ? intFmt(v) : fmt(v)) : String(v);

/** A marked cell (a strategy's pick) and a drawn path (annealing's accepted moves). */
export interface HeatmapMark { xi: number; yi: number; label: string; color: string; id?: number }

export interface HeatmapProps {
  grid: Grid;
  xLabel: string;
  yLabel: string;
  metricLabel: string;
  color: ((v: number) => string) & { domain: () => number[] };
  title?: string;
  height?: number;
  onCellClick?: (cell: GridCell) => void;
  renderTooltip?: (cell: GridCell) => React.ReactNode;
  marks?: HeatmapMark[];
  path?: { xi: number; yi: number }[];
  onMarkClick?: (mark: HeatmapMark) => void;
  /** A cell's value in its unit (default: 3 significant digits). */
  formatValue?: (v: number) => string;
}

export function Heatmap({ grid, xLabel, yLabel, metricLabel, color, title, height = 360, onCellClick, renderTooltip, marks = [], path = [], onMarkClick, formatValue = short }: HeatmapProps) {
  const { ref, width } = useParentSize<HTMLDivElement>();
  const canvasRef = useRef<HTMLCanvasElement>(null);
  // the hovered position, not the cell: a cell that finishes under a still mouse shows its new
  // state (a tooltip kept "status PENDING" over a finished cell until the mouse moved)
  const [hoverAt, setHoverAt] = useState<{ xi: number; yi: number } | null>(null);
  const hover = hoverAt ? grid.cells.find((c) => c.xi === hoverAt.xi && c.yi === hoverAt.yi) ?? null : null;
  const setHover = (c: GridCell | null | undefined) => setHoverAt(c ? { xi: c.xi, yi: c.yi } : null);
  const innerW = Math.max(width - MARGIN.left - MARGIN.right, 40);
  const innerH = Math.max(height - MARGIN.top - MARGIN.bottom, 40);
  const cellW = innerW / Math.max(grid.xValues.length, 1);
  const cellH = innerH / Math.max(grid.yValues.length, 1);
  const useCanvas = grid.cells.length > CANVAS_THRESHOLD;
  const fill = useMemo(() => (v: number | null) => (v === null ? NO_DATA_COLOR : color(v)), [color]);
  // y values grow upwards: row 0 at the bottom
  const rowY = (yi: number) => (grid.yValues.length - 1 - yi) * cellH;
  // pick dots and the annealing path sit at a cell's centre (the cell is the pick); a marked
  // cell's value moves under the dots when the cell is tall enough, else it stays on top of them
  const ax = (xi: number) => (xi + 0.5) * cellW;
  const ay = (yi: number) => rowY(yi) + cellH / 2;
  const marksIn = new Map<string, number>();
  for (const m of marks) marksIn.set(`${m.xi},${m.yi}`, (marksIn.get(`${m.xi},${m.yi}`) ?? 0) + 1);
  const nthIn = new Map<string, number>();
  // several picks of one cell side by side around its centre
  const markX = (m: HeatmapMark) => {
    const k = `${m.xi},${m.yi}`;
    const n = marksIn.get(k) ?? 1;
    const j = nthIn.get(k) ?? 0;
    nthIn.set(k, j + 1);
    return ax(m.xi) + (j - (n - 1) / 2) * Math.min(12, cellW / (n + 1));
  };
  const valueY = (c: GridCell) => rowY(c.yi) + cellH / 2 + 4 + (marksIn.has(`${c.xi},${c.yi}`) && cellH >= 34 ? 14 : 0);
  const flipped = useMemo(
    () => grid.cells.map((c) => ({ ...c, yi: grid.yValues.length - 1 - c.yi })),
    [grid],
  );

  useEffect(() => {
    if (!useCanvas) return;
    const ctx = canvasRef.current?.getContext("2d");
    if (!ctx) return;
    const dpr = window.devicePixelRatio || 1;
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.clearRect(0, 0, innerW, innerH);
    const t0 = performance.now();
    drawHeatmapCells(ctx, flipped, { x0: 0, y0: 0, cellW, cellH }, fill);
    canvasRef.current!.dataset.drawMs = (performance.now() - t0).toFixed(2);
  }, [useCanvas, flipped, cellW, cellH, innerW, innerH, fill]);

  const cellAt = (e: React.MouseEvent) => {
    const r = (e.currentTarget as Element).getBoundingClientRect();
    const xi = Math.floor((e.clientX - r.left) / cellW);
    const yi = grid.yValues.length - 1 - Math.floor((e.clientY - r.top) / cellH);
    return grid.cells.find((c) => c.xi === xi && c.yi === yi) ?? null;
  };
  const xTickEvery = Math.max(1, Math.ceil(grid.xValues.length / Math.max(innerW / 48, 1)));
  const yTickEvery = Math.max(1, Math.ceil(grid.yValues.length / Math.max(innerH / 18, 1)));
  const dpr = typeof window !== "undefined" ? window.devicePixelRatio || 1 : 1;

  return (
    <figure className="heatmap" aria-label={title ?? metricLabel}>
      {title && <figcaption>{title}</figcaption>}
      <div ref={ref} className="heatmap-plot" style={{ position: "relative", height }}>
        <svg width={width} height={height} role="img" aria-label={`${metricLabel} by ${xLabel} and ${yLabel}`} data-cells={grid.cells.length}>
          <g transform={`translate(${MARGIN.left},${MARGIN.top})`}>
            {!useCanvas &&
              grid.cells.map((c) => (
                <rect
                  key={`${c.xi}-${c.yi}`}
                  className="heatmap-cell"
                  x={c.xi * cellW}
                  y={rowY(c.yi)}
                  width={Math.max(cellW - 1, 1)}
                  height={Math.max(cellH - 1, 1)}
                  fill={fill(c.value)}
                  data-value={c.value ?? ""}
                  data-x={label(grid.xValues[c.xi])}
                  data-y={label(grid.yValues[c.yi])}
                  tabIndex={onCellClick ? 0 : undefined}
                  onKeyDown={(e) => e.key === "Enter" && onCellClick?.(c)}
                  onFocus={() => setHover(c)}
                  onMouseEnter={() => setHover(c)}
                  onMouseLeave={() => setHover(null)}
                  onClick={() => onCellClick?.(c)}
                  style={{ cursor: onCellClick ? "pointer" : "default" }}
                />
              ))}
            {useCanvas && (
              <foreignObject width={innerW} height={innerH}>
                <canvas ref={canvasRef} width={innerW * dpr} height={innerH * dpr} style={{ width: innerW, height: innerH, display: "block" }} />
              </foreignObject>
            )}
            {useCanvas && <rect
              width={innerW}
              height={innerH}
              fill="transparent"
              onMouseMove={(e) => setHover(cellAt(e))}
              onMouseLeave={() => setHover(null)}
              onClick={(e) => {
                const c = cellAt(e);
                if (c) onCellClick?.(c);
              }}
              style={{ cursor: onCellClick ? "pointer" : "default" }}
            />}
            {path.length > 1 && (
              <polyline className="heatmap-path" fill="none" stroke="#fff" strokeWidth={2.5} strokeOpacity={0.9} pointerEvents="none"
                points={path.map((p) => `${ax(p.xi)},${ay(p.yi)}`).join(" ")} />
            )}
            {path.length > 1 && (
              <polyline fill="none" stroke="#1f77b4" strokeWidth={1.2} strokeDasharray="3 2" pointerEvents="none"
                points={path.map((p) => `${ax(p.xi)},${ay(p.yi)}`).join(" ")} />
            )}
            {marks.map((m, i) => (
              <g key={`${m.label}-${i}`} className="heatmap-mark" data-strategy={m.label} transform={`translate(${markX(m)},${ay(m.yi)})`}
                style={{ cursor: onMarkClick ? "pointer" : "default" }} onClick={() => onMarkClick?.(m)} role={onMarkClick ? "button" : undefined}
                aria-label={`${m.label} pick`} tabIndex={onMarkClick ? 0 : undefined} onKeyDown={(e) => e.key === "Enter" && onMarkClick?.(m)}>
                <circle r={6} fill={m.color} stroke="#fff" strokeWidth={2} />
                <title>{m.label} pick</title>
              </g>
            ))}
            {/* the values last: no pick dot or path ever hides one */}
            {!useCanvas && cellW >= 34 && cellH >= 15 &&
              grid.cells.map((c) => c.value === null ? null : (
                <text key={`t${c.xi}-${c.yi}`} className="heatmap-number" x={(c.xi + 0.5) * cellW} y={valueY(c)}
                  textAnchor="middle" fontSize={Math.min(11, cellH - 4)} pointerEvents="none"
                  fill={contrast(fill(c.value))}>{formatValue(c.value)}</text>
              ))}
            {hover && (
              <rect x={hover.xi * cellW} y={rowY(hover.yi)} width={cellW - 1} height={cellH - 1} fill="none" stroke="#000" strokeWidth={2} pointerEvents="none" />
            )}
            <g className="x-axis" transform={`translate(0,${innerH})`}>
              {grid.xValues.map((v, i) =>
                i % xTickEvery === 0 ? (
                  <text key={i} x={(i + 0.5) * cellW} y={16} textAnchor="middle" fontSize={11}>{label(v)}</text>
                ) : null,
              )}
              <text className="axis-label" x={innerW / 2} y={40} textAnchor="middle" fontSize={12} fontWeight={600}>{xLabel}</text>
            </g>
            <g className="y-axis">
              {grid.yValues.map((v, i) =>
                i % yTickEvery === 0 ? (
                  <text key={i} x={-6} y={rowY(i) + cellH / 2 + 4} textAnchor="end" fontSize={11}>{label(v)}</text>
                ) : null,
              )}
              <text className="axis-label" transform={`translate(${-MARGIN.left + 14},${innerH / 2}) rotate(-90)`} textAnchor="middle" fontSize={12} fontWeight={600}>{yLabel}</text>
            </g>
          </g>
        </svg>
        {hover && renderTooltip && (
          <div className="tooltip" role="tooltip" style={{ left: Math.min(MARGIN.left + (hover.xi + 1) * cellW + 8, width - 220), top: MARGIN.top + rowY(hover.yi) }}>
            {renderTooltip(hover)}
          </div>
        )}
      </div>
      <ColorLegend color={color} label={metricLabel} />
    </figure>
  );
}
