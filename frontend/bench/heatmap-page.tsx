// Mounts the real <Heatmap> with 3,300 cells and records how long mount + canvas paint take.
import { createRoot } from "react-dom/client";
import { flushSync } from "react-dom";
import { Heatmap } from "../src/features/sweeps/components/Heatmap";
import { computeGrid, type SweepPoint } from "../src/lib/charts/grid";
import { sequentialScale } from "../src/lib/charts/color";

const points: SweepPoint[] = Array.from({ length: 3300 }, (_, i) => ({
  index: i, run_id: `r${i}`, status: "SUCCEEDED",
  params: { x: i % 66, y: Math.floor(i / 66) },
  metrics: { throughput_gbps: Math.sin(i / 50) * 40 + 50 },
}));

async function once(container: HTMLElement): Promise<number> {
  const t0 = performance.now();
  const grid = computeGrid(points, { x: "x", y: "y", metric: "throughput_gbps", aggregate: "slice", slice: {} });
  const color = sequentialScale([10, 90], "viridis");
  const root = createRoot(container);
  flushSync(() => root.render(<Heatmap grid={grid} xLabel="x" yLabel="y" metricLabel="tput" color={color} height={420} />));
  // wait for the effect that paints the canvas
  for (let i = 0; i < 100 && !container.querySelector("canvas")?.dataset.drawMs; i += 1) await new Promise((r) => setTimeout(r, 0));
  const canvas = container.querySelector("canvas")!;
  canvas.getContext("2d")!.getImageData(0, 0, 1, 1); // forces the paint to be rasterised
  const total = performance.now() - t0;
  root.unmount();
  return total;
}

(async () => {
  const container = document.getElementById("root")!;
  const times: number[] = [];
  for (let i = 0; i < 12; i += 1) times.push(await once(container));
  const warm = times.slice(2).sort((a, b) => a - b);
  (window as unknown as { __result: unknown }).__result = {
    cells: 3300, runs: warm.length, median_ms: warm[Math.floor(warm.length / 2)], max_ms: warm[warm.length - 1], first_ms: times[0],
  };
})();
