import { useMemo, useState } from "react";
import { TopologyCanvas } from "../../../components/TopologyCanvas";
import { ColorLegend } from "../../../components/ColorLegend";
import { divergingScale } from "../../../lib/charts/color";
import { formatSigned } from "../../../lib/format";
import type { ResultSummary } from "../../../lib/api/resultTypes";
import type { LayoutGraph } from "../../../lib/topology/types";
import { OVERLAY, type OverlayMetric, UNRECORDED_LINK, directionalValues, linkValues } from "../utils/overlay";
import { linkDifference } from "../utils/compare";

const METRICS: OverlayMetric[] = ["utilization", "ecn", "pauses"];
const letter = (i: number) => String.fromCharCode(65 + i);

/**
 * The fabric with each link coloured by run X minus run A (utilization, ECN marks, PFC pauses),
 * on a diverging scale centred on zero: orange where X has more, purple where it has less.
 */
export function FabricDifference({ graph, summaries }: { graph: LayoutGraph; summaries: ResultSummary[] }) {
  const [metric, setMetric] = useState<OverlayMetric>("utilization");
  const [other, setOther] = useState(1);
  const spec = OVERLAY[metric];
  const b = Math.min(other, summaries.length - 1);
  const values = useMemo(() => {
    const per = (s: ResultSummary) => linkValues(graph.links, directionalValues(metric, s, undefined, 0), spec.combine);
    return linkDifference(per(summaries[0]), per(summaries[b]));
  }, [graph, summaries, metric, b, spec.combine]);
  const extent = values.reduce<[number, number]>((m, v) => (v == null ? m : [Math.min(m[0], v), Math.max(m[1], v)]), [0, 0]);
  const color = divergingScale(extent);
  const stroke = useMemo(() => (i: number) => (values[i] == null ? UNRECORDED_LINK : color(values[i]!)), [values, color]);
  const width = useMemo(() => (i: number) => (values[i] == null || values[i] === 0 ? 1 : 3.5), [values]);
  const biggest = graph.links.map((l, i) => ({ l, v: values[i] })).filter((x): x is { l: typeof x.l; v: number } => x.v != null && x.v !== 0)
    .sort((x, y) => Math.abs(y.v) - Math.abs(x.v)).slice(0, 5);
  const signed = (v: number) => formatSigned(v, spec.format);
  return (
    <div className="overlay fabric-difference" data-testid="fabric-difference">
      <div className="row">
        <label>Links coloured by{" "}
          <select aria-label="Difference metric" value={metric} onChange={(e) => setMetric(e.target.value as OverlayMetric)}>
            {METRICS.map((m) => <option key={m} value={m}>{OVERLAY[m].label}</option>)}
          </select>
        </label>
        {summaries.length > 2 && (
          <label>Run{" "}
            <select aria-label="Run to difference" value={b} onChange={(e) => setOther(Number(e.target.value))}>
              {summaries.slice(1).map((_, i) => <option key={i + 1} value={i + 1}>{letter(i + 1)}</option>)}
            </select>{" "}− A
          </label>
        )}
      </div>
      <TopologyCanvas graph={graph} height={graph.nodes.length > 24 ? 420 : 320} ariaLabel={`Fabric coloured by ${letter(b)} − A: ${spec.label}`}
        linkStroke={stroke} linkWidth={width} fill />
      <div className="row overlay-legend">
        <ColorLegend color={color} label={`${letter(b)} − A: ${spec.legend}`} tickFormat={signed} />
        <span className="swatch-note"><span className="swatch" style={{ background: UNRECORDED_LINK }} /> recorded in neither run</span>
      </div>
      {biggest.length ? (
        <ol className="overlay-top" aria-label="Largest differences">
          {biggest.map(({ l, v }) => <li key={l.id}>{l.a} – {l.b}: {signed(v)}</li>)}
        </ol>
      ) : <p className="hint">No link differs in {spec.label.toLowerCase()}.</p>}
    </div>
  );
}
