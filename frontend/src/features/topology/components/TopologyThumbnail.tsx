import { TopologyCanvas } from "../../../components/TopologyCanvas";
import { scenarioDocument, useFabricGraph, useScenario } from "../../../lib/api/queries";

/** A small, static drawing of a saved scenario's fabric. */
export function TopologyThumbnail({ scenarioId, height = 110 }: { scenarioId: string; height?: number }) {
  const scenario = useScenario(scenarioId);
  const { graph, error } = useFabricGraph(scenarioDocument(scenario.data)?.topology);
  if (error || scenario.error) return <div className="thumb-empty">no preview</div>;
  if (!graph) return <div className="thumb-empty" aria-busy>…</div>;
  return <TopologyCanvas graph={graph} height={height} interactive={false} ariaLabel={`Fabric of ${scenario.data?.name ?? scenarioId}: ${graph.nodes.length} nodes`} />;
}
