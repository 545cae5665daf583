import { useState } from "react";
import { Link } from "react-router";

export interface PickableRun {
  runId: string;
  /** What the row says (seed, the sweep point's parameters, a strategy's name). */
  label: string;
  scenarioId?: string;
  seed?: number;
}

/**
 * Tick runs and open them in /compare (or, for seeds of one scenario, as one result in /seeds):
 * the entry point a scenario's history, a sweep and a tuning share.
 */
export function ComparePicker({ runs: given, title, initial = [], max = 12 }: {
  runs: PickableRun[];
  title: string;
  /** Run ids ticked at first. */
  initial?: string[];
  /** Rows shown (the first ones; the rest behind "show all"). */
  max?: number;
}) {
  const runs = given.filter((r, i) => given.findIndex((x) => x.runId === r.runId) === i); // one row per run
  const [ticked, setTicked] = useState<string[]>(initial.filter((id) => runs.some((r) => r.runId === id)));
  const [all, setAll] = useState(false);
  if (!runs.length) return null;
  const chosen = runs.filter((r) => ticked.includes(r.runId));
  const sameScenario = chosen.length > 1 && new Set(chosen.map((r) => r.scenarioId)).size === 1 && chosen[0].scenarioId != null
    && new Set(chosen.map((r) => r.seed)).size === chosen.length;
  const ids = chosen.map((r) => r.runId).join(",");
  const toggle = (id: string) => setTicked((t) => (t.includes(id) ? t.filter((x) => x !== id) : [...t, id]));
  const shown = all ? runs : runs.slice(0, max);
  return (
    <section className="compare-picker" aria-label={title}>
      <h3>{title}</h3>
      <ul>
        {shown.map((r) => (
          <li key={r.runId}>
            <label>
              <input type="checkbox" checked={ticked.includes(r.runId)} onChange={() => toggle(r.runId)} aria-label={`Compare ${r.label}`} /> {r.label}
            </label>{" "}
            <Link to={`/runs/${r.runId}`} className="muted-id">open</Link>
          </li>
        ))}
      </ul>
      {runs.length > shown.length && <button type="button" className="small linkish" onClick={() => setAll(true)}>show all {runs.length}</button>}
      <div className="row">
        {chosen.length >= 2 ? (
          <Link className="button" to={`/compare?runs=${ids}`} data-testid="compare-selected">Compare {chosen.length} runs</Link>
        ) : <span className="hint">Tick two or more runs to compare them.</span>}
        {sameScenario && <Link className="button" to={`/seeds?runs=${ids}`}>Mean over {chosen.length} seeds</Link>}
      </div>
    </section>
  );
}
