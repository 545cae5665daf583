import { scaleSequential } from "d3-scale";
import { interpolateYlOrRd } from "d3-scale-chromatic";
import type { PingmeshReport, RttStats } from "./types";
import { formatCount } from "../../../lib/format";

const fmt = (v: number | null) => (v === null ? "–" : v.toLocaleString(undefined, { maximumFractionDigits: 1 }));

function Row({ name, s }: { name: string; s: RttStats }) {
  return (
    <tr>
      <th scope="row">{name}</th>
      <td>{s.count}</td><td>{fmt(s.p50_us)}</td><td>{fmt(s.p99_us)}</td><td>{fmt(s.p999_us)}</td>
    </tr>
  );
}

/**
 * RDMA Pingmesh: a source ToR x destination ToR matrix coloured by p99 RTT, and the percentiles
 * idle vs under load and per scope (Guo et al. 2016, Figure 8).
 */
/** Sent, delivered (the summary cards' count) and answered (an RTT measured), so the two agree. */
export function pingmeshCounts(p: PingmeshReport): string {
  const answered = p.probes_sent - p.probes_unanswered;
  return `${formatCount(p.probes_sent)} probes: ${formatCount(p.probes_delivered)} delivered, ${formatCount(answered)} answered with an RTT, ` +
    `${formatCount(p.probes_unanswered)} without an answer by the end of the run`;
}

export function PingmeshMatrix({ pingmesh }: { pingmesh: PingmeshReport }) {
  const tors = Array.from(new Set(pingmesh.tor_matrix.flatMap((c) => [c.src_tor, c.dst_tor]))).sort();
  const cell = new Map(pingmesh.tor_matrix.map((c) => [`${c.src_tor}|${c.dst_tor}`, c]));
  const maxP99 = Math.max(1, ...pingmesh.tor_matrix.map((c) => c.p99_us ?? 0));
  const colour = scaleSequential(interpolateYlOrRd).domain([0, maxP99]);
  return (
    <section className="card diagnostics" aria-label="Pingmesh">
      <h3>RDMA Pingmesh ({pingmeshCounts(pingmesh)})</h3>
      <div className="row" style={{ alignItems: "flex-start", gap: 24, flexWrap: "wrap" }}>
        <table className="pingmesh-matrix" aria-label="p99 RTT by source and destination ToR">
          <caption>p99 RTT (us): source ToR (rows) × destination ToR (columns)</caption>
          <thead>
            <tr><th />{tors.map((t) => <th key={t} scope="col">{t}</th>)}</tr>
          </thead>
          <tbody>
            {tors.map((src) => (
              <tr key={src}>
                <th scope="row">{src}</th>
                {tors.map((dst) => {
                  const c = cell.get(`${src}|${dst}`);
                  const p99 = c?.p99_us ?? null;
                  return (
                    <td key={dst} data-testid={`pm-${src}-${dst}`}
                      title={c ? `${src} → ${dst}: ${c.count} probes, p50 ${fmt(c.p50_us)} us, p99 ${fmt(p99)} us, p99.9 ${fmt(c.p999_us)} us` : "no probe"}
                      style={{ background: p99 === null ? "transparent" : colour(p99), minWidth: 64, textAlign: "right", padding: "6px 8px",
                        color: p99 !== null && p99 > maxP99 * 0.6 ? "white" : "black" }}>
                      {fmt(p99)}
                    </td>
                  );
                })}
              </tr>
            ))}
          </tbody>
        </table>
        <table className="pingmesh-percentiles" aria-label="RTT percentiles">
          <caption>RTT percentiles (us)</caption>
          <thead><tr><th /><th>probes</th><th>p50</th><th>p99</th><th>p99.9</th></tr></thead>
          <tbody>
            <Row name="idle" s={pingmesh.idle} />
            <Row name="under load" s={pingmesh.loaded} />
            <Row name="all" s={pingmesh.rtt} />
            <Row name="ToR scope" s={pingmesh.scopes.tor} />
            <Row name="podset scope" s={pingmesh.scopes.podset} />
            <Row name="fabric scope" s={pingmesh.scopes.fabric} />
          </tbody>
        </table>
      </div>
      <p className="hint">Probes are 512-byte RDMA messages in the data class; their RTT is kept out of the FCT cards.</p>
    </section>
  );
}
