import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { client, unwrap } from "../../../lib/api/client";
import type { components } from "../../../lib/api/schema.gen";

export type RunPublic = components["schemas"]["RunPublic"];
export const FINAL = new Set(["SUCCEEDED", "FAILED", "CANCELLED"]);

export function useCreateRuns() {
  return useMutation({
    // threads absent: the API picks them from the fabric's size
    // engine absent: the packet-level model (the API's default)
    mutationFn: ({ scenarioId, seeds, threads, engine }: { scenarioId: string; seeds: number[]; threads?: number; engine?: Engine }) =>
      unwrap(client.POST("/api/v1/runs", {
        body: { scenario_id: scenarioId, seeds, engine: engine ?? "packet", ...(threads ? { threads } : {}) },
      })),
  });
}

/** The engine that answers a run (POST /runs engine). */
export type Engine = "packet" | "flow";

/** What a run request may ask for on this instance (seeds, simulator threads). */
export function useRunLimits() {
  return useQuery({
    queryKey: ["runs", "limits"],
    staleTime: Infinity,
    queryFn: () => unwrap(client.GET("/api/v1/runs/limits")),
  });
}

export function useRunsOfScenario(scenarioId: string | undefined) {
  return useQuery({
    queryKey: ["runs", "of", scenarioId],
    enabled: !!scenarioId,
    queryFn: () => unwrap(client.GET("/api/v1/runs", { params: { query: { scenario_id: scenarioId!, limit: 20, offset: 0 } } })),
  });
}

/**
 * A run kept current by its SSE stream; when the stream fails (proxies, old browsers) the
 * query polls every second instead.
 */
export function useLiveRun(id: string | undefined) {
  const qc = useQueryClient();
  const [streamOk, setStreamOk] = useState(typeof EventSource !== "undefined");
  const query = useQuery({
    queryKey: ["run", id],
    enabled: !!id,
    queryFn: () => unwrap(client.GET("/api/v1/runs/{id}", { params: { path: { id: id! } } })),
    refetchInterval: (q) => (q.state.data && FINAL.has(q.state.data.status) ? false : streamOk ? 5000 : 1000),
  });
  const final = query.data ? FINAL.has(query.data.status) : false;

  useEffect(() => {
    if (!id || final || typeof EventSource === "undefined") return;
    const es = new EventSource(`/api/v1/runs/${id}/events`);
    const update = (e: MessageEvent) => {
      try {
        qc.setQueryData(["run", id], JSON.parse(e.data) as RunPublic);
      } catch {
        /* a malformed frame: the poll corrects it */
      }
    };
    es.addEventListener("progress", update);
    es.addEventListener("done", (e) => {
      update(e as MessageEvent);
      es.close();
      void qc.invalidateQueries({ queryKey: ["run", id] });
    });
    es.onerror = () => {
      es.close();
      setStreamOk(false);
    };
    return () => es.close();
  }, [id, final, qc]);
  return query;
}

/** Whether this browser may cancel the run, and if not why (GET /runs/{id}/access). */
export function useRunAccess(id: string | undefined, enabled = true) {
  return useQuery({
    queryKey: ["run-access", id],
    enabled: !!id && enabled,
    staleTime: Infinity,
    queryFn: () => unwrap(client.GET("/api/v1/runs/{id}/access", { params: { path: { id: id! } } })),
  });
}

export function useCancelRun() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => unwrap(client.POST("/api/v1/runs/{id}/cancel", { params: { path: { id } } })),
    onSuccess: (run) => qc.setQueryData(["run", run.id], run),
  });
}

/** Seconds left, extrapolated from wall time spent so far and simulated progress. */
export function etaSeconds(run: Pick<RunPublic, "progress" | "wall_s">): number | null {
  if (run.progress <= 0 || run.progress >= 1 || run.wall_s <= 0) return null;
  return (run.wall_s * (1 - run.progress)) / run.progress;
}

export interface ProgressSample { wall_s: number; progress: number }

/**
 * Seconds left from the simulator's recent progress rate: simulated progress per wall second
 * over the last `window_s` of samples (a run slows down as its queues fill, and its first
 * second is mostly setup, so the average since the start promises too little). Null until two
 * samples a second apart exist.
 */
export function etaFromSamples(samples: ProgressSample[], window_s = 5): number | null {
  if (samples.length < 2) return null;
  const last = samples[samples.length - 1];
  if (last.progress <= 0 || last.progress >= 1) return null;
  const first = samples.find((s) => s.wall_s >= last.wall_s - window_s) ?? samples[0];
  const dt = last.wall_s - first.wall_s;
  const dp = last.progress - first.progress;
  if (dt < 1 || dp <= 0) return null;
  return ((1 - last.progress) * dt) / dp;
}
