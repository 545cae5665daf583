import { useMemo, useState } from "react";
import { TopologyCanvas } from "../../../components/TopologyCanvas";
import { ColorLegend } from "../../../components/ColorLegend";
import { sequentialScale } from "../../../lib/charts/color";
import type { ResultSeries, ResultSummary } from "../../../lib/api/resultTypes";
import type { LayoutGraph } from "../../../lib/topology/types";
import { type OverlayMetric, OVERLAY_LABELS, directionalValues, linkValues } from "../utils/overlay";

/** The fabric with links coloured by a run metric, and a time scrubber over the series. */
export function TopologyOverlay({ graph, summary, series, onTime }: {
  graph: LayoutGraph;
  summary: ResultSummary;
  series?: ResultSeries;
  onTime?: (t: number | null) => void;
}) {
  const [metric, setMetric] = useState<OverlayMetric>("utilization");
  const [ti, setTi] = useState(0);
  const timed = metric === "queue_at_t" || metric === "pause_at_t";
  const values = useMemo(() => linkValues(graph.links, directionalValues(metric, summary, series, ti)), [graph, metric, summary, series, ti]);
  const domainMax = useMemo(() => {
    if (metric === "utilization" || metric === "pause_at_t") return 1;
    if (metric === "queue_at_t" && series) return Math.max(1, ...Object.values(series.queues).flat());
    return Math.max(1, ...values.map((v) => v ?? 0));
  }, [metric, series, values]);
  const color = useMemo(() => sequentialScale([0, domainMax], "viridis"), [domainMax]);
  const linkStroke = useMemo(() => (i: number) => (values[i] == null ? "#d0d4da" : color(values[i]!)), [values, color]);
  const linkWidth = useMemo(() => (i: number) => (values[i] == null ? 1 : 3), [values]);
  const nT = series?.t_us.length ?? 0;

  return (
    <div className="overlay">
      <div className="row">
        <label>
          Colour links by{" "}
          <select value={metric} onChange={(e) => setMetric(e.target.value as OverlayMetric)}>
            {(Object.keys(OVERLAY_LABELS) as OverlayMetric[]).map((m) => (
              <option key={m} value={m}>{OVERLAY_LABELS[m]}</option>
            ))}
          </select>
        </label>
        {timed && nT > 0 && (
          <label className="grow">
            t = {series!.t_us[ti]} us{" "}
            <input
              type="range" min={0} max={nT - 1} value={ti} aria-label="Time scrubber"
              onChange={(e) => {
                const i = Number(e.target.value);
                setTi(i);
                onTime?.(series!.t_us[i]);
              }}
            />
          </label>
        )}
      </div>
      <TopologyCanvas graph={graph} height={320} ariaLabel="Topology coloured by run metric" linkStroke={linkStroke} linkWidth={linkWidth} />
      <ColorLegend color={color} label={OVERLAY_LABELS[metric]} />
      <p className="hint">Grey links were not recorded (monitored queues and ports only for timed views).</p>
    </div>
  );
}
