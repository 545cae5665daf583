import type { GridCell } from "../../../lib/charts/grid";

export interface CellGeometry {
  x0: number;
  y0: number;
  cellW: number;
  cellH: number;
}

/** Paints cells onto a 2D context; cells of one colour are filled in one batch. */
export function drawHeatmapCells(
  ctx: CanvasRenderingContext2D,
  cells: GridCell[],
  geom: CellGeometry,
  color: (v: number | null) => string,
) {
  const byColor = new Map<string, GridCell[]>();
  for (const c of cells) {
    const col = color(c.value);
    const list = byColor.get(col);
    if (list) list.push(c);
    else byColor.set(col, [c]);
  }
  const w = Math.max(geom.cellW - 1, 1);
  const h = Math.max(geom.cellH - 1, 1);
  for (const [col, list] of byColor) {
    ctx.fillStyle = col;
    for (const c of list) ctx.fillRect(geom.x0 + c.xi * geom.cellW, geom.y0 + c.yi * geom.cellH, w, h);
  }
}
