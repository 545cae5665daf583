import { useQueries } from "@tanstack/react-query";
import { client, unwrap } from "../../../lib/api/client";
import type { components } from "../../../lib/api/schema.gen";
import type { FlowRecord, Job, ResultSeries, ResultSummary, RunInfo } from "../../../lib/api/resultTypes";

type RunPublic = components["schemas"]["RunPublic"];

export interface ComparedRun {
  id: string;
  run?: RunPublic;
  scenario?: { name?: string; scenario?: unknown };
  runInfo?: RunInfo;
  summary?: ResultSummary;
  series?: ResultSeries;
  flows?: FlowRecord[];
  /** The run's collective jobs (empty without a collective generator). */
  jobs?: Job[];
  error?: Error;
  loading: boolean;
}

/** Everything the comparison needs of each run, loaded side by side. */
export function useComparedRuns(ids: string[]): ComparedRun[] {
  const results = useQueries({
    queries: ids.map((id) => ({
      queryKey: ["compare", id],
      staleTime: Infinity,
      queryFn: async (): Promise<Omit<ComparedRun, "loading">> => {
        const run = await unwrap(client.GET("/api/v1/runs/{id}", { params: { path: { id } } }));
        if (run.status !== "SUCCEEDED") throw new Error(`run ${id} is ${run.status}, not SUCCEEDED`);
        const [scenario, sum, series, flows, jobs] = await Promise.all([
          unwrap(client.GET("/api/v1/scenarios/{id}", { params: { path: { id: run.scenario_id } } })),
          unwrap(client.GET("/api/v1/runs/{id}/summary", { params: { path: { id } } })),
          unwrap(client.GET("/api/v1/runs/{id}/series", { params: { path: { id } } })),
          unwrap(client.GET("/api/v1/runs/{id}/flows", { params: { path: { id }, query: { limit: 10000, offset: 0 } } })),
          unwrap(client.GET("/api/v1/runs/{id}/jobs", { params: { path: { id } } })),
        ]);
        return {
          id, run, scenario: scenario as ComparedRun["scenario"], runInfo: sum.run_info as RunInfo,
          summary: sum.summary as unknown as ResultSummary, series: series as unknown as ResultSeries, flows: flows.data as unknown as FlowRecord[],
          jobs: jobs as unknown as Job[],
        };
      },
    })),
  });
  return results.map((r, i) => ({ id: ids[i], ...(r.data ?? {}), error: r.error ?? undefined, loading: r.isLoading }));
}
