import { render, screen } from "@testing-library/react";
import { Heatmap } from "./Heatmap";
import { computeGrid, type SweepPoint, valueExtent } from "../../../lib/charts/grid";
import { sequentialScale } from "../../../lib/charts/color";
import { drawHeatmapCells } from "../utils/drawHeatmap";

const points: SweepPoint[] = [
  [0, 0.01, 20], [0, 0.1, 30], [500, 0.01, 40], [500, 0.1, 60],
].map(([kmin, pmax, tput], index) => ({
  index, run_id: `r${index}`, status: "SUCCEEDED",
  params: { "switch.ecn.kmin_bytes": kmin, "switch.ecn.pmax": pmax },
  metrics: { throughput_gbps: tput },
}));

describe("Heatmap", () => {
  it("renders one cell per point, coloured over the metric's domain, with axis labels", () => {
    const grid = computeGrid(points, {
      x: "switch.ecn.kmin_bytes", y: "switch.ecn.pmax", metric: "throughput_gbps", aggregate: "slice", slice: {},
    });
    const color = sequentialScale(valueExtent(grid)!, "viridis");
    const { container } = render(
      <Heatmap grid={grid} xLabel="Kmin (bytes)" yLabel="Pmax" metricLabel="Throughput (Gbit/s)" color={color} />,
    );
    const cells = container.querySelectorAll("rect.heatmap-cell");
    expect(cells).toHaveLength(4);
    expect(color.domain()).toEqual([20, 60]);
    const byValue = Object.fromEntries([...cells].map((c) => [c.getAttribute("data-value"), c.getAttribute("fill")]));
    expect(byValue["20"]).toBe(color(20));
    expect(byValue["60"]).toBe(color(60));
    expect(byValue["20"]).not.toBe(byValue["60"]);
    expect(screen.getByText("Kmin (bytes)")).toBeInTheDocument();
    expect(screen.getByText("Pmax")).toBeInTheDocument();
    expect(screen.getByText("500")).toBeInTheDocument();
    expect(container.querySelector('rect.heatmap-cell[data-x="500"][data-y="0.1"]')).toHaveAttribute("data-value", "60");
    expect(screen.getByText("0.01")).toBeInTheDocument();
    const legend = screen.getByRole("img", { name: /Legend: Throughput/ });
    expect(legend).toHaveAttribute("data-domain", "20,60");
  });

  it("puts the larger y value on the top row", () => {
    const grid = computeGrid(points, {
      x: "switch.ecn.kmin_bytes", y: "switch.ecn.pmax", metric: "throughput_gbps", aggregate: "slice", slice: {},
    });
    const { container } = render(
      <Heatmap grid={grid} xLabel="x" yLabel="y" metricLabel="m" color={sequentialScale([20, 60], "cividis")} />,
    );
    const top = container.querySelector('rect.heatmap-cell[data-y="0.1"]')!;
    const bottom = container.querySelector('rect.heatmap-cell[data-y="0.01"]')!;
    expect(Number(top.getAttribute("y"))).toBeLessThan(Number(bottom.getAttribute("y")));
  });

  it("paints every cell on canvas for large grids", () => {
    const big = Array.from({ length: 3300 }, (_, i) => ({
      index: i, run_id: null, status: "SUCCEEDED",
      params: { a: i % 66, b: Math.floor(i / 66) }, metrics: { throughput_gbps: i },
    }));
    const grid = computeGrid(big, { x: "a", y: "b", metric: "throughput_gbps", aggregate: "slice", slice: {} });
    expect(grid.cells).toHaveLength(3300);
    const fills: string[] = [];
    const ctx = { fillStyle: "", fillRect: () => fills.push(ctx.fillStyle) } as unknown as CanvasRenderingContext2D & { fillStyle: string };
    const color = sequentialScale([0, 3299], "viridis");
    drawHeatmapCells(ctx, grid.cells, { x0: 0, y0: 0, cellW: 10, cellH: 10 }, (v) => color(v ?? 0));
    expect(fills).toHaveLength(3300);
    expect(fills).toContain(color(0));
    expect(fills).toContain(color(3299));
  });
});

