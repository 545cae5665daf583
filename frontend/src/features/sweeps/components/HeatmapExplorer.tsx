import { shortParamPath } from "../../../lib/scenario/paths";
import { useEffect, useMemo, useState } from "react";
import { format } from "d3-format";
import { ChartFrame } from "../../../components/ChartFrame";
import { Empty, Loading } from "../../../components/States";
import { type SequentialScheme, divergingScale, sequentialScale } from "../../../lib/charts/color";
import { type Aggregate, type GridCell, type ParamValue, type SweepPoint, computeGrid, metricLabel, metricLabels, differenceGrid, differingMetric, formatMetric, paramValues, valueExtent } from "../../../lib/charts/grid";
import { Heatmap, type HeatmapMark } from "./Heatmap";

export interface ExplorerMark { params: Record<string, ParamValue>; label: string; color: string; id?: number }

/** Relative spread of a grid's values, to warn when the colour scale magnifies tiny differences. */
export function spreadNote(extent: [number, number] | null): string | null {
  if (!extent) return null;
  const [lo, hi] = extent;
  const scale = Math.max(Math.abs(lo), Math.abs(hi));
  if (scale === 0 || hi === lo) return hi === lo ? "Every cell has the same value." : null;
  const pct = ((hi - lo) / scale) * 100;
  return pct < 5 ? `Values differ by only ${pct.toFixed(pct < 1 ? 2 : 1)} % (${fmt(lo)} to ${fmt(hi)}): the full colour range shows a small difference.` : null;
}

function union(a: [number, number] | null, b: [number, number] | null): [number, number] | null {
  if (!a) return b;
  if (!b) return a;
  return [Math.min(a[0], b[0]), Math.max(a[1], b[1])];
}

const fmt = format(",.4~g");
const shortPath = shortParamPath;

