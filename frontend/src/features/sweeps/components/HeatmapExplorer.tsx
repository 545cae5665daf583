import { useMemo, useState } from "react";
import { format } from "d3-format";
import { ChartFrame } from "../../../components/ChartFrame";
import { Empty } from "../../../components/States";
import { type SequentialScheme, divergingScale, sequentialScale } from "../../../lib/charts/color";
import { type Aggregate, type GridCell, type ParamValue, type SweepPoint, METRIC_LABELS, computeGrid, differenceGrid, paramValues, valueExtent } from "../utils/grid";
import { Heatmap } from "./Heatmap";

const fmt = format(",.4~g");
const shortPath = (p: string) => p.split(".").slice(-2).join(".");

/** Axis, metric, slice/aggregate pickers over a sweep's points, with optional comparison. */
export function HeatmapExplorer({ points, paths, comparePoints, onOpenRun }: {
  points: SweepPoint[];
  paths: string[];
  /** Points of a second sweep over the same parameters: enables the difference view. */
  comparePoints?: SweepPoint[];
  onOpenRun: (runId: string) => void;
}) {
  const [x, setX] = useState(paths[0]);
  const [y, setY] = useState(paths[1] ?? paths[0]);
  const [metric, setMetric] = useState("throughput_gbps");
  const [metric2, setMetric2] = useState<string>("");
  const [aggregate, setAggregate] = useState<Aggregate>("slice");
  const [scheme, setScheme] = useState<SequentialScheme>("viridis");
  const others = paths.filter((p) => p !== x && p !== y);
  const [slice, setSlice] = useState<Record<string, ParamValue>>(() => Object.fromEntries(others.map((o) => [o, paramValues(points, o)[0]])));
  const sliceFull = { ...Object.fromEntries(others.map((o) => [o, paramValues(points, o)[0]])), ...slice };

  const grid = useMemo(() => computeGrid(points, { x, y, metric, aggregate, slice: sliceFull, dims: paths }), [points, x, y, metric, aggregate, JSON.stringify(sliceFull)]);
  const grid2 = useMemo(() => (metric2 ? computeGrid(points, { x, y, metric: metric2, aggregate, slice: sliceFull, dims: paths }) : null), [points, x, y, metric2, aggregate, JSON.stringify(sliceFull)]);
  const gridB = useMemo(() => (comparePoints ? computeGrid(comparePoints, { x, y, metric, aggregate, slice: sliceFull, dims: paths }) : null), [comparePoints, x, y, metric, aggregate, JSON.stringify(sliceFull)]);
  const diff = useMemo(() => (gridB ? differenceGrid(grid, gridB) : null), [grid, gridB]);

  if (points.length === 0) return <Empty>The sweep has no points.</Empty>;
  const tooltip = (c: GridCell) => (
    <div>
      <strong>{fmt(c.value ?? NaN)}</strong> {METRIC_LABELS[metric] ?? metric}
      {c.count > 1 && <div>{aggregate} of {c.count} points{aggregate === "best" ? " (this one shown)" : ""}</div>}
      <table><tbody>
        {Object.entries(c.point.params).map(([k, v]) => <tr key={k}><td>{k}</td><td>{String(v)}</td></tr>)}
        {Object.entries(c.point.metrics ?? {}).map(([k, v]) => <tr key={k}><td>{METRIC_LABELS[k] ?? k}</td><td>{v == null ? "—" : fmt(v)}</td></tr>)}
        <tr><td>status</td><td>{c.point.status}</td></tr>
      </tbody></table>
      {c.point.run_id && <em>click to open the run</em>}
    </div>
  );
  const open = (c: GridCell) => c.point.run_id && onOpenRun(c.point.run_id);
  const seq = (g: typeof grid) => sequentialScale(valueExtent(g) ?? [0, 1], scheme);
  const metricOptions = Object.entries(METRIC_LABELS).map(([k, l]) => <option key={k} value={k}>{l}</option>);

  return (
    <div className="heatmap-explorer">
      <div className="controls row">
        <label>X axis <select value={x} onChange={(e) => setX(e.target.value)}>{paths.map((p) => <option key={p}>{p}</option>)}</select></label>
        <label>Y axis <select value={y} onChange={(e) => setY(e.target.value)}>{paths.map((p) => <option key={p}>{p}</option>)}</select></label>
        <label>Colour <select aria-label="Metric" value={metric} onChange={(e) => setMetric(e.target.value)}>{metricOptions}</select></label>
        <label>Side by side <select aria-label="Second metric" value={metric2} onChange={(e) => setMetric2(e.target.value)}><option value="">(none)</option>{metricOptions}</select></label>
        <label>Scale <select value={scheme} onChange={(e) => setScheme(e.target.value as SequentialScheme)}><option value="viridis">viridis</option><option value="cividis">cividis</option></select></label>
        {others.length > 0 && (
          <label>Other parameters <select value={aggregate} onChange={(e) => setAggregate(e.target.value as Aggregate)}>
            <option value="slice">slice</option><option value="best">best</option><option value="mean">mean</option>
          </select></label>
        )}
        {aggregate === "slice" && others.map((o) => (
          <label key={o}>{shortPath(o)} = <select value={JSON.stringify(sliceFull[o])} onChange={(e) => setSlice({ ...slice, [o]: JSON.parse(e.target.value) })}>
            {paramValues(points, o).map((v) => <option key={JSON.stringify(v)} value={JSON.stringify(v)}>{String(v)}</option>)}
          </select></label>
        ))}
      </div>
      <div className={grid2 || diff ? "side-by-side" : ""}>
        <ChartFrame title={METRIC_LABELS[metric] ?? metric} filename={`heatmap-${metric}`}>
          <Heatmap grid={grid} xLabel={x} yLabel={y} metricLabel={METRIC_LABELS[metric] ?? metric} color={seq(grid)} onCellClick={open} renderTooltip={tooltip} />
        </ChartFrame>
        {grid2 && (
          <ChartFrame title={METRIC_LABELS[metric2] ?? metric2} filename={`heatmap-${metric2}`}>
            <Heatmap grid={grid2} xLabel={x} yLabel={y} metricLabel={METRIC_LABELS[metric2] ?? metric2} color={seq(grid2)} onCellClick={open} renderTooltip={tooltip} />
          </ChartFrame>
        )}
        {gridB && (
          <ChartFrame title={`Compared sweep: ${METRIC_LABELS[metric] ?? metric}`} filename={`heatmap-compare-${metric}`}>
            <Heatmap grid={gridB} xLabel={x} yLabel={y} metricLabel={METRIC_LABELS[metric] ?? metric} color={seq(gridB)} onCellClick={open} renderTooltip={tooltip} />
          </ChartFrame>
        )}
        {diff && (
          <ChartFrame title="Difference (this − compared)" filename={`heatmap-diff-${metric}`}>
            <Heatmap grid={diff} xLabel={x} yLabel={y} metricLabel={`Δ ${METRIC_LABELS[metric] ?? metric}`} color={divergingScale(valueExtent(diff) ?? [-1, 1])} onCellClick={open} renderTooltip={tooltip} />
          </ChartFrame>
        )}
      </div>
    </div>
  );
}
