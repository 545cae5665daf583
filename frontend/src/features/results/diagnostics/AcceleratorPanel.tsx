import type { AcceleratorReport } from "./types";

const count = (n: number) => n.toLocaleString("en-US");
const mb = (bytes: number) => `${(bytes / 1e6).toLocaleString("en-US", { maximumFractionDigits: 2 })} MB`;

/** The DCI edges' RDMA WAN accelerator: pseudo-ACKs, held data and resends over the long link. */
export function AcceleratorPanel({ report }: { report: AcceleratorReport }) {
  return (
    <section className="card diagnostics" aria-label="DCI accelerator">
      <h3>RDMA WAN accelerator</h3>
      <p className="hint">
        Each edge acknowledges its own site's senders at once (pseudo-ACKs), holds up to {mb(report.buffer_bytes)} until the
        far end acknowledges it, and resends over the long link after a far-end NACK or {count(report.retransmit_timeout_us)} us
        without progress. Its resends are not the senders' retransmissions.
      </p>
      <table className="events">
        <thead>
          <tr>
            <th>edge</th><th>pseudo-ACKs</th><th>far-end ACKs absorbed</th><th>resent packets</th><th>timeouts</th>
            <th>passed unheld</th><th>max held</th><th>held at end</th>
          </tr>
        </thead>
        <tbody>
          {Object.entries(report.edges).map(([edge, e]) => (
            <tr key={edge}>
              <td>{edge}</td><td>{count(e.pseudo_acks)}</td><td>{count(e.absorbed_acks)}</td><td>{count(e.retransmitted_packets)}</td>
              <td>{count(e.retransmit_timeouts)}</td><td>{count(e.passed_unheld_packets)}</td><td>{mb(e.max_held_bytes)}</td>
              <td>{mb(e.held_bytes_at_end)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