/** Axis, metric, slice/aggregate pickers over a sweep's points, with optional comparison. */
export function HeatmapExplorer({ points, paths, comparePoints, onOpenRun, marks = [], pathParams = [], onMarkClick, extraMetrics = {}, initialMetric = "throughput_gbps", higherIsBetter = {}, initialAggregate = "slice", onMetricsShown, loadingMetrics = false }: {
  points: SweepPoint[];
  paths: string[];
  /** Points of a second sweep over the same parameters: enables the difference view. */
  comparePoints?: SweepPoint[];
  onOpenRun: (runId: string) => void;
  /** Strategy picks drawn as dots, and a path (annealing's moves) as a line. */
  marks?: ExplorerMark[];
  pathParams?: Record<string, ParamValue>[];
  onMarkClick?: (mark: ExplorerMark) => void;
  /** Extra metrics (e.g. a tuning's objective) and the initially shown one. */
  extraMetrics?: Record<string, string>;
  initialMetric?: string;
  /** Direction of "best" for extra metrics (e.g. a maximised objective). */
  higherIsBetter?: Record<string, boolean>;
  /** "best" suits a tuning: its strategies leave most of a slice unvisited. */
  initialAggregate?: Aggregate;
  /** Told the metrics on show (a tuning page fetches the evaluations' metrics only when a
   * heatmap shows one besides the objective). */
  onMetricsShown?: (metrics: string[]) => void;
  /** The points' metrics are on their way: a metric without values says so, not "no value". */
  loadingMetrics?: boolean;
}) {
  const [x, setX] = useState(paths[0]);
  const [y, setY] = useState(paths[1] ?? paths[0]);
  const [metric, setMetric] = useState(() => differingMetric(points, initialMetric, Object.keys(metricLabels(points))));
  const labels: Record<string, string> = { ...extraMetrics, ...metricLabels(points) };
  const [metric2, setMetric2] = useState<string>("");
  useEffect(() => onMetricsShown?.([metric, metric2].filter(Boolean)), [metric, metric2, onMetricsShown]);
  const [aggregate, setAggregate] = useState<Aggregate>(initialAggregate);
  const [scheme, setScheme] = useState<SequentialScheme>("viridis");
  const others = paths.filter((p) => p !== x && p !== y);
  // Each parameter's values, once per set of points (not per render: a tuning has 3,300+ points).
  const pathsKey = paths.join("\u0000");
  const valuesOf = useMemo(() => Object.fromEntries(paths.map((p) => [p, paramValues(points, p)])) as Record<string, ParamValue[]>,
    [points, pathsKey]); // eslint-disable-line react-hooks/exhaustive-deps
  const [slice, setSlice] = useState<Record<string, ParamValue>>(() => Object.fromEntries(others.map((o) => [o, valuesOf[o]?.[0] ?? null])));
  const sliceFull = { ...Object.fromEntries(others.map((o) => [o, valuesOf[o]?.[0] ?? null])), ...slice };

  const grid = useMemo(() => computeGrid(points, { x, y, metric, aggregate, slice: sliceFull, dims: paths, higherIsBetter: higherIsBetter[metric] }), [points, x, y, metric, aggregate, JSON.stringify(sliceFull), higherIsBetter[metric]]);
  const grid2 = useMemo(() => (metric2 ? computeGrid(points, { x, y, metric: metric2, aggregate, slice: sliceFull, dims: paths, higherIsBetter: higherIsBetter[metric2] }) : null), [points, x, y, metric2, aggregate, JSON.stringify(sliceFull), higherIsBetter[metric2]]);
  const gridB = useMemo(() => (comparePoints ? computeGrid(comparePoints, { x, y, metric, aggregate, slice: sliceFull, dims: paths, higherIsBetter: higherIsBetter[metric] }) : null), [comparePoints, x, y, metric, aggregate, JSON.stringify(sliceFull), higherIsBetter[metric]]);
  const diff = useMemo(() => (gridB ? differenceGrid(grid, gridB) : null), [grid, gridB]);

  if (points.length === 0) return <Empty>No point to show yet.</Empty>;
  const others2 = paths.filter((p) => p !== x && p !== y);
  const onSlice = (params: Record<string, ParamValue>) =>
    aggregate !== "slice" || others2.every((o) => JSON.stringify(params[o]) === JSON.stringify(sliceFull[o]));
  const cellOf = (params: Record<string, ParamValue>) => {
    const xi = grid.xValues.findIndex((v) => JSON.stringify(v) === JSON.stringify(params[x]));
    const yi = grid.yValues.findIndex((v) => JSON.stringify(v) === JSON.stringify(params[y]));
    return xi < 0 || yi < 0 ? null : { xi, yi };
  };
  const heatMarks: HeatmapMark[] = marks.filter((m) => onSlice(m.params)).flatMap((m) => {
    const c = cellOf(m.params);
    return c ? [{ ...c, label: m.label, color: m.color, id: m.id }] : [];
  });
  const heatPath = pathParams.filter(onSlice).map(cellOf).filter((c): c is { xi: number; yi: number } => c !== null);
  const clickMark = (hm: HeatmapMark) => {
    const m = marks.find((mm) => mm.label === hm.label && mm.id === hm.id);
    if (m) onMarkClick?.(m);
  };
  const extentA = valueExtent(grid);
  const noData = (name: string) => loadingMetrics ? <Loading what={`Loading ${labels[name] ?? name} for every point`} /> : (
    <Empty>No point has a value for {labels[name] ?? name} here{name.startsWith("fct") || name.startsWith("slowdown") ? " (FCT and slowdown need flows that complete: long-lived flows have none)" : ""}.</Empty>
  );
  const tooltip = (c: GridCell) => (
    <div>
      <strong>{c.value === null ? "no value" : formatMetric(metric, c.value)}</strong> {labels[metric] ?? metric}
      {c.count > 1 && <div>{aggregate} of {c.count} points{aggregate === "best" ? " (this one shown)" : ""}</div>}
      <table><tbody>
        {Object.entries(c.point.params).map(([k, v]) => <tr key={k}><td>{k}</td><td>{String(v)}</td></tr>)}
        {Object.entries(c.point.metrics ?? {}).map(([k, v]) => <tr key={k}><td>{metricLabel(k)}</td><td>{v == null ? "—" : formatMetric(k, v)}</td></tr>)}
        <tr><td>status</td><td>{c.point.status}</td></tr>
      </tbody></table>
      {c.point.run_id && <em>click to open the run</em>}
    </div>
  );
  const open = (c: GridCell) => c.point.run_id && onOpenRun(c.point.run_id);
  const seq = (g: typeof grid) => sequentialScale(valueExtent(g) ?? [0, 1], scheme);
  // this sweep and the compared one share one colour range: the same colour is the same value
  const shared = sequentialScale(union(extentA, gridB ? valueExtent(gridB) : null) ?? [0, 1], scheme);
  const metricOptions = Object.entries(labels).map(([k, l]) => <option key={k} value={k}>{l}</option>);
  const note = spreadNote(gridB ? union(extentA, valueExtent(gridB)) : extentA);

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
            {(valuesOf[o] ?? []).map((v) => <option key={JSON.stringify(v)} value={JSON.stringify(v)}>{String(v)}</option>)}
          </select></label>
        ))}
      </div>
      <div className={grid2 || diff ? "side-by-side" : ""}>
        <ChartFrame title={labels[metric] ?? metric} filename={`heatmap-${metric}`}>
          {extentA === null ? noData(metric) : (
            <Heatmap grid={grid} xLabel={x} yLabel={y} metricLabel={labels[metric] ?? metric} formatValue={(v) => formatMetric(metric, v)} color={gridB ? shared : seq(grid)} onCellClick={open} renderTooltip={tooltip}
              marks={heatMarks} path={heatPath} onMarkClick={onMarkClick ? clickMark : undefined} />
          )}
        </ChartFrame>
        {grid2 && (
          <ChartFrame title={labels[metric2] ?? metric2} filename={`heatmap-${metric2}`}>
            {valueExtent(grid2) === null ? noData(metric2) : (
              <Heatmap grid={grid2} xLabel={x} yLabel={y} metricLabel={labels[metric2] ?? metric2} formatValue={(v) => formatMetric(metric2, v)} color={seq(grid2)} onCellClick={open} renderTooltip={tooltip}
                marks={heatMarks} onMarkClick={onMarkClick ? clickMark : undefined} />
            )}
          </ChartFrame>
        )}
        {gridB && (
          <ChartFrame title={`Compared sweep: ${labels[metric] ?? metric}`} filename={`heatmap-compare-${metric}`}>
            {valueExtent(gridB) === null ? noData(metric) : (
              <Heatmap grid={gridB} xLabel={x} yLabel={y} metricLabel={labels[metric] ?? metric} formatValue={(v) => formatMetric(metric, v)} color={shared} onCellClick={open} renderTooltip={tooltip} />
            )}
          </ChartFrame>
        )}
        {diff && (
          <ChartFrame title="Difference (this − compared)" filename={`heatmap-diff-${metric}`}>
            <Heatmap grid={diff} xLabel={x} yLabel={y} metricLabel={`Δ ${metricLabel(metric)}`} color={divergingScale(valueExtent(diff) ?? [-1, 1])} onCellClick={open} renderTooltip={tooltip} />
          </ChartFrame>
        )}
      </div>
      {note && <p className="hint spread-note" role="note">{note}</p>}
    </div>
  );
}
