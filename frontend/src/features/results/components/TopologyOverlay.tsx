import { useEffect, useMemo, useState } from "react";
import { TopologyCanvas } from "../../../components/TopologyCanvas";
import { ColorLegend } from "../../../components/ColorLegend";
import type { ResultSeries, ResultSummary } from "../../../lib/api/resultTypes";
import type { LayoutGraph } from "../../../lib/topology/types";
import { type OverlayMetric, OVERLAY, UNRECORDED_LINK, availableMetrics, overlayColors, topLinks } from "../utils/overlay";
import { type Windows, peakQueueIndex } from "../utils/derive";
import { formatDurationUs } from "../../../lib/format";

/** The fabric with links coloured by a run metric, and a time scrubber over the series. */
export function TopologyOverlay({ graph, summary, series, onTime, windows, focusPort, focusNodes, onPickPort, badges }: {
  graph: LayoutGraph;
  summary: ResultSummary;
  series?: ResultSeries;
  onTime?: (t: number | null) => void;
  windows?: Windows;
  /** "a->b" port to highlight (its link drawn thick, its ends outlined). */
  focusPort?: string | null;
  /** Nodes to outline (a flow's hosts). */
  focusNodes?: string[];
  onPickPort?: (port: string) => void;
  /** node id -> role tag (the DCI WAN accelerator at the site edges). */
  badges?: Map<string, string>;
}) {
  const active = windows?.active;
  const activeScale = active && windows ? (windows.endUs - windows.warmupUs) / (active.endUs - active.startUs) : null;
  const metrics = useMemo(() => availableMetrics(summary, series, activeScale), [summary, series, activeScale]);
  // Saturated links that went idle early look half busy over the whole window: open on the active period.
  const [picked, setMetric] = useState<OverlayMetric>(activeScale ? "utilization_active" : "utilization");
  const metric = metrics.includes(picked) ? picked : "utilization";
  // The clock starts where the fullest queue peaks, not at t = 0 where nothing has happened yet.
  const [tiPicked, setTi] = useState<number | null>(null);
  const peak = useMemo(() => peakQueueIndex(series), [series]);
  const ti = tiPicked ?? peak;
  const [clicked, setClicked] = useState<number | null>(null);
  const spec = OVERLAY[metric];
  const o = useMemo(() => overlayColors(metric, graph.links, summary, series, ti, activeScale), [graph, metric, summary, series, ti, activeScale]);
  const focusLink = useMemo(() => {
    if (!focusPort) return -1;
    const [a, b] = focusPort.split("->");
    return graph.links.findIndex((l) => (l.a === a && l.b === b) || (l.a === b && l.b === a));
  }, [graph, focusPort]);
  const linkStroke = useMemo(() => (i: number) => o.stroke[i], [o]);
  const linkWidth = useMemo(() => (i: number) => (i === focusLink ? 7 : o.values[i] == null ? 1 : 3), [o, focusLink]);
  const selectedNodes = useMemo(() => {
    const ids = new Set(focusNodes ?? []);
    if (focusPort) for (const n of focusPort.split("->")) ids.add(n);
    return ids;
  }, [focusPort, focusNodes]);
  const top = useMemo(() => topLinks(graph.links, o.values), [graph, o]);
  const nT = series?.t_us.length ?? 0;
  useEffect(() => onTime?.(spec.timed && nT > 0 ? series!.t_us[Math.min(ti, nT - 1)] : null), [spec.timed, nT, series, ti, onTime]);
  const missing = (["ecn", "pauses_received"] as const).filter((m) => !metrics.includes(m));

  const describe = (i: number) => {
    const l = graph.links[i];
    const ab = o.directional.get(`${l.a}->${l.b}`);
    const ba = o.directional.get(`${l.b}->${l.a}`);
    const v = (x: number | undefined) => (x === undefined ? "not recorded" : spec.format(x));
    return `${l.a} → ${l.b}: ${v(ab)}; ${l.b} → ${l.a}: ${v(ba)}`;
  };

  return (
    <div className="overlay">
      <div className="row">
        <label>
          Colour links by{" "}
          <select value={metric} onChange={(e) => { setMetric(e.target.value as OverlayMetric); setClicked(null); }}>
            {metrics.map((m) => (
              <option key={m} value={m}>{OVERLAY[m].label}</option>
            ))}
          </select>
        </label>
        {spec.timed && nT > 0 && (
          <label className="grow">
            t = {formatDurationUs(series!.t_us[Math.min(ti, nT - 1)])}{" "}
            <input
              type="range" min={0} max={nT - 1} value={Math.min(ti, nT - 1)} aria-label="Time scrubber"
              onChange={(e) => setTi(Number(e.target.value))}
            />
          </label>
        )}
      </div>
      <TopologyCanvas
        graph={graph} height={graph.nodes.length > 24 ? 440 : 340} ariaLabel={`Topology coloured by ${spec.label}`}
        linkStroke={linkStroke} linkWidth={linkWidth} onLinkClick={(i) => {
          setClicked(i);
          const l = graph.links[i];
          if (l && onPickPort) {
            // the busier direction of the clicked link
            const ab = o.directional.get(`${l.a}->${l.b}`) ?? -1;
            const ba = o.directional.get(`${l.b}->${l.a}`) ?? -1;
            onPickPort(ab >= ba ? `${l.a}->${l.b}` : `${l.b}->${l.a}`);
          }
        }}
        selected={selectedNodes} fill badges={badges}
      />
      <div className="row overlay-legend">
        <ColorLegend color={o.color} label={spec.legend} tickFormat={spec.format} />
        <span className="swatch-note"><span className="swatch" style={{ background: UNRECORDED_LINK }} /> not recorded</span>
      </div>
      {metric === "utilization_active" && active && (
        <p className="hint">Utilization over the active period {formatDurationUs(active.startUs)} – {formatDurationUs(active.endUs)} (first flow start after warm-up to last completion); pick "after warm-up, whole window" for the summary's figure.</p>
      )}
      {clicked != null && graph.links[clicked] && <p className="overlay-pick" aria-live="polite">{describe(clicked)}</p>}
      {top.length > 0 ? (
        <details className="overlay-top">
          <summary>Top {top.length} links: {spec.label}</summary>
          <ol>
            {top.map(({ link, value }) => (
              <li key={link.id}>{link.a} – {link.b}: {spec.format(value)}</li>
            ))}
          </ol>
        </details>
      ) : (
        <p className="hint">No link has a non-zero value for this metric{spec.timed ? " at this time" : ""}.</p>
      )}
      <p className="hint">
        Click a link for both directions' values.{" "}
        {spec.timed ? "Only watched queues and ports (monitor) are sampled over time; others are grey." : "Ports with no activity are not listed in the result and are drawn grey."}
        {missing.length > 0 && " Per-link ECN marks and pauses received need a result that records them (newer simulator)."}
      </p>
    </div>
  );
}
