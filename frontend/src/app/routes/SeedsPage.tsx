import { useSearchParams } from "react-router";
import { Empty } from "../../components/States";
import { useComparedRuns } from "../../features/results/api/compare";
import { SeedGroupView } from "../../features/results/seeds/SeedGroupView";

/** /seeds?runs=a,b,c — several seeds of one scenario shown as one result (the ids live in the URL). */
export function SeedsPage() {
  const [params] = useSearchParams();
  const ids = (params.get("runs") ?? "").split(",").map((s) => s.trim()).filter(Boolean).filter((id, i, all) => all.indexOf(id) === i);
  const runs = useComparedRuns(ids);
  if (!ids.length) return <Empty>No runs given: open a run of a scenario with several seeds and press "Mean over seeds", or give /seeds?runs=ID1,ID2.</Empty>;
  return (
    <div className="seeds-page">
      <div className="page-bar row"><h1>Mean over {ids.length} seed{ids.length === 1 ? "" : "s"}</h1></div>
      <SeedGroupView runs={runs} />
    </div>
  );
}
