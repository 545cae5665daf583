import { Link } from "react-router";
import type { ScenarioHistory } from "../../../lib/api/history";

const when = (iso: string) => new Date(iso).toLocaleString();
const status = (s: string) => s.toLowerCase();

/** A scenario's history on its page: its runs, sweeps, tunings and forks (read by the scenario's id). */
export function HistoryPanel({ history }: { history: ScenarioHistory }) {
  const { runs, sweeps, tunings, forks, parent } = history;
  const nothing = !runs.length && !sweeps.length && !tunings.length && !forks.length;
  return (
    <section className="history-panel chart-frame" aria-label="History of this scenario" data-testid="scenario-history">
      <header><h3>History of this scenario</h3></header>
      {parent && <p className="hint">Forked from <Link to={`/s/${parent.id}`}>{parent.name || parent.id}</Link>.</p>}
      {nothing && <p className="hint">No run, sweep, tuning or fork yet.</p>}
      <div className="history-grid">
        {runs.length > 0 && (
          <div>
            <h4>Runs ({runs.length})</h4>
            <ul>{runs.map((r) => <li key={r.id}><Link to={`/runs/${r.id}`}>seed {r.seed}</Link> <small>{status(r.status)} · {when(r.created_at)}</small></li>)}</ul>
          </div>
        )}
        {sweeps.length > 0 && (
          <div>
            <h4>Sweeps ({sweeps.length})</h4>
            <ul>{sweeps.map((s) => <li key={s.id}><Link to={`/sweeps/${s.id}`}>{s.total} points</Link> <small>{status(s.status)} · {s.done} done · {when(s.created_at)}</small></li>)}</ul>
          </div>
        )}
        {tunings.length > 0 && (
          <div>
            <h4>Tunings ({tunings.length})</h4>
            <ul>{tunings.map((t) => <li key={t.id}><Link to={`/tunings/${t.id}`}>{t.name || `tuning ${t.id.slice(0, 8)}`}</Link> <small>{status(t.status)} · {t.strategies.map((s) => s.strategy).join(", ")} · {when(t.created_at)}</small></li>)}</ul>
          </div>
        )}
        {forks.length > 0 && (
          <div>
            <h4>Forks ({forks.length})</h4>
            <ul>{forks.map((f) => <li key={f.id}><Link to={`/s/${f.id}`}>{f.name || f.id}</Link> <small>{when(f.created_at)}</small></li>)}</ul>
          </div>
        )}
      </div>
    </section>
  );
}
