import { useEffect, useMemo, useState } from "react";
import { TopologyCanvas } from "../../../components/TopologyCanvas";
import { ColorLegend } from "../../../components/ColorLegend";
import type { Job, ResultSeries, ResultSummary } from "../../../lib/api/resultTypes";
import type { LayoutGraph } from "../../../lib/topology/types";
import { type OverlayMetric, OVERLAY, UNRECORDED_LINK, availableMetrics, contendedLinks, jobLinkSummary, overlayColors, topLinks } from "../utils/overlay";
import { type Windows, peakQueueIndex } from "../utils/derive";
import { formatBytes, formatCount, formatDurationUs } from "../../../lib/format";

/** The fabric with links coloured by a run metric, and a time scrubber over the series. */
export function TopologyOverlay({ graph, summary, series, onTime, windows, focusPort, focusNodes, onPickPort, badges, jobs, jobRequest }: {
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
  /** The run's collective jobs: their links can colour the fabric. */
  jobs?: Job[];
  /** A job panel asked to show job `index`'s links (seq changes on every click). */
  jobRequest?: { index: number; seq: number } | null;
}) {
  const active = windows?.active;
  const activeScale = active && windows ? (windows.endUs - windows.warmupUs) / (active.endUs - active.startUs) : null;
  const metrics = useMemo(() => availableMetrics(summary, series, activeScale, jobs), [summary, series, activeScale, jobs]);
  // Saturated links that went idle early look half busy over the whole window: open on the active period.
  const [picked, setMetric] = useState<OverlayMetric>(activeScale ? "utilization_active" : "utilization");
  const metric = metrics.includes(picked) ? picked : "utilization";
  const [jobIndex, setJobIndex] = useState(0);
  useEffect(() => {
    if (!jobRequest) return;
    setJobIndex(jobRequest.index);
    setMetric("job_bytes");
  }, [jobRequest]);
  const kindOf = useMemo(() => {
    const kinds = new Map(graph.nodes.map((n) => [n.id, n.kind]));
    return (id: string) => kinds.get(id);
  }, [graph]);
  const jobView = useMemo(() => (metric === "job_bytes" && jobs?.[jobIndex] ? jobLinkSummary(jobs, jobIndex, kindOf) : null), [metric, jobs, jobIndex, kindOf]);
  // The clock starts where the fullest queue peaks, not at t = 0 where nothing has happened yet.
  const [tiPicked, setTi] = useState<number | null>(null);
  const peak = useMemo(() => peakQueueIndex(series), [series]);
  const ti = tiPicked ?? peak;
  const [clicked, setClicked] = useState<number | null>(null);
  const spec = OVERLAY[metric];
  const o = useMemo(() => overlayColors(metric, graph.links, summary, series, ti, activeScale, jobView?.links), [graph, metric, summary, series, ti, activeScale, jobView]);
  // the links (either direction) the shown job shared with a job that ran at the same time: drawn thicker
  const sharedLinks = useMemo(() => (jobView ? contendedLinks(graph.links, jobView) : undefined), [graph, jobView]);
  const focusLink = useMemo(() => {
    if (!focusPort) return -1;
    const [a, b] = focusPort.split("->");
    return graph.links.findIndex((l) => (l.a === a && l.b === b) || (l.a === b && l.b === a));
  }, [graph, focusPort]);
  const linkStroke = useMemo(() => (i: number) => o.stroke[i], [o]);
  // a job's links it shared with another job are drawn thicker, keeping their colour (its bytes)
  const linkWidth = useMemo(() => (i: number) => (i === focusLink ? 7 : o.values[i] == null ? 1 : sharedLinks?.has(i) ? 6 : 3), [o, focusLink, sharedLinks]);
  const selectedNodes = useMemo(() => {
    const ids = new Set(jobView ? jobView.job.hosts : focusNodes ?? []);
    if (focusPort) for (const n of focusPort.split("->")) ids.add(n);
    return ids;
  }, [focusPort, focusNodes, jobView]);
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
        {metric === "job_bytes" && jobs && (
          <label>
            Job{" "}
            <select aria-label="Job shown on the fabric" value={jobIndex} onChange={(e) => { setJobIndex(Number(e.target.value)); setClicked(null); }}>
              {jobs.map((j, i) => <option key={`${j.name}-${i}`} value={i}>{j.name}</option>)}
            </select>
          </label>
        )}
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
        <ColorLegend color={o.color} label={jobView ? `${spec.legend} (job ${jobView.job.name})` : spec.legend} tickFormat={spec.format} />
        <span className="swatch-note"><span className="swatch" style={{ background: UNRECORDED_LINK }} /> {jobView ? "not crossed by the job" : "not recorded"}</span>
      </div>
      {jobView && <JobLinksNote view={jobView} />}
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
        {jobView ? "The job's ranks are outlined; links it shared with a job running at the same time are drawn thicker." : spec.timed ? "Only watched queues and ports (monitor) are sampled over time; others are grey." : "Ports with no activity are not listed in the result and are drawn grey."}
        {missing.length > 0 && " Per-link ECN marks and pauses received need a result that records them (newer simulator)."}
      </p>
    </div>
  );
}

/** The job's links in words: how many, how many between switches, which it shared and with whom. */
function JobLinksNote({ view }: { view: NonNullable<ReturnType<typeof jobLinkSummary>> }) {
  const { job, links, betweenSwitches, shared, sent, partners } = view;
  const together = partners.filter((p) => p.concurrent).map((p) => p.job);
  const apart = partners.filter((p) => !p.concurrent).map((p) => p.job);
  const names = (l: string[]) => `job${l.length === 1 ? "" : "s"} ${l.join(", ")}`;
  return (
    <div className="job-links" data-testid="job-links">
      <p className="hint">
        Job {job.name}: {formatBytes(sent)} of DATA left its ranks' NICs (its network bytes) and crossed {formatCount(links.length)} link direction{links.length === 1 ? "" : "s"},{" "}
        {betweenSwitches.length ? `${formatCount(betweenSwitches.length)} of them between switches (leaf–spine)` : "none between switches: its traffic stayed on the leaves"}.{" "}
        {shared.length ? `It shared ${formatCount(shared.length)} with ${names(partners.map((p) => p.job))}` : "It shared no link direction with another job."}
        {together.length > 0 && `: ${names(together)} ran at the same time, so their frames queued together there`}
        {apart.length > 0 && `${together.length ? "; " : ": "}${names(apart)} ran at another time, so they did not compete`}
        {shared.length > 0 && "."}
      </p>
      {shared.length > 0 && (
        <details className="overlay-top" open={shared.length <= 8}>
          <summary>Links shared with other jobs ({formatCount(shared.length)})</summary>
          <ol>
            {shared.slice(0, 20).map((s) => (
              <li key={s.link}>{s.link.replace("->", " → ")}: {job.name} {formatBytes(s.bytes)}, {s.others.map((o) => `${o.job} ${formatBytes(o.bytes)}`).join(", ")}</li>
            ))}
          </ol>
        </details>
      )}
    </div>
  );
}
