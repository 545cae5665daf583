import { useRef, useState, useSyncExternalStore } from "react";
import { Link } from "react-router";
import { Empty } from "../../../components/States";
import { exportMine, importMine, loadMine, recentWork, subscribeMine } from "../../../lib/localWork/localWork";
import { mergeMine, useAccountWork } from "../api/accountWork";

/**
 * "My scenarios": what this browser saved and ran (local storage, with owner tokens), and, when
 * signed in, the account's (from any browser); never other people's work. Export/import moves the
 * browser's list to another browser.
 */
export function RecentScenarios() {
  const json = useSyncExternalStore(subscribeMine, () => JSON.stringify(loadMine()), () => "{}");
  const local = JSON.parse(json) as ReturnType<typeof loadMine>;
  const account = useAccountWork();
  const mine = { ...local, scenarios: mergeMine(local.scenarios ?? [], account.scenarios), runs: mergeMine(local.runs ?? [], account.runs) };
  const [note, setNote] = useState<string | null>(null);
  const file = useRef<HTMLInputElement>(null);
  const runsOf = (id: string) => mine.runs.filter((r) => r.scenario_id === id);
  const download = () => {
    const url = URL.createObjectURL(new Blob([exportMine()], { type: "application/json" }));
    const a = document.createElement("a");
    a.href = url;
    a.download = "fabrictwin-my-scenarios.json";
    a.click();
    URL.revokeObjectURL(url);
  };
  return (
    <div className="my-scenarios">
      <div className="row">
        <p className="hint">{account.signedIn ? "Your account's and this browser's" : "Kept in this browser only"}; other people's scenarios never show here.</p>
        <span className="grow" />
        <button type="button" className="small" onClick={download} disabled={!local.scenarios?.length && !local.runs?.length && !local.sweeps?.length && !local.tunings?.length}>Export list</button>
        <button type="button" className="small" onClick={() => file.current?.click()}>Import list…</button>
        <input ref={file} type="file" accept="application/json,.json" hidden aria-label="Import my scenarios"
          onChange={async (e) => {
            const f = e.target.files?.[0];
            e.target.value = "";
            if (!f) return;
            try {
              const n = importMine(await f.text());
              setNote(`Imported ${n.scenarios} scenarios and ${n.runs} runs (with their sweeps and tunings).`);
            } catch (err) {
              setNote(`Not imported: ${(err as Error).message}.`);
            }
          }} />
      </div>
      {note && <p className="hint" role="status">{note}</p>}
      {!mine.scenarios?.length ? <Empty>No saved scenarios {account.signedIn ? "of yours" : "in this browser"} yet. Start from a preset or a new fabric.</Empty> : (
        <ul className="recent" data-testid="my-scenarios">
          {mine.scenarios.slice(0, 20).map((s) => (
            <li key={s.id}>
              <Link to={`/s/${s.id}`}>{s.name || s.id}</Link>{" "}
              <small>{s.parent_id ? "edited copy · " : ""}saved {new Date(s.created_at).toLocaleString()}</small>
              {runsOf(s.id).slice(0, 3).map((r) => <small key={r.id}> · <Link to={`/runs/${r.id}`}>run</Link></small>)}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

const PATH = { run: "runs", sweep: "sweeps", tuning: "tunings" } as const;

/** Home's "My recent work": the runs, sweeps and tunings this browser started (and, signed in,
 * the account's runs from any browser), newest first. */
export function RecentWork() {
  const json = useSyncExternalStore(subscribeMine, () => JSON.stringify(loadMine()), () => "{}");
  const mine = JSON.parse(json) as ReturnType<typeof loadMine>;
  const account = useAccountWork();
  const names = new Map([...account.scenarios, ...(mine.scenarios ?? [])].map((s) => [s.id, s.name]));
  const items = recentWork({ ...mine, runs: mergeMine(mine.runs ?? [], account.runs) }, 12);
  if (!items.length) return <Empty>No run, sweep or tuning started {account.signedIn ? "by you" : "in this browser"} yet.</Empty>;
  return (
    <ul className="recent" data-testid="my-recent-work">
      {items.map((w) => (
        <li key={`${w.kind}-${w.id}`}>
          <span className="badge">{w.kind}</span>{" "}
          <Link to={`/${PATH[w.kind]}/${w.id}`}>{w.name || names.get(w.scenario_id) || `${w.kind} ${w.id.slice(0, 8)}`}</Link>{" "}
          <small>started {new Date(w.created_at).toLocaleString()}</small>
        </li>
      ))}
    </ul>
  );
}
