import { useQuery } from "@tanstack/react-query";
import { client, unwrap } from "../../../lib/api/client";
import type { components } from "../../../lib/api/schema.gen";

export type Lab = components["schemas"]["LabPublic"];
export type LabSummary = components["schemas"]["LabSummary"];

export function useLabs() {
  return useQuery({ queryKey: ["labs"], staleTime: 60_000, queryFn: async () => (await unwrap(client.GET("/api/v1/labs"))).data });
}

export function useLab(slug: string | null) {
  return useQuery({
    queryKey: ["lab", slug],
    enabled: !!slug,
    staleTime: 60_000,
    queryFn: () => unwrap(client.GET("/api/v1/labs/{slug}", { params: { path: { slug: slug! } } })),
  });
}
