import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect } from "react";
import { client, unwrap } from "../../../lib/api/client";
import type { components } from "../../../lib/api/schema.gen";

export type TuningCreate = components["schemas"]["TuningCreate"];
export type TuningPublic = components["schemas"]["TuningPublic"];
export type TuningResults = components["schemas"]["TuningResults"];
export type EvaluationPublic = components["schemas"]["EvaluationPublic"];
export type Estimate = components["schemas"]["Estimate"];
const FINAL = new Set(["SUCCEEDED", "FAILED", "CANCELLED"]);

export function useCreateTuning() {
  return useMutation({
    mutationFn: (body: TuningCreate) => unwrap(client.POST("/api/v1/tunings", { body })),
  });
}

/** A tuning, refreshed on its SSE progress events (and by polling while it runs). */
export function useTuning(id: string | undefined) {
  const qc = useQueryClient();
  const query = useQuery({
    queryKey: ["tuning", id],
    enabled: !!id,
    queryFn: () => unwrap(client.GET("/api/v1/tunings/{id}", { params: { path: { id: id! } } })),
    refetchInterval: (q) => (q.state.data && FINAL.has(q.state.data.status) ? false : 3000),
  });
  const final = query.data ? FINAL.has(query.data.status) : false;
  useEffect(() => {
    if (!id || final || typeof EventSource === "undefined") return;
    const es = new EventSource(`/api/v1/tunings/${id}/events`);
    const refresh = () => {
      void qc.invalidateQueries({ queryKey: ["tuning", id] });
      void qc.invalidateQueries({ queryKey: ["tuning-results", id] });
    };
    es.addEventListener("progress", refresh);
    es.addEventListener("done", () => {
      refresh();
      es.close();
    });
    es.onerror = () => es.close();
    return () => es.close();
  }, [id, final, qc]);
  return query;
}

/** The results; without `withMetrics` the evaluations come without their metrics (the picks'
 * excepted): a third of the bytes for a 3,300-point grid, and what the page needs to draw. */
export function useTuningResults(id: string | undefined, running: boolean, withMetrics = false, enabled = true) {
  return useQuery({
    queryKey: ["tuning-results", id, withMetrics],
    enabled: !!id && enabled,
    queryFn: () => unwrap(client.GET("/api/v1/tunings/{id}/results", { params: { path: { id: id! }, query: { metrics: withMetrics } } })),
    refetchInterval: running ? 3000 : false,
  });
}

/** Whether this browser may cancel the tuning and apply its picks, and if not why (GET /tunings/{id}/access). */
export function useTuningAccess(id: string | undefined) {
  return useQuery({
    queryKey: ["tuning-access", id],
    enabled: !!id,
    staleTime: Infinity,
    queryFn: () => unwrap(client.GET("/api/v1/tunings/{id}/access", { params: { path: { id: id! } } })),
  });
}

/** The snapshot an evaluation ran (its first run's scenario): the pick's settings applied to the
 * base, which anyone may open in the editor and save as their own fork. */
export function useEvaluationScenario(runId: string | undefined) {
  return useQuery({
    queryKey: ["run", runId],
    enabled: !!runId,
    queryFn: () => unwrap(client.GET("/api/v1/runs/{id}", { params: { path: { id: runId! } } })),
    select: (r) => r.scenario_id,
  });
}

export function useApplyPick(id: string) {
  return useMutation({
    mutationFn: (evaluationId: number) =>
      unwrap(client.POST("/api/v1/tunings/{id}/apply", { params: { path: { id } }, body: { evaluation_id: evaluationId, scenario_index: 0 } })),
  });
}

export function useCancelTuning(id: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: () => unwrap(client.POST("/api/v1/tunings/{id}/cancel", { params: { path: { id } } })),
    onSuccess: () => void qc.invalidateQueries({ queryKey: ["tuning", id] }),
  });
}
