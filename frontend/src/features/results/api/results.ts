import { useQuery } from "@tanstack/react-query";
import { client, unwrap } from "../../../lib/api/client";
import type { Caveat, FlowRecord, Job, ResultSeries, ResultSummary, RunInfo } from "../../../lib/api/resultTypes";

export function useRunSummary(id: string | undefined, enabled = true) {
  return useQuery({
    queryKey: ["run", id, "summary"],
    enabled: !!id && enabled,
    staleTime: Infinity,
    queryFn: async () => {
      const r = await unwrap(client.GET("/api/v1/runs/{id}/summary", { params: { path: { id: id! } } }));
      return { runInfo: r.run_info as RunInfo, summary: r.summary as unknown as ResultSummary,
        caveats: (r.caveats ?? []) as unknown as Caveat[], flowError: r.flow_error ?? null };
    },
  });
}

export function useRunSeries(id: string | undefined, enabled = true) {
  return useQuery({
    queryKey: ["run", id, "series"],
    enabled: !!id && enabled,
    staleTime: Infinity,
    queryFn: async () =>
      (await unwrap(client.GET("/api/v1/runs/{id}/series", { params: { path: { id: id! } } }))) as unknown as ResultSeries,
  });
}

const FLOW_PAGE = 10000;

/** Every flow record (pages of 10,000 fetched side by side), for the CDF and the flows table. */
export function useRunFlows(id: string | undefined, enabled = true) {
  return useQuery({
    queryKey: ["run", id, "flows"],
    enabled: !!id && enabled,
    staleTime: Infinity,
    queryFn: async () => {
      const page = (offset: number) =>
        unwrap(client.GET("/api/v1/runs/{id}/flows", { params: { path: { id: id! }, query: { limit: FLOW_PAGE, offset } } }));
      const first = await page(0);
      const offsets: number[] = [];
      for (let o = FLOW_PAGE; o < first.count; o += FLOW_PAGE) offsets.push(o);
      const rest = await Promise.all(offsets.map(page));
      const flows = [first, ...rest].flatMap((r) => r.data as unknown as FlowRecord[]);
      return { flows, count: first.count };
    },
  });
}

/** The run's collective jobs (GET /runs/{id}/jobs): an empty list when it has none. */
export function useRunJobs(id: string | undefined, enabled = true) {
  return useQuery({
    queryKey: ["run", id, "jobs"],
    enabled: !!id && enabled,
    staleTime: Infinity,
    queryFn: async () =>
      (await unwrap(client.GET("/api/v1/runs/{id}/jobs", { params: { path: { id: id! } } }))) as unknown as Job[],
  });
}
