import type { FlowRecord, Job, ResultSeries, ResultSummary } from "../../../lib/api/resultTypes";
import { collectiveCounts } from "../utils/jobs";
import { type Windows, flowAtPercentile, maxQueue, percentilesOf, portRows, topPort } from "../utils/derive";
import { Term } from "../../../components/GlossaryTip";
import { formatBytes, formatCount, formatDurationUs, formatNumber } from "../../../lib/format";

/** What a card points at: the page highlights it in the charts, tables and overlay. */
export interface Focus {
  kind: "port" | "flow";
  id: string;
}

export interface Card {
  label: string;
  /** Glossary key of the card's metric ("term.pfc_pauses"): its heading explains itself. */
  term?: string;
  value: string;
  /** The port or flow the number belongs to, when it belongs to one. */
  where?: string;
  /** The window the number covers. */
  window: string;
  note?: string;
  /** A flow-level run: the error measured for the figure on such scenarios (utils/flowError.ts). */
  estimate?: string | null;
  /** Anchor of the chart or table that shows the number. */
  href: string;
  linkText: string;
  focus?: Focus;
}

const orDash = (v: number | null | undefined, f: (x: number) => string) => (v == null ? "—" : f(v));

/** Where a run's collective jobs are (the results page's "Collective jobs" section). */
export const JOBS_ANCHOR = "jobs";

/** The cards' content, computed apart from the markup so tests can read it. `flows` are the flows
 * the FCT statistics cover (pingmesh probes left out, as the simulator does); `probes` counts those.
 * `jobs`: the run's collective jobs. Their transfers count in the summary's flows and FCT figures
 * but are not listed as flows, so a run with jobs says what it has (jobs, steps, transfers) and
 * shows flow cards only for the flows it lists, from those flows. */
