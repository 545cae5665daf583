import { format } from "d3-format";
import type { ResultSummary } from "../../../lib/api/resultTypes";

const num = format(",.4~g");
const bytes = (b: number) => (b >= 1e6 ? `${format(".3~f")(b / 1e6)} MB` : b >= 1e3 ? `${format(".3~f")(b / 1e3)} KB` : `${b} B`);
const orDash = (v: number | null | undefined, f: (x: number) => string) => (v == null ? "—" : f(v));

/** The headline numbers of a run. */
export function SummaryCards({ summary }: { summary: ResultSummary }) {
  const cards: [string, string, string?][] = [
    ["Throughput", `${num(summary.throughput_gbps)} Gbit/s`],
    ["FCT p50", orDash(summary.fct_us?.p50, (v) => `${num(v)} us`), summary.fct_us ? `${summary.fct_us.count} flows` : undefined],
    ["FCT p99", orDash(summary.fct_us?.p99, (v) => `${num(v)} us`)],
    ["Max queue", bytes(summary.max_queue_bytes)],
    ["ECN marks", num(summary.ecn_marked_packets), summary.cnps_sent != null ? `${num(summary.cnps_sent)} CNPs` : undefined],
    ["PFC pauses", num(summary.pfc_pauses_sent), "sent"],
    ["Drops", num(summary.drops?.total ?? 0)],
  ];
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
