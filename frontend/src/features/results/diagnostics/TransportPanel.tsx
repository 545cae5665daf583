import type { TransportNic, TransportReport } from "./types";

const count = (n: number) => n.toLocaleString("en-US");

/** Hosts with the same figures collapse into one row, so a 128-host fabric stays readable. */
function groupNics(nics: TransportNic[]): { hosts: string[]; nic: TransportNic }[] {
  const groups = new Map<string, { hosts: string[]; nic: TransportNic }>();
  for (const nic of nics) {
    const key = [nic.transport, nic.processes, nic.qps_per_nic, nic.qp_contexts_used, nic.qp_cache_entries, nic.qp_cache_misses].join("|");
    const group = groups.get(key);
    if (group) group.hosts.push(nic.host);
    else groups.set(key, { hosts: [nic.host], nic });
  }
  return [...groups.values()];
}

const hostList = (hosts: string[]) => (hosts.length <= 4 ? hosts.join(", ") : `${hosts.slice(0, 3).join(", ")} … ${hosts[hosts.length - 1]} (${hosts.length})`);

/** QP accounting per NIC (result "transport"): QPs a NIC needs, contexts its flows used, QP-cache misses. */
export function TransportPanel({ report }: { report: TransportReport }) {
  return (
    <section className="card diagnostics" aria-label="Transport and QP accounting">
      <h3>Transport: QPs per NIC</h3>
      <p className="hint">
        To reach every process of the other {count(report.hosts - 1)} hosts a NIC needs up to {count(report.max_qps_per_nic)} QPs
        (RC and sprayed: (N-1) x p², XRC: N x p, ERD: p). A send whose QP context was not in the NIC's cache stalls transmission for
        the miss cost: {count(report.qp_cache_misses)} misses in all.
      </p>
      <table className="events">
        <thead>
          <tr>
            <th>hosts</th><th>transport</th><th>processes</th><th>QPs needed</th><th>contexts used</th><th>cache entries</th>
            <th>cache misses</th>
          </tr>
        </thead>
        <tbody>
          {groupNics(report.nics).map(({ hosts, nic }) => (
            <tr key={hosts[0]} data-testid={`qp-${hosts[0]}`}>
              <td>{hostList(hosts)}</td><td>{nic.transport}</td><td>{count(nic.processes)}</td><td>{count(nic.qps_per_nic)}</td>
              <td>{count(nic.qp_contexts_used)}</td><td>{nic.qp_cache_entries === 0 ? "unlimited" : count(nic.qp_cache_entries)}</td>
              <td>{count(nic.qp_cache_misses)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
