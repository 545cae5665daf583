import { useQuery } from "@tanstack/react-query";
import { client, unwrap } from "../../../lib/api/client";
import type { FlowRecord, ResultSeries, ResultSummary } from "../../../lib/api/resultTypes";

export function useRunSummary(id: string | undefined, enabled = true) {
  return useQuery({
    queryKey: ["run", id, "summary"],
    enabled: !!id && enabled,
    staleTime: Infinity,
    queryFn: async () => {
      const r = await unwrap(client.GET("/api/v1/runs/{id}/summary", { params: { path: { id: id! } } }));
      return { runInfo: r.run_info, summary: r.summary as unknown as ResultSummary };
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

/** Flow records for the CDF (first 10,000). */
export function useRunFlows(id: string | undefined, enabled = true) {
  return useQuery({
    queryKey: ["run", id, "flows"],
    enabled: !!id && enabled,
    staleTime: Infinity,
    queryFn: async () => {
      const r = await unwrap(client.GET("/api/v1/runs/{id}/flows", { params: { path: { id: id! }, query: { limit: 10000, offset: 0 } } }));
      return { flows: r.data as unknown as FlowRecord[], count: r.count };
    },
  });
}
