import { useSearchParams } from "react-router";
import { Empty } from "../../components/States";
import { useComparedRuns } from "../../features/results/api/compare";
import { CompareView } from "../../features/results/components/CompareView";
import { familyRuns, useScenarioHistory } from "../../lib/api/history";
import { scenarioDocument, useFabricGraph } from "../../lib/api/queries";

/** /compare?runs=a,b,c — the run ids live in the URL, so a comparison can be bookmarked and shared. */
export function ComparePage() {
  const [params, setParams] = useSearchParams();
  const ids = (params.get("runs") ?? "").split(",").map((s) => s.trim()).filter(Boolean).filter((id, i, all) => all.indexOf(id) === i);
  const runs = useComparedRuns(ids);
  const history = useScenarioHistory(runs[0]?.run?.scenario_id);
  const { graph } = useFabricGraph(scenarioDocument(runs[0]?.scenario as Parameters<typeof scenarioDocument>[0])?.topology);
  const setIds = (next: string[]) => setParams({ runs: next.join(",") });
  if (!ids.length) return <Empty>Nothing to compare: open a run and press Compare, or give /compare?runs=ID1,ID2.</Empty>;
  // runs of A's family: its scenario's other runs, its parent's and its forks'
  const candidates = familyRuns(history.data).filter((r) => !ids.includes(r.id)).map((r) => ({ id: r.id, label: r.label }));
  return (
    <div className="compare-page">
      <div className="page-bar row"><h1>Compare {ids.length} run{ids.length === 1 ? "" : "s"}</h1></div>
      <CompareView runs={runs} candidates={candidates} onAdd={(id) => setIds([...ids, id])} onRemove={(id) => setIds(ids.filter((x) => x !== id))} graph={graph} />
    </div>
  );
}
