import { Link } from "react-router";
import type { TuningResults } from "../api/tunings";
import { fmtEstimate } from "../utils/tuning";
import { fmtSetting } from "../utils/explain";

const signed = (x: number) => `${x >= 0 ? "+" : ""}${(100 * x).toFixed(1)} %`;

/**
 * A screening tuning's second stage (issue 36): the best settings found at flow level, run again at
 * packet level, each objective at both levels side by side with the flow engine's error on it.
 */
export function ScreenedEvaluations({ results, keep }: { results: TuningResults; keep: number }) {
  const byId = new Map(results.evaluations.map((e) => [e.id, e]));
  const kept = (results.kept ?? []).map((id) => byId.get(id)).filter((e) => e !== undefined);
  return (
    <section className="screening" aria-label="Screening" data-testid="screened">
      <h2>Screened at flow level</h2>
      <p className="hint">
        Every evaluation ran with the flow-level engine;
        {results.kept == null
          ? ` the best ${keep} settings run again at packet level once every strategy has finished.`
          : ` the best ${results.kept.length} settings (by ${results.objectives[0]}) ran again at packet level.`}
      </p>
      {kept.length > 0 && (
        <table className="data" aria-label="Screened settings, flow and packet level">
          <thead>
            <tr>
              <th>rank</th>
              <th>settings</th>
              {results.objectives.map((o) => (
                <th key={o} colSpan={3}>
                  {o}: flow · packet · flow vs packet
                </th>
              ))}
              <th>runs</th>
            </tr>
          </thead>
          <tbody>
            {kept.map((e, i) => (
              <tr key={e.id} data-evaluation={e.id}>
                <td>{i + 1}</td>
                <td>
                  {Object.entries(e.params)
                    .map(([k, v]) => fmtSetting(k, v))
                    .join(", ") || "—"}
                </td>
                {results.objectives.map((o, k) => {
                  const flow = e.objectives?.[k] ?? null;
                  const packet = e.packet_objectives?.[k] ?? null;
                  return [
                    <td key={`${o}-f`}>{fmtEstimate(flow)}</td>,
                    <td key={`${o}-p`}>{packet ? fmtEstimate(packet) : e.packet_run_ids ? "running" : "—"}</td>,
                    <td key={`${o}-e`}>
                      {flow && packet && packet.mean ? signed((flow.mean - packet.mean) / packet.mean) : "—"}
                    </td>,
                  ];
                })}
                <td>
                  {e.run_ids[0] && <Link to={`/runs/${e.run_ids[0]}`}>flow</Link>}
                  {e.packet_run_ids?.[0] && (
                    <>
                      {" "}
                      · <Link to={`/runs/${e.packet_run_ids[0]}`}>packet</Link>
                    </>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
