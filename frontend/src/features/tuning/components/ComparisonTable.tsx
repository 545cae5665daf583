import { shortParamPath } from "../../../lib/scenario/paths";
import type { TuningResults } from "../api/tunings";
import { fmtEstimate, STRATEGY_COLORS } from "../utils/tuning";

/** The slides' comparison: each strategy's pick, means ± 95% CI over its runs. */
export function ComparisonTable({ results, onPick, selected }: {
  results: TuningResults;
  onPick: (evaluationId: number) => void;
  selected: number | null;
}) {
  const picks = new Map(results.picks.map((p) => [p.strategy, p]));
  return (
    <table className="comparison-table" aria-label="Comparison of the strategies' picks">
      <thead>
        <tr>
          <th>strategy</th><th>evaluations</th><th>{results.objectives[0]}</th><th>throughput (Gbit/s)</th>
          <th>FCT p99 (us)</th><th>queue p99 (bytes)</th><th>max queue (bytes)</th><th>ECN-marked packets</th><th>settings</th><th />
        </tr>
      </thead>
      <tbody>
        {results.table.map((row) => {
          const pick = picks.get(row.strategy);
          return (
            <tr key={row.strategy} data-strategy={row.strategy} className={selected != null && selected === row.evaluation_id ? "selected" : undefined}>
              <td><span className="swatch" style={{ background: STRATEGY_COLORS[row.strategy] }} /> {row.strategy}</td>
              <td>{row.evaluations}</td>
              <td>{fmtEstimate(row.objective)}{pick && pick.beats.length > 0 && <small title="95% intervals do not overlap"> better than {pick.beats.join(", ")}</small>}</td>
              <td>{fmtEstimate(row.throughput_gbps)}</td>
              <td>{fmtEstimate(row.fct_p99_us)}</td>
              <td>{fmtEstimate(row.queue_p99_bytes)}</td>
              <td>{fmtEstimate(row.max_queue_bytes)}</td>
              <td>{fmtEstimate(row.ecn_marked_packets)}</td>
              <td className="settings">{pick ? Object.entries(pick.overrides && Object.keys(pick.overrides).length ? pick.overrides : pick.params).map(([k, v]) => `${shortParamPath(k)}=${v}`).join(", ") : "—"}</td>
              <td>{row.evaluation_id != null && <button type="button" className="small" onClick={() => onPick(row.evaluation_id!)}>Select</button>}</td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}
