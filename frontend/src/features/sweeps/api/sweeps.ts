import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect } from "react";
import { client, unwrap } from "../../../lib/api/client";
import type { components } from "../../../lib/api/schema.gen";

export type SweepCreate = components["schemas"]["SweepCreate"];
export type SweepPublic = components["schemas"]["SweepPublic"];
const FINAL = new Set(["SUCCEEDED", "FAILED", "CANCELLED"]);

export function useCreateSweep() {
  return useMutation({
    mutationFn: (body: SweepCreate) => unwrap(client.POST("/api/v1/sweeps", { body })),
  });
}

/** A sweep, refreshed on its SSE progress events (and by polling while it runs). */
export function useSweep(id: string | undefined) {
  const qc = useQueryClient();
  const query = useQuery({
    queryKey: ["sweep", id],
    enabled: !!id,
    queryFn: () => unwrap(client.GET("/api/v1/sweeps/{id}", { params: { path: { id: id! } } })),
    refetchInterval: (q) => (q.state.data && FINAL.has(q.state.data.status) ? false : 2000),
  });
  const final = query.data ? FINAL.has(query.data.status) : false;
  useEffect(() => {
    if (!id || final || typeof EventSource === "undefined") return;
    const es = new EventSource(`/api/v1/sweeps/${id}/events`);
    const refresh = () => void qc.invalidateQueries({ queryKey: ["sweep", id] });
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

export function useSweepOptional(id: string | undefined) {
  return useQuery({
    queryKey: ["sweep", id],
    enabled: !!id,
    queryFn: () => unwrap(client.GET("/api/v1/sweeps/{id}", { params: { path: { id: id! } } })),
  });
}
