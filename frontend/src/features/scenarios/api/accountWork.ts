import { useQuery } from "@tanstack/react-query";
import { client, unwrap } from "../../../lib/api/client";
import { useAccount } from "../../../lib/account/account";
import type { MyRun, MyScenario } from "../../../lib/localWork/localWork";

/**
 * A signed-in account's own scenarios and runs as the server lists them (the lists show only the
 * caller's work: docs/security.md), so "mine" on Home shows the account's work from every browser
 * it signed in with, not only this browser's local list. Empty when nobody is signed in.
 */
export function useAccountWork(limit = 20): { signedIn: boolean; scenarios: MyScenario[]; runs: MyRun[] } {
  const account = useAccount();
  const signedIn = account.data?.state === "in";
  const scenarios = useQuery({
    queryKey: ["account-work", "scenarios", limit],
    enabled: signedIn,
    queryFn: async () => (await unwrap(client.GET("/api/v1/scenarios", { params: { query: { limit } } }))).data,
  });
  const runs = useQuery({
    queryKey: ["account-work", "runs", limit],
    enabled: signedIn,
    queryFn: async () => (await unwrap(client.GET("/api/v1/runs", { params: { query: { limit } } }))).data,
  });
  if (!signedIn) return { signedIn, scenarios: [], runs: [] };
  return {
    signedIn,
    scenarios: (scenarios.data ?? []).map((s) => ({ id: s.id, name: s.name, parent_id: s.parent_id ?? null, created_at: s.created_at })),
    runs: (runs.data ?? []).map((r) => ({ id: r.id, scenario_id: r.scenario_id, created_at: r.created_at })),
  };
}

/** This browser's entries and the account's, one per id, newest first. */
export function mergeMine<T extends { id: string; created_at: string }>(local: T[], account: T[]): T[] {
  const seen = new Set(local.map((x) => x.id));
  return [...local, ...account.filter((x) => !seen.has(x.id))].sort((a, b) => b.created_at.localeCompare(a.created_at));
}
