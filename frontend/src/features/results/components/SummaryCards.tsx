import { format } from "d3-format";
import type { ResultSummary } from "../../../lib/api/resultTypes";

const num = format(",.4~g");
/** Counts stay exact integers with thousands separators (never 1.159e+4). */
const int = (v: number) => format(",")(Math.round(v));
const bytes = (b: number) => (b >= 1e6 ? `${format(".3~f")(b / 1e6)} MB` : b >= 1e3 ? `${format(".3~f")(b / 1e3)} KB` : `${b} B`);
const orDash = (v: number | null | undefined, f: (x: number) => string) => (v == null ? "—" : f(v));

/** The headline numbers of a run. */
export function SummaryCards({ summary }: { summary: ResultSummary }) {
  const fct = summary.fct_us;
  const cards: [string, string, string?][] = [
    ["Throughput", `${num(summary.throughput_gbps)} Gbit/s`, "payload delivered, after warm-up"],
    ["FCT p50", orDash(fct?.p50, (v) => `${num(v)} us`), fct?.count ? `${int(fct.count)} finite flows completed` : "no finite flow completed"],
    ["FCT p99", orDash(fct?.p99, (v) => `${num(v)} us`), fct?.mean != null ? `mean ${num(fct.mean)} us` : undefined],
    ["Slowdown p99", orDash(summary.slowdown?.p99, (v) => `${num(v)}×`), summary.slowdown?.p50 != null ? `p50 ${num(summary.slowdown.p50)}× (FCT / ideal FCT)` : "FCT / ideal FCT"],
    ["Max queue", bytes(summary.max_queue_bytes), "largest egress queue"],
    ["ECN marks", int(summary.ecn_marked_packets), summary.cnps_sent != null ? `${int(summary.cnps_sent)} CNPs sent` : "packets"],
    ["PFC pauses", int(summary.pfc_pauses_sent), summary.pfc_pauses_received != null ? `frames sent · ${int(summary.pfc_pauses_received)} received` : "frames sent"],
    ["Drops", int(summary.drops?.total ?? 0), summary.retransmitted_packets != null ? `packets · ${int(summary.retransmitted_packets)} retransmitted` : "packets"],
  ];
  if (summary.flows_total != null) {
    cards.push(["Flows completed", `${int(summary.flows_completed ?? 0)} / ${int(summary.flows_total)}`, "long-lived flows never complete"]);
  }
  return (
    <dl className="summary-cards">
      {cards.map(([label, value, note]) => (
        <div className="card" key={label} data-metric={label}>
          <dt>{label}</dt>
          <dd>{value}</dd>
          {note && <small>{note}</small>}
        </div>
      ))}
    </dl>
  );
}
