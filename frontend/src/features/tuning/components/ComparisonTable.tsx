import type { TuningResults } from "../api/tunings";
import { fmtEstimate, STRATEGY_COLORS } from "../utils/tuning";
import { RAW_METRICS, describeTerms, fmtSetting, pickSettings, scoreTerms, worseThan } from "../utils/explain";

/** The slides' comparison: each strategy's pick, means ± 95% CI over its runs, why it scored
 * what it did (the objective's terms), and what it gave up against the vendor setting. */
export function ComparisonTable({ results, onPick, selected }: {
  results: TuningResults;
  onPick: (evaluationId: number) => void;
  selected: number | null;
}) {
  const picks = new Map(results.picks.map((p) => [p.strategy, p]));
  const metrics = new Map(results.evaluations.map((e) => [e.id, e.metrics]));
  const spec = results.objective_specs?.[0];
  const vendor = results.table.find((r) => r.strategy === "vendor" && r.objective);
  const objective = results.objectives[0];
  return (
    <div className="table-scroll">
      <table className="comparison-table" aria-label="Comparison of the strategies' picks">
        <thead>
          <tr>
            <th>strategy</th><th>evaluations</th><th>{objective}</th><th>why (score terms)</th>
            {RAW_METRICS.map((m) => <th key={m.key}>{m.label}</th>)}
            <th>settings (model units)</th><th />
          </tr>
        </thead>
        <tbody>
          {results.table.map((row) => {
            const pick = picks.get(row.strategy);
            const terms = row.evaluation_id != null ? scoreTerms(metrics.get(row.evaluation_id)) : null;
            const worse = pick?.beats.includes("vendor") ? worseThan(row, vendor) : [];
            // every pick in the scenario's units (the grid's cells and percent converted by the API)
            const settings = pickSettings(pick);
            return (
              <tr key={row.strategy} data-strategy={row.strategy} className={selected != null && selected === row.evaluation_id ? "selected" : undefined}>
                <td><span className="swatch" style={{ background: STRATEGY_COLORS[row.strategy] }} /> {row.strategy}</td>
                <td>{row.evaluations}</td>
                <td>
                  {fmtEstimate(row.objective)}
                  {pick && pick.beats.length > 0 && (
                    <small className="beats" title="95% intervals of the objective do not overlap"> better than {pick.beats.join(", ")} on {objective}</small>
                  )}
                  {worse.length > 0 && <small className="delta worse" data-testid="worse-than-vendor"> but worse than vendor on: {worse.join("; ")}</small>}
                </td>
                <td className="terms">{terms ? describeTerms(terms, spec) : spec && spec.kind !== "metric" ? "—" : "the metric itself"}</td>
                {RAW_METRICS.map((m) => {
                  const e = row[m.key] as { mean: number; ci: number } | null;
                  return <td key={m.key}>{e ? `${m.fmt(e.mean)}${e.ci > 0 ? ` ± ${m.fmt(e.ci)}` : ""}` : "—"}</td>;
                })}
                <td className="settings">{settings.length ? settings.map(([k, v]) => fmtSetting(k, v)).join(", ") : "—"}</td>
                <td>{row.evaluation_id != null && <button type="button" className="small" onClick={() => onPick(row.evaluation_id!)}>Select</button>}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
