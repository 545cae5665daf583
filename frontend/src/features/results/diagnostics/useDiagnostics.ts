import { useQuery } from "@tanstack/react-query";
import { client, unwrap } from "../../../lib/api/client";
import type { Diagnostics } from "./types";

/** GET /runs/{id}/diagnostics: faults, Pingmesh and port counters of a finished run. */
export function useRunDiagnostics(id: string | undefined, enabled = true) {
  return useQuery({
    queryKey: ["run", id, "diagnostics"],
    enabled: !!id && enabled,
    staleTime: Infinity,
    queryFn: async () =>
      (await unwrap(client.GET("/api/v1/runs/{id}/diagnostics", { params: { path: { id: id! } } }))) as unknown as Diagnostics,
  });
}
