import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { client, unwrap } from "../../../lib/api/client";
import type { components } from "../../../lib/api/schema.gen";
import { throttle } from "../utils/throttle";
import { flattenJobMetrics } from "../../../lib/charts/grid";

export type SweepCreate = components["schemas"]["SweepCreate"];
export type SweepPublic = components["schemas"]["SweepPublic"];
/** The stream's payload: the counts of SweepPublic without the table. */
type SweepProgress = Pick<SweepPublic, "id" | "status" | "total" | "done" | "failed">;
const FINAL = new Set(["SUCCEEDED", "FAILED", "CANCELLED"]);

/** Points per page of GET /sweeps/{id} (the API's largest page). */
export const SWEEP_PAGE = 1000;

/**
 * The sweep with its whole points table: the first page, then each `next_offset` until the last.
 * The counts (status, done, failed) are the last page's, the newest read.
 */
export async function readWholeSweep(readPage: (offset: number) => Promise<SweepPublic>): Promise<SweepPublic> {
  let page = await readPage(0);
  const points = [...page.points];
  // each page moves forward; the bound stops a misbehaving server from looping us forever
  for (let pages = 1; page.next_offset != null && page.next_offset > page.offset && pages < 1000; pages++) {
    page = await readPage(page.next_offset);
    points.push(...page.points);
  }
  // every job's metrics by name, flattened to "jct_us of <job>" keys the heatmap can colour by
  const flat = points.map((p) => ({ ...p, metrics: flattenJobMetrics(p.metrics as Record<string, unknown> | null) }));
  return { ...page, points: flat as SweepPublic["points"], offset: 0, next_offset: null };
}

function fetchSweep(id: string): Promise<SweepPublic> {
  return readWholeSweep((offset) =>
    unwrap(client.GET("/api/v1/sweeps/{id}", { params: { path: { id }, query: { offset, limit: SWEEP_PAGE } } })),
  );
}

/** Fewest milliseconds between two reads of the whole points table while progress streams in. */
const TABLE_REFRESH_MS = 3000;

/**
 * A sweep kept current by its SSE stream: each progress event updates the counts at once and the
 * points table at most every TABLE_REFRESH_MS (the table of a large sweep is the API's costliest
 * read, and its points finish several a second); `done` reads it at once. When the stream fails
 * the query polls every 2 s instead.
 */
export function useSweep(id: string | undefined) {
  const qc = useQueryClient();
  const [streamOk, setStreamOk] = useState(typeof EventSource !== "undefined");
  const query = useQuery({
    queryKey: ["sweep", id],
    enabled: !!id,
    queryFn: () => fetchSweep(id!),
    refetchInterval: (q) => (q.state.data && FINAL.has(q.state.data.status) ? false : streamOk ? 15000 : 2000),
  });
  const final = query.data ? FINAL.has(query.data.status) : false;
  useEffect(() => {
    if (!id || final || typeof EventSource === "undefined") return;
    const es = new EventSource(`/api/v1/sweeps/${id}/events`);
    const refreshTable = throttle(() => void qc.invalidateQueries({ queryKey: ["sweep", id] }), TABLE_REFRESH_MS);
    es.addEventListener("progress", (e) => {
      try {
        const counts = JSON.parse((e as MessageEvent).data) as SweepProgress;
        if (FINAL.has(counts.status)) return readNow(); // the table's last state, at once
        qc.setQueryData<SweepPublic>(["sweep", id], (old) => (old ? { ...old, ...counts } : old));
      } catch {
        /* a malformed frame: the table refresh corrects it */
      }
      refreshTable();
    });
    const readNow = () => {
      refreshTable.cancel();
      void qc.invalidateQueries({ queryKey: ["sweep", id] });
    };
    es.addEventListener("done", () => {
      es.close();
      readNow();
    });
    es.onerror = () => {
      es.close();
      setStreamOk(false);
    };
    return () => {
      refreshTable.cancel();
      es.close();
    };
  }, [id, final, qc]);
  return query;
}

export function useSweepOptional(id: string | undefined) {
  return useQuery({
    queryKey: ["sweep", id],
    enabled: !!id,
    queryFn: () => fetchSweep(id!),
  });
}
