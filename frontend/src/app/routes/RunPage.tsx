import { useEffect, useState } from "react";
import { Link, useNavigate, useParams } from "react-router";
import { ErrorBox, Loading } from "../../components/States";
import { useFabricGraph, useScenario, scenarioDocument } from "../../lib/api/queries";
import { FINAL, useCreateRuns, useLiveRun } from "../../features/runs/api/runs";
import { rememberRun } from "../../lib/localWork/localWork";
import { parentLatest, useScenarioHistory } from "../../lib/api/history";
import { RunProgress } from "../../features/runs/components/RunProgress";
import { ResultsView } from "../../features/results/components/ResultsView";
import { ShareButton } from "../../features/scenarios/components/ShareButton";
import { PresetAbout } from "../../features/scenarios/components/PresetAbout";

export function RunPage() {
  const { id } = useParams();
  const run = useLiveRun(id);
  const scenario = useScenario(run.data?.scenario_id);
  const doc = scenarioDocument(scenario.data);
  const { graph } = useFabricGraph(doc?.topology);
  const history = useScenarioHistory(run.data?.scenario_id, !!run.data && !FINAL.has(run.data.status));
  if (run.isLoading) return <Loading what="Loading the run" />;
  if (run.error) return <ErrorBox error={run.error} title="Could not load the run" />;
  const r = run.data!;
  const others = (history.data?.runs ?? []).filter((x) => x.id !== r.id);
  // a fork's run is compared first with what it was forked from
  const parentRun = r.status === "SUCCEEDED" ? parentLatest(history.data) : undefined;
  const done = others.filter((o) => o.status === "SUCCEEDED");
  // one succeeded run per seed, this run's seed taken by this run: the seeds of one result
  const seedRuns = r.status === "SUCCEEDED" ? [r, ...done.filter((o, i) => o.seed !== r.seed && done.findIndex((x) => x.seed === o.seed) === i)] : [];
  return (
    <div className="run-page">
      <div className="page-bar row">
        <h1>Run of <Link to={`/s/${r.scenario_id}`}>{scenario.data?.name || r.scenario_id}</Link></h1>
        <span className="grow" />
        {/* A run page is read-only and stable: its own URL is the link to share. */}
        <ShareButton save={async () => r.id} linkFor={(runId) => `/runs/${runId}`} />
        {parentRun && (
          <Link className="button primary" data-testid="compare-parent" to={`/compare?runs=${r.id},${parentRun.id}`}
            title={`This run (A) against the latest run of ${history.data?.parent?.name || "the parent"} (B)`}>
            Compare with {history.data?.parent?.name ? `“${history.data.parent.name}”` : "the original"}
          </Link>
        )}
        {/* a parent whose runs this browser cannot see (a preset someone else ran): run it, same seed */}
        {!parentRun && r.status === "SUCCEEDED" && history.data?.parent && (
          <CompareWithParent runId={r.id} seed={r.seed} parentId={history.data.parent.id} parentName={history.data.parent.name} />
        )}
        <Link className="button" to={`/compare?runs=${[r.id, ...(parentRun ? [parentRun.id] : []), ...done.map((o) => o.id)].join(",")}`}>Compare…</Link>
        <Link className="button" to={`/editor?from=${r.scenario_id}`}>Edit scenario</Link>
        <Link className="button" to={`/sweeps/new?scenario=${r.scenario_id}`}>Sweep…</Link>
        <Link className="button" to={`/tunings/new?scenario=${r.scenario_id}`}>Tune…</Link>
      </div>
      <PresetAbout scenario={scenario.data} />
      <RunProgress run={r} />
      {others.length > 0 && (
        <nav className="row hint" aria-label="Other runs of this scenario">
          Other runs of this scenario: {others.map((o) => <Link key={o.id} to={`/runs/${o.id}`}>seed {o.seed} ({o.status.toLowerCase()})</Link>)}
          {done.length > 0 && <Link to={`/compare?runs=${[r.id, ...done.map((o) => o.id)].join(",")}`}>compare all</Link>}
          {seedRuns.length > 1 && <Link to={`/seeds?runs=${seedRuns.map((o) => o.id).join(",")}`}>mean over {seedRuns.length} seeds</Link>}
        </nav>
      )}
      {r.status === "SUCCEEDED" && <ResultsView runId={r.id} graph={graph} scenario={doc} scenarioName={scenario.data?.name} />}
    </div>
  );
}

/**
 * "Compare with <parent>" when no run of the parent is in this browser's view: runs the parent with
 * this run's seed (the result cache answers at once when someone ran it before), waits for it,
 * then opens the comparison.
 */
function CompareWithParent({ runId, seed, parentId, parentName }: { runId: string; seed: number; parentId: string; parentName: string }) {
  const create = useCreateRuns();
  const navigate = useNavigate();
  const [started, setStarted] = useState<string | null>(null);
  const parent = useLiveRun(started ?? undefined);
  const status = parent.data?.status;
  useEffect(() => {
    if (started && status === "SUCCEEDED") navigate(`/compare?runs=${runId},${started}`);
  }, [started, status, runId, navigate]);
  const label = parentName ? `“${parentName}”` : "the original";
  const busy = create.isPending || (!!started && !FINAL.has(status ?? "PENDING"));
  return (
    <>
      <button type="button" className="primary" data-testid="compare-parent" disabled={busy}
        title={`Runs ${parentName || "the parent"} with seed ${seed}, then compares this run (A) with it (B)`}
        onClick={() => void create.mutateAsync({ scenarioId: parentId, seeds: [seed] }).then((res) => {
          rememberRun(res.data[0].id, parentId);
          setStarted(res.data[0].id);
        }).catch(() => {})}>
        {busy ? `Running ${label}… ${Math.round((parent.data?.progress ?? 0) * 100)} %` : `Compare with ${label}`}
      </button>
      {started && status && FINAL.has(status) && status !== "SUCCEEDED" && <span className="hint">The parent's run ended {status.toLowerCase()}.</span>}
      <ErrorBox error={create.error} title="Could not run the parent" />
    </>
  );
}
