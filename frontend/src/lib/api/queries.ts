// Query hooks shared by several features (the scenario document and its expanded fabric).
import { useMutation, useQuery } from "@tanstack/react-query";
import { useMemo } from "react";
import { client, unwrap } from "./client";
import type { components } from "./schema.gen";
import type { Scenario, Topology } from "../scenario/types";
import type { ExpandResult, LayoutGraph } from "../topology/types";
import { tieredLayout } from "../topology/layout";

export type ScenarioPublic = components["schemas"]["ScenarioPublic"];
export type SweepCreate = components["schemas"]["SweepCreate"];

/** Start a sweep (the sweep form, and a preset's "Run the paper's comparison"). */
export function useCreateSweep() {
  return useMutation({
    mutationFn: (body: SweepCreate) => unwrap(client.POST("/api/v1/sweeps", { body })),
  });
}

export function useScenario(id: string | undefined) {
  return useQuery({
    queryKey: ["scenario", id],
    enabled: !!id,
    staleTime: Infinity, // snapshots are immutable
    queryFn: () => unwrap(client.GET("/api/v1/scenarios/{id}", { params: { path: { id: id! } } })),
  });
}

export const scenarioDocument = (s: { scenario: unknown } | undefined) => s?.scenario as unknown as Scenario | undefined;

export function expandTopology(topology: Topology): Promise<ExpandResult> {
  return unwrap(
    client.POST("/api/v1/topologies/expand", { body: { topology } as never }),
  ) as unknown as Promise<ExpandResult>;
}

/**
 * The laid-out fabric of a topology: generators are expanded by the API (one shared
 * implementation), explicit topologies are used as drawn.
 */
export function useFabricGraph(topology: Topology | undefined) {
  const generated = topology && topology.kind !== "explicit" ? topology : undefined;
  const expand = useQuery({
    queryKey: ["expand", generated],
    enabled: !!generated,
    staleTime: Infinity,
    queryFn: () => expandTopology(generated!),
  });
  const graph: LayoutGraph | null = useMemo(() => {
    if (topology?.kind === "explicit") {
      const links = topology.links.map((l, i) => ({ id: i, ...l }));
      // a host's group is the switch it hangs off, as `fabricsim expand` sets it (pods, grouping)
      const peer = new Map<string, string>();
      for (const l of links) { peer.set(l.a, l.b); peer.set(l.b, l.a); }
      const nodes = topology.nodes.map((n) => ({
        ...n, tier: n.tier ?? 0, ...(n.kind === "host" && peer.has(n.id) ? { group: peer.get(n.id) } : {}),
      }));
      return tieredLayout(nodes, links);
    }
    return expand.data ? tieredLayout(expand.data.nodes, expand.data.links) : null;
  }, [topology, expand.data]);
  return { graph, stats: expand.data?.stats, isLoading: expand.isLoading, error: expand.error };
}
