import { Link, useNavigate, useParams } from "react-router";
import { Empty, ErrorBox, Loading } from "../../components/States";
import { TopologyCanvas } from "../../components/TopologyCanvas";
import { scenarioDocument, useFabricGraph, useScenario } from "../../lib/api/queries";
import { FINAL, useCreateRuns } from "../../features/runs/api/runs";
import { familyRuns, useScenarioHistory } from "../../lib/api/history";
import { HistoryPanel } from "../../features/scenarios/components/HistoryPanel";
import { ResultsView } from "../../features/results/components/ResultsView";
import { ParamTable } from "../../features/scenarios/components/ParamTable";
import { PresetAbout } from "../../features/scenarios/components/PresetAbout";
import { forkName } from "../../lib/scenario/forkName";
import { useSaveScenario } from "../../features/scenarios/api/scenarios";
import { rememberRun } from "../../lib/localWork/localWork";
import { ComparePicker, type PickableRun } from "../../features/results/compare/ComparePicker";

/** A saved snapshot, read-only: fabric, parameters against its parent, latest run, Run and Fork. */
export function SharePage() {
  const { id } = useParams();
  const navigate = useNavigate();
  const scenario = useScenario(id);
  const doc = scenarioDocument(scenario.data);
  const parent = useScenario(scenario.data?.parent_id ?? undefined);
  const parentDoc = scenarioDocument(parent.data);
  const { graph, stats } = useFabricGraph(doc?.topology);
  const runs = useScenarioHistory(id);
  const save = useSaveScenario();
  const create = useCreateRuns();
  if (scenario.isLoading) return <Loading what="Loading the shared scenario" />;
  if (scenario.error || !doc) return <ErrorBox error={scenario.error ?? new Error("not found")} title="This link does not open a scenario" />;
  const all = runs.data?.runs ?? [];
  const latest = all.find((r) => r.status === "SUCCEEDED");
  const running = all.find((r) => !FINAL.has(r.status));
  /** Runs a copy: the shared snapshot stays as its author left it, the copy and its run are yours. */
  const runCopy = async () => {
    const fork = await save.mutateAsync({ doc: { ...doc, name: forkName(doc.name ?? "", doc, doc) }, parentId: id! });
    const res = await create.mutateAsync({ scenarioId: fork.id, seeds: [doc.seed ?? 1] });
    rememberRun(res.data[0].id, fork.id);
    navigate(`/runs/${res.data[0].id}`);
  };
  // the scenario's family: its own runs, its parent's and its forks', to compare what an edit changed
  const history: PickableRun[] = familyRuns(runs.data).map((r) => ({ runId: r.id, scenarioId: r.scenarioId, seed: r.seed, label: r.label }));
  const baseLabel = parentDoc ? `parent (${parentDoc.name || scenario.data?.parent_id})` : "defaults";
  return (
    <div className="share-page">
      <div className="page-bar row">
        <h1 data-testid="scenario-name">{doc.name || "Untitled fabric"}</h1>
        <span className="badge">read-only</span>
        {scenario.data?.preset_key && <span className="badge">preset</span>}
        <span className="grow" />
        {!latest && (
          <button type="button" className="primary" disabled={save.isPending || create.isPending} onClick={() => void runCopy().catch(() => {})}
            title="Runs a copy of this scenario (a fork); the shared one stays unchanged">
            {save.isPending || create.isPending ? "Starting…" : "Run a copy"}
          </button>
        )}
        <Link className={`button${latest ? " primary" : ""}`} to={`/editor?from=${id}`}>Fork to edit</Link>
      </div>
      <ErrorBox error={save.error ?? create.error} title="Could not start" />
      {doc.description && <p>{doc.description}</p>}
      <PresetAbout scenario={scenario.data} />
      <div className="share-grid">
        <section aria-label="Fabric">
          {graph && <TopologyCanvas graph={graph} height={360} ariaLabel={`Fabric: ${graph.nodes.length} nodes`} />}
          {stats && <p className="hint">{stats.hosts} hosts · {stats.switches} switches · {stats.links} links</p>}
          <details>
            <summary>Link preview</summary>
            <p className="hint">What chat tools show when this page's link is pasted (the server sends these Open Graph tags with the page).</p>
            <img className="share-thumbnail" src={`/api/v1/scenarios/${id}/thumbnail.png`} alt={`Preview card of ${doc.name || "this fabric"}`} loading="lazy" />
          </details>
          <h3>Traffic</h3>
          {(doc.traffic ?? []).length === 0 ? <Empty>No traffic.</Empty> : (
            <ul>{doc.traffic!.map((t, i) => <li key={i}><code>{t.kind}</code> {t.name ? `${t.name as string}: ` : ""}{describe(t)}</li>)}</ul>
          )}
        </section>
        <section aria-label="Parameters">
          <h3>Parameters</h3>
          {scenario.data?.parent_id && parent.isLoading ? <Loading what="Loading the parent" /> : (
            <ParamTable doc={doc} base={parentDoc ?? null} baseLabel={baseLabel} />
          )}
          <details>
            <summary>Scenario JSON</summary>
            <pre className="json">{JSON.stringify(doc, null, 2)}</pre>
          </details>
        </section>
      </div>
      {runs.isLoading && <Loading what="Loading runs" />}
      {runs.data && <HistoryPanel history={runs.data} />}
      {latest ? (
        <>
          <p className="hint">Latest run: <Link to={`/runs/${latest.id}`}>seed {latest.seed}</Link></p>
          {history.length > 1 && (
            <ComparePicker title="Runs of this scenario, its parent and its forks" runs={history}
              initial={[latest.id, ...history.filter((h) => h.scenarioId !== id).slice(0, 1).map((h) => h.runId)]} />
          )}
          <ResultsView runId={latest.id} graph={graph} />
        </>
      ) : !runs.isLoading && (
        <Empty>
          {running ? <>A run is in progress: <Link to={`/runs/${running.id}`}>follow it</Link>.</> : "This scenario has no finished run yet."}{" "}
          “Run a copy” runs it as your own fork; “Fork to edit” opens it in the editor.
        </Empty>
      )}
    </div>
  );
}

function describe(t: Record<string, unknown>) {
  const pairs = (t.pairs ?? t.tor_pairs) as string[][] | undefined;
  if (t.kind === "incast") return `${(t.senders as string[]).join(", ")} → ${t.receiver}`;
  if (t.kind === "perftest") return `${t.src} → ${t.dst}`;
  if (t.kind === "pairs") return `${pairs?.length ?? 0} ${t.tor_pairs ? "ToR pairs" : "pairs"}: ${(pairs ?? []).slice(0, 4).map((p) => p.join(" → ")).join(", ")}`;
  if (t.kind === "workload") return `${t.distribution} at load ${t.load ?? 0.3}`;
  return "";
}
