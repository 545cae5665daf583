import { Link, useParams } from "react-router";
import { Empty, ErrorBox, Loading } from "../../components/States";
import { TopologyCanvas } from "../../components/TopologyCanvas";
import { scenarioDocument, useFabricGraph, useScenario } from "../../lib/api/queries";
import { useRunsOfScenario } from "../../features/runs/api/runs";
import { ResultsView } from "../../features/results/components/ResultsView";

/** A saved snapshot, read-only, with its latest successful run. */
export function SharePage() {
  const { id } = useParams();
  const scenario = useScenario(id);
  const doc = scenarioDocument(scenario.data);
  const { graph, stats } = useFabricGraph(doc?.topology);
  const runs = useRunsOfScenario(id);
  if (scenario.isLoading) return <Loading what="Loading the shared scenario" />;
  if (scenario.error || !doc) return <ErrorBox error={scenario.error ?? new Error("not found")} title="This link does not open a scenario" />;
  const latest = (runs.data?.data ?? []).find((r) => r.status === "SUCCEEDED");
  return (
    <div className="share-page">
      <div className="page-bar row">
        <h1 data-testid="scenario-name">{doc.name || "Untitled fabric"}</h1>
        <span className="badge">read-only</span>
        <span className="grow" />
        <Link className="button primary" to={`/editor?from=${id}`}>Fork to edit</Link>
      </div>
      {doc.description && <p>{doc.description}</p>}
      <div className="share-grid">
        <section aria-label="Fabric">
          {graph && <TopologyCanvas graph={graph} height={320} ariaLabel={`Fabric: ${graph.nodes.length} nodes`} />}
          {stats && <p className="hint">{stats.hosts} hosts · {stats.switches} switches · {stats.links} links</p>}
        </section>
        <section aria-label="Scenario document">
          <h3>Traffic</h3>
          {(doc.traffic ?? []).length === 0 ? <Empty>No traffic.</Empty> : (
            <ul>{doc.traffic!.map((t, i) => <li key={i}><code>{t.kind}</code> {describe(t)}</li>)}</ul>
          )}
          <details>
            <summary>Scenario JSON</summary>
            <pre className="json">{JSON.stringify(doc, null, 2)}</pre>
          </details>
        </section>
      </div>
      {runs.isLoading && <Loading what="Loading runs" />}
      {latest ? (
        <>
          <p className="hint">Latest run: <Link to={`/runs/${latest.id}`}>seed {latest.seed}</Link></p>
          <ResultsView runId={latest.id} graph={graph} />
        </>
      ) : !runs.isLoading && <Empty>This scenario has no finished run yet.</Empty>}
    </div>
  );
}

function describe(t: Record<string, unknown>) {
  if (t.kind === "incast") return `${(t.senders as string[]).join(", ")} → ${t.receiver}`;
  if (t.kind === "perftest") return `${t.src} → ${t.dst}`;
  if (t.kind === "pairs") return `${(t.pairs as string[][] | undefined)?.length ?? 0} pairs`;
  return "";
}
