// The 3,300-point ByteTuning grid (Kmin 11 x Pmax 10 x alpha 5 x headroom 6 = 3,300) drawn on a
// 66 x 50 heatmap. `npm run bench` measures the grid computation and the canvas paint calls in
// Node; bench/heatmap-browser.mjs measures the real paint in Chromium (see docs/frontend.md).
import { bench, describe } from "vitest";
import { computeGrid, type SweepPoint } from "../src/lib/charts/grid";
import { drawHeatmapCells } from "../src/features/sweeps/utils/drawHeatmap";
import { sequentialScale } from "../src/lib/charts/color";

const points: SweepPoint[] = Array.from({ length: 3300 }, (_, i) => ({
  index: i, run_id: `r${i}`, status: "SUCCEEDED",
  params: { x: i % 66, y: Math.floor(i / 66) },
  metrics: { throughput_gbps: Math.sin(i / 50) * 40 + 50 },
}));
const color = sequentialScale([10, 90], "viridis");
// a 2D context that records nothing: isolates our per-cell work from the rasteriser
const ctx = { fillStyle: "", fillRect() {} } as unknown as CanvasRenderingContext2D;

describe("heatmap 3,300 cells", () => {
  bench("computeGrid", () => {
    computeGrid(points, { x: "x", y: "y", metric: "throughput_gbps", aggregate: "slice", slice: {} });
  });
  bench("computeGrid + paint calls", () => {
    const grid = computeGrid(points, { x: "x", y: "y", metric: "throughput_gbps", aggregate: "slice", slice: {} });
    drawHeatmapCells(ctx, grid.cells, { x0: 0, y0: 0, cellW: 12, cellH: 7 }, (v) => color(v ?? 0));
  });
});
