// A scenario's history, read by its id (GET /scenarios/{id}/history): its runs, its parent's and
// its forks' runs, its sweeps and tunings. The run page, the comparison and the scenario page
// offer "compare with what I had" from it, never from the global list endpoints.
import { useQuery } from "@tanstack/react-query";
import { client, unwrap } from "./client";
import type { components } from "./schema.gen";
import { loadMine, type MyRun } from "../localWork/localWork";

export type ScenarioHistory = components["schemas"]["ScenarioHistory"];
type RunPublic = components["schemas"]["RunPublic"];

/** The most remembered runs one history fetches by id. */
const REMEMBERED = 20;

/**
 * The runs this browser started in the family that the history leaves out: of a preset the server
 * lists only the caller's own runs (docs/security.md), and a run the result cache handed out
 * (same scenario and seed as an earlier one) stays its first creator's. The browser was given
 * those ids, so it shows them.
 */
export function rememberedMissing(h: ScenarioHistory, mine: MyRun[]): string[] {
  const listed = new Set([...h.runs, ...h.parent_runs, ...h.fork_runs].map((r) => r.id));
  const family = new Set([h.scenario_id, ...(h.parent ? [h.parent.id] : []), ...h.forks.map((f) => f.id)]);
  return mine.filter((r) => family.has(r.scenario_id) && !listed.has(r.id)).slice(0, REMEMBERED).map((r) => r.id);
}

/** The history with `found` (remembered runs read by id) in their lists, newest first. */
export function withRuns(h: ScenarioHistory, found: RunPublic[]): ScenarioHistory {
  if (!found.length) return h;
  const forks = new Set(h.forks.map((f) => f.id));
  const add = (list: RunPublic[], belongs: (scenarioId: string) => boolean) =>
    [...list, ...found.filter((r) => belongs(r.scenario_id))].sort((a, b) => b.created_at.localeCompare(a.created_at));
  return {
    ...h,
    runs: add(h.runs, (s) => s === h.scenario_id),
    parent_runs: add(h.parent_runs, (s) => s === h.parent?.id),
    fork_runs: add(h.fork_runs, (s) => forks.has(s)),
  };
}

async function readHistory(id: string): Promise<ScenarioHistory> {
  const h = await unwrap(client.GET("/api/v1/scenarios/{id}/history", { params: { path: { id } } }));
  const missing = rememberedMissing(h, loadMine().runs);
  const found = await Promise.all(missing.map((runId) =>
    unwrap(client.GET("/api/v1/runs/{id}", { params: { path: { id: runId } } })).catch(() => null)));
  return withRuns(h, found.filter((r): r is RunPublic => r !== null));
}

export function useScenarioHistory(id: string | undefined, live = false) {
  return useQuery({
    queryKey: ["history", id],
    enabled: !!id,
    queryFn: () => readHistory(id!),
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
