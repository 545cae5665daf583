// A scenario's history, read by its id (GET /scenarios/{id}/history): its runs, its parent's and
// its forks' runs, its sweeps and tunings. The run page, the comparison and the scenario page
// offer "compare with what I had" from it, never from the global list endpoints.
import { useQuery } from "@tanstack/react-query";
import { client, unwrap } from "./client";
import type { components } from "./schema.gen";

export type ScenarioHistory = components["schemas"]["ScenarioHistory"];
type RunPublic = components["schemas"]["RunPublic"];

export function useScenarioHistory(id: string | undefined, live = false) {
  return useQuery({
    queryKey: ["history", id],
    enabled: !!id,
    queryFn: () => unwrap(client.GET("/api/v1/scenarios/{id}/history", { params: { path: { id: id! } } })),
    // while a run of the page is going, its row in the history changes
    refetchInterval: live ? 3000 : false,
  });
}

export interface FamilyRun {
  id: string;
  scenarioId: string;
  seed: number;
  /** "this", "parent" or "fork" (relative to the scenario whose history it is). */
  relation: "this" | "parent" | "fork";
  /** What a picker says: whose run, its seed and when. */
  label: string;
  created_at: string;
}

/** The finished runs of a scenario's family, newest first within each: its own, its parent's, its forks'. */
export function familyRuns(h: ScenarioHistory | undefined): FamilyRun[] {
  if (!h) return [];
  const forkName = new Map(h.forks.map((f) => [f.id, f.name]));
  const ok = (list: RunPublic[]) => list.filter((r) => r.status === "SUCCEEDED");
  const when = (r: RunPublic) => new Date(r.created_at).toLocaleString();
  const make = (r: RunPublic, relation: FamilyRun["relation"], who: string): FamilyRun => ({
    id: r.id, scenarioId: r.scenario_id, seed: r.seed, relation, created_at: r.created_at,
    label: `${who} · seed ${r.seed} · ${when(r)}`,
  });
  return [
    ...ok(h.runs).map((r) => make(r, "this", "this scenario")),
    ...ok(h.parent_runs).map((r) => make(r, "parent", `parent${h.parent?.name ? ` (${h.parent.name})` : ""}`)),
    ...ok(h.fork_runs).map((r) => make(r, "fork", `fork${forkName.get(r.scenario_id) ? ` (${forkName.get(r.scenario_id)})` : ""}`)),
  ];
}

/** The parent's latest finished run: what a fork's run is compared with first. */
export function parentLatest(h: ScenarioHistory | undefined): FamilyRun | undefined {
  return familyRuns(h).find((r) => r.relation === "parent");
}