describe("the heatmap tooltip (issue 22 §4)", () => {
  it("shows a cell's new status when it finishes under a still mouse", async () => {
    const { fireEvent } = await import("@testing-library/react");
    const pending = points.map((p) => (p.index === 3 ? { ...p, status: "PENDING", metrics: null } : p)) as SweepPoint[];
    const spec = { x: "switch.ecn.kmin_bytes", y: "switch.ecn.pmax", metric: "throughput_gbps", aggregate: "slice" as const, slice: {} };
    const color = sequentialScale([20, 60], "viridis");
    const tip = (c: { point: SweepPoint }) => <span>status {c.point.status}</span>;
    const { container, rerender } = render(<Heatmap grid={computeGrid(pending, spec)} xLabel="x" yLabel="y" metricLabel="m" color={color} renderTooltip={tip} />);
    fireEvent.mouseEnter(container.querySelector('rect.heatmap-cell[data-x="500"][data-y="0.1"]')!);
    expect(screen.getByRole("tooltip")).toHaveTextContent("status PENDING");
    rerender(<Heatmap grid={computeGrid(points, spec)} xLabel="x" yLabel="y" metricLabel="m" color={color} renderTooltip={tip} />);
    expect(screen.getByRole("tooltip")).toHaveTextContent("status SUCCEEDED");
  });
});

describe("pick dots at the cells' centres, never hiding a value (issues 22 §1 and 37)", () => {
  it("draws a pick at its cell's centre, its value under it, and annealing's path through the centres", () => {
    const spec = { x: "switch.ecn.kmin_bytes", y: "switch.ecn.pmax", metric: "throughput_gbps", aggregate: "slice" as const, slice: {} };
    const { container } = render(<div style={{ width: 600 }}><Heatmap grid={computeGrid(points, spec)} xLabel="x" yLabel="y" metricLabel="m" height={360}
      color={sequentialScale([20, 60], "viridis")} marks={[{ xi: 1, yi: 0, label: "grid", color: "#777" }]} path={[{ xi: 0, yi: 0 }, { xi: 1, yi: 1 }]} /></div>);
    const svg = container.querySelector("svg")!;
    const cell = (xi: number, yi: number) => [...svg.querySelectorAll<SVGRectElement>("rect.heatmap-cell")]
      .find((r) => r.getAttribute("data-x") === String(computeGrid(points, spec).xValues[xi]) && r.getAttribute("data-y") === String(computeGrid(points, spec).yValues[yi]))!;
    const centre = (r: SVGRectElement) => [Number(r.getAttribute("x")) + (Number(r.getAttribute("width")) + 1) / 2, Number(r.getAttribute("y")) + (Number(r.getAttribute("height")) + 1) / 2];
    const all = [...svg.querySelectorAll("g.heatmap-mark, text.heatmap-number")];
    expect(all[0].classList.contains("heatmap-mark")).toBe(true); // values drawn on top of the dots
    const [dx, dy] = /translate\(([\d.]+),([\d.]+)\)/.exec(all[0].getAttribute("transform")!)!.slice(1).map(Number);
    const [cx, cy] = centre(cell(1, 0));
    expect(dx).toBeCloseTo(cx, 5);
    expect(dy).toBeCloseTo(cy, 5);
    // the marked cell's value sits under the dot (radius 6), the others at their centre
    const values = [...svg.querySelectorAll<SVGTextElement>("text.heatmap-number")];
    const under = values.find((t) => Math.abs(Number(t.getAttribute("x")) - cx) < 0.5 && Number(t.getAttribute("y")) > cy)!;
    expect(Number(under.getAttribute("y")) - cy).toBeGreaterThan(12);
    // the path's vertices are the centres of its cells, not their borders
    const vertices = svg.querySelector("polyline.heatmap-path")!.getAttribute("points")!.split(" ").map((p) => p.split(",").map(Number));
    expect(vertices[0][0]).toBeCloseTo(centre(cell(0, 0))[0], 5);
    expect(vertices[1][1]).toBeCloseTo(centre(cell(1, 1))[1], 5);
  });
});
