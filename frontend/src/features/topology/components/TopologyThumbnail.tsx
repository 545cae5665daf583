import { useMemo } from "react";
import { TopologyCanvas } from "../../../components/TopologyCanvas";
import { scenarioDocument, useFabricGraph, useScenario } from "../../../lib/api/queries";

/** A small, static drawing of a saved scenario's fabric. */
export function TopologyThumbnail({ scenarioId, height = 110 }: { scenarioId: string; height?: number }) {
  const scenario = useScenario(scenarioId);
  const { graph: full, error } = useFabricGraph(scenarioDocument(scenario.data)?.topology);
  // flatter rows so a small card shows the fabric, not mostly vertical gaps
  const graph = useMemo(
    () => full && (full.shape === "ring" ? full : { ...full, nodes: full.nodes.map((n) => ({ ...n, y: n.y * 0.35 })), height: full.height * 0.35 }),
    [full],
  );
  if (error || scenario.error) return <div className="thumb-empty">no preview</div>;
  if (!graph) return <div className="thumb-empty" aria-busy>…</div>;
  return <TopologyCanvas graph={graph} height={height} interactive={false} labels="never" ariaLabel={`Fabric of ${scenario.data?.name ?? scenarioId}: ${graph.nodes.length} nodes`} />;
}