export function summaryCards(summary: ResultSummary, w: Windows, flows?: FlowRecord[], series?: ResultSeries,
  probes: { total: number; delivered: number } = { total: 0, delivered: 0 }, jobs: Job[] = []): Card[] {
  const warm = w.warmupUs > 0 ? `after the ${formatDurationUs(w.warmupUs)} warm-up` : "whole run (no warm-up)";
  const whole = "whole run";
  const fct = summary.fct_us;
  const rows = portRows(summary, w);
  const p99Flow = flowAtPercentile(flows, "fct_us", 0.99);
  const slowFlow = flowAtPercentile(flows, "slowdown", 0.99);
  const mq = maxQueue(summary);
  // On the chart means a line that shows something: a watched queue no sample caught is not.
  const charted = (port: string | null) => !!port && !!series && port in series.queues && series.queues[port].some((v) => v > 0);
  const queueNote = [
    mq.wholeRun && w.warmupUs > 0 ? `${formatBytes(mq.afterWarmup.bytes)} after warm-up${mq.afterWarmup.port && mq.afterWarmup.port !== mq.port ? ` (${mq.afterWarmup.port})` : ""}` : null,
    mq.port && series && !charted(mq.port) ? (mq.port in series.queues ? "held between samples: flat on the queue chart" : "not on the queue chart (not watched)") : null,
  ].filter(Boolean).join(" · ");
  const ecnTop = topPort(rows, (r) => r.ecnMarks);
  const pauseTop = topPort(rows, (r) => r.pausesSent + r.pausesReceived);
  const drops = summary.drops ?? { total: 0 };
  const dropReasons = Object.entries(drops).filter(([k, v]) => k !== "total" && v > 0).map(([k, v]) => `${formatCount(v)} ${k.replace(/_/g, " ")}`);
  const coll = jobs.length ? collectiveCounts(jobs) : null;
  // the flows the result lists: with collective jobs, the summary's totals less their transfers
  const total = summary.flows_total == null ? null : summary.flows_total - (coll?.transfers ?? 0);
  const completedListed = (summary.flows_completed ?? 0) - (coll?.transfersDone ?? 0);
  const longLived = flows ? flows.filter((f) => f.size_bytes === 0).length : null;
  const finite = flows && total != null ? total - (longLived ?? 0) - probes.total : null;
  const probeNote = probes.total > 0 ? `${formatCount(probes.delivered)} of ${formatCount(probes.total)} pingmesh probes delivered (left out: see the Pingmesh panel)` : null;
  const listsFlows = !coll || (total ?? 0) > 0;
  // with jobs the summary's FCT and slowdown mix in the transfers: the cards read the listed flows
  const fctOfListed = coll ? percentilesOf(flows, "fct_us") : null;
  const slowOfListed = coll ? percentilesOf(flows, "slowdown") : null;
  const fctP50 = coll ? fctOfListed?.p50 : fct?.p50;
  const fctP99 = coll ? fctOfListed?.p99 : fct?.p99;
  const fctCount = coll ? fctOfListed?.count ?? 0 : fct?.count;
  const fctMean = coll ? fctOfListed?.mean : fct?.mean;
  const slowP99 = coll ? slowOfListed?.p99 : summary.slowdown?.p99;
  const slowP50 = coll ? slowOfListed?.p50 : summary.slowdown?.p50;
  const ofListed = coll ? " (collective transfers left out: see the jobs)" : "";
  const flowsLink = listsFlows ? { href: "#table-flows", linkText: "flows table" } : { href: "#table-ports", linkText: "ports table (utilization)" };

  const cards: Card[] = [
    { label: "Throughput", term: "term.throughput", value: `${formatNumber(summary.throughput_gbps)} Gbit/s`, window: warm, note: "payload delivered to all hosts", ...flowsLink },
  ];
  if (coll) {
    const jobsLink = { href: `#${JOBS_ANCHOR}`, linkText: "collective jobs" };
    cards.push(
      {
        label: "Jobs", value: formatCount(coll.jobs), window: whole,
        where: jobs.map((j) => j.name).join(", "),
        note: `${formatCount(coll.finished)} of ${formatCount(coll.jobs)} finished`, ...jobsLink,
      },
      {
        label: "Steps", value: `${formatCount(coll.stepsDone)} / ${formatCount(coll.steps)}${coll.stepsTruncated ? "+" : ""}`, window: whole,
        note: `finished / run (each iteration's steps on each channel)${coll.stepsTruncated ? "; the result lists only the first steps" : ""}`, ...jobsLink,
      },
      {
        label: "Transfers", value: `${formatCount(coll.transfersDone)} / ${formatCount(coll.transfers)}`, window: whole,
        note: `completed / run · ${formatCount(coll.network)} over the network, ${formatCount(coll.nvlink)} over NVLink; a step's transfers are not listed as flows`, ...jobsLink,
      },
    );
  }
  if (!coll || (fctCount ?? 0) > 0) {
    cards.push(
      {
        label: "FCT p50", term: "term.fct", value: orDash(fctP50, formatDurationUs), window: whole,
        note: [fctCount ? `${formatCount(fctCount)} finite flows completed${ofListed}` : "no finite flow completed", probes.total ? "pingmesh probes left out" : null].filter(Boolean).join(" · "),
        href: "#chart-cdf", linkText: "FCT CDF",
      },
      {
        label: "FCT p99", term: "term.fct", value: orDash(fctP99, formatDurationUs), window: whole,
        where: p99Flow ? `flow ${p99Flow.id} ${p99Flow.src}->${p99Flow.dst}` : undefined,
        note: fctMean != null ? `mean ${formatDurationUs(fctMean)}` : undefined, href: "#chart-cdf", linkText: "FCT CDF",
        focus: p99Flow ? { kind: "flow", id: String(p99Flow.id) } : undefined,
      },
      {
        label: "Slowdown p99", term: "term.slowdown", value: orDash(slowP99, (v) => `${formatNumber(v)}×`), window: whole,
        where: slowFlow ? `flow ${slowFlow.id} ${slowFlow.src}->${slowFlow.dst}` : undefined,
        note: slowP50 != null ? `p50 ${formatNumber(slowP50)}× (FCT / ideal FCT)` : "FCT / ideal FCT", href: "#chart-cdf", linkText: "slowdown CDF",
        focus: slowFlow ? { kind: "flow", id: String(slowFlow.id) } : undefined,
      },
    );
  }
  cards.push(
    {
      label: "Max queue", term: "term.max_queue", value: formatBytes(mq.bytes), window: mq.wholeRun ? (w.warmupUs > 0 ? `${whole}, warm-up included` : "whole run (no warm-up)") : warm,
      where: mq.port ? `${mq.port}${mq.priority != null ? ` (priority ${mq.priority})` : ""}` : undefined,
      note: queueNote || undefined, href: charted(mq.port) ? "#chart-queues" : "#table-ports", linkText: charted(mq.port) ? "queue chart" : "ports table",
      focus: mq.port ? { kind: "port", id: mq.port } : undefined,
    },
    {
      label: "ECN marks", term: "term.ecn_marks", value: formatCount(summary.ecn_marked_packets), window: whole,
      where: ecnTop ? `most on ${ecnTop.port} (${formatCount(ecnTop.value)})` : undefined,
      note: summary.cnps_sent != null ? `${formatCount(summary.cnps_sent)} CNPs sent` : "packets", href: "#table-ports", linkText: "ports table",
      focus: ecnTop ? { kind: "port", id: ecnTop.port } : undefined,
    },
    {
      label: "PFC pauses", term: "term.pfc_pauses", value: formatCount(summary.pfc_pauses_sent), window: whole,
      where: pauseTop ? `most on ${pauseTop.port} (${formatCount(pauseTop.value)})` : undefined,
      note: summary.pfc_pauses_received != null ? `frames sent · ${formatCount(summary.pfc_pauses_received)} received` : "frames sent",
      href: pauseTop && series && pauseTop.port in series.pause ? "#chart-pause" : "#table-ports",
      linkText: pauseTop && series && pauseTop.port in series.pause ? "pause chart" : "ports table",
      focus: pauseTop ? { kind: "port", id: pauseTop.port } : undefined,
    },
    {
      label: "Drops", term: "term.drops", value: formatCount(drops.total ?? 0), window: whole,
      note: [dropReasons.join(", "), summary.retransmitted_packets != null ? `${formatCount(summary.retransmitted_packets)} packets retransmitted` : null].filter(Boolean).join(" · ") || "packets",
      ...(listsFlows ? { href: "#table-flows", linkText: "flows table (retransmits)" } : { href: "#table-ports", linkText: "ports table" }),
    },
  );
  if (total != null && listsFlows) {
    let note: string;
    if (total === 0) note = "this scenario has no traffic";
    else if (longLived != null && longLived > 0) note = `${formatCount(longLived)} long-lived flows run to the end (never complete)${finite ? ` · ${formatCount(completedListed - probes.delivered)} of ${formatCount(finite)} finite flows completed` : ""}`;
    else if (completedListed === total) note = "all flows completed";
    else note = `${formatCount(total - completedListed)} still running at the end`;
    if (coll) note = `${note} · collective transfers not counted (see Transfers)`;
    if (probeNote) note = `${note} · ${probeNote}`;
    cards.push({ label: "Flows completed", value: `${formatCount(completedListed)} / ${formatCount(total)}`, window: whole, note, href: "#table-flows", linkText: "flows table" });
  }
  return cards;
}

/** The headline numbers of a run: each says its port or flow, its window and links to its chart. */
export function SummaryCards({ cards, onFocus }: { cards: Card[]; onFocus?: (f: Focus) => void }) {
  return (
    <dl className="summary-cards">
      {cards.map((c) => (
        <div className="card" key={c.label} data-metric={c.label}>
          <dt>{c.term ? <Term term={c.term}>{c.label}</Term> : c.label}</dt>
          <dd>{c.value}</dd>
          {c.where && <small className="card-where">{c.where}</small>}
          <small className="card-window">{c.window}</small>
          {c.note && <small>{c.note}</small>}
          {c.estimate && <small className="card-estimate" data-testid="flow-error">{c.estimate}</small>}
          <a className="card-link" href={c.href} onClick={() => c.focus && onFocus?.(c.focus)}>→ {c.linkText}</a>
        </div>
      ))}
    </dl>
  );
}
