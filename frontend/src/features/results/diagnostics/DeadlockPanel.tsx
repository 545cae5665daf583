import type { FaultReport } from "./types";

const us = (v: number) => `${v.toLocaleString(undefined, { maximumFractionDigits: 1 })} us`;

/**
 * PFC deadlocks (cycles of mutually paused egress queues) and the fault log of a run: shown
 * instead of a silent stall.
 */
export function DeadlockPanel({ faults }: { faults: FaultReport }) {
  const drops = Object.entries(faults.drops).filter(([, n]) => n > 0);
  return (
    <section className="card diagnostics" aria-label="Faults and deadlocks">
      <h3>Faults, watchdogs and deadlocks</h3>
      {faults.deadlocks.length > 0 ? (
        <div role="alert" className="state error">
          {faults.deadlocks.map((d, i) => (
            <p key={i}>
              <strong>PFC deadlock</strong> on priority {d.priority}: {d.ports.join(" → ")} → {d.ports[0].split("->")[0]}{" "}
              (formed at {us(d.formed_us)}, found at {us(d.detected_us)}). Every queue of the cycle is paused by the next
              switch and holds frames: traffic through it has stopped for good.
            </p>
          ))}
        </div>
      ) : (
        <p className="hint">No PFC deadlock was found.</p>
      )}
      <p>
        Switch watchdog triggers: <strong>{faults.switch_watchdog_triggers}</strong> · NIC watchdog triggers:{" "}
        <strong>{faults.nic_watchdog_triggers}</strong> · Fault drops:{" "}
        {drops.length ? drops.map(([k, n]) => `${k} ${n}`).join(", ") : "none"}
      </p>
      {faults.events.length > 0 && (
        <table className="events">
          <thead>
            <tr><th>time</th><th>event</th><th>where</th><th>priority</th></tr>
          </thead>
          <tbody>
            {faults.events.map((e, i) => (
              <tr key={i}>
                <td>{us(e.t_us)}</td><td>{e.event}</td><td>{e.target}</td><td>{e.priority ?? ""}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
