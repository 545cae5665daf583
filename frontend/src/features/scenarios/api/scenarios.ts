import { useMutation, useQuery } from "@tanstack/react-query";
import { client, unwrap } from "../../../lib/api/client";
import type { Scenario } from "../../../lib/scenario/types";
import { rememberScenario } from "../../../lib/localWork/localWork";
import type { components } from "../../../lib/api/schema.gen";

type ScenarioBody = components["schemas"]["ScenarioCreate"]["scenario"];
const asBody = (doc: Scenario) => doc as unknown as ScenarioBody;

export type Preset = components["schemas"]["PresetPublic"];

export function usePresets() {
  return useQuery({
    queryKey: ["presets"],
    queryFn: async (): Promise<Preset[]> => (await unwrap(client.GET("/api/v1/presets"))).data,
  });
}

/** Saves a snapshot: a fork when it was edited from a saved one, else a new scenario. */
export function useSaveScenario() {
  return useMutation({
    // what this browser saves goes to "my scenarios" with its owner token
    onSuccess: (created) => rememberScenario({
      id: created.id, name: created.name, owner_token: created.owner_token, parent_id: created.parent_id ?? null,
      created_at: created.created_at,
    }),
    mutationFn: ({ doc, parentId }: { doc: Scenario; parentId: string | null }) =>
      parentId
        ? unwrap(client.POST("/api/v1/scenarios/{id}/fork", { params: { path: { id: parentId } }, body: { scenario: asBody(doc) } }))
        : unwrap(client.POST("/api/v1/scenarios", { body: { scenario: asBody(doc), parent_id: null } })),
  });
}

export function useValidateScenario() {
  return useMutation({
    mutationFn: (doc: Scenario) => unwrap(client.POST("/api/v1/scenarios/validate", { body: { scenario: asBody(doc) } })),
  });
}

export type CheckResult = components["schemas"]["CheckResult"];
export type CheckFinding = components["schemas"]["Finding"];

/** POST /scenarios/check for a (debounced) document: findings of the configuration check. */
export function useConfigCheck(docJson: string | null) {
  return useQuery({
    queryKey: ["config-check", docJson],
    enabled: docJson !== null,
    retry: false,
    staleTime: Infinity,
    // keep the last findings on screen while the next check runs
    placeholderData: (prev: CheckResult | undefined) => prev,
    queryFn: () =>
      unwrap(client.POST("/api/v1/scenarios/check", { body: { scenario: JSON.parse(docJson!) as ScenarioBody } })),
  });
}

export type EstimateResult = components["schemas"]["EstimateResult"];

/**
 * POST /estimate for a (debounced) document: the flow-level engine's headline figures, within a
 * second for fabrics up to ESTIMATE_MAX_HOSTS hosts (docs/api.md).
 */
export function useEstimate(docJson: string | null) {
  return useQuery({
    queryKey: ["estimate", docJson],
    enabled: docJson !== null,
    retry: false,
    staleTime: Infinity,
    // keep the last estimate on screen while the next one runs
    placeholderData: (prev: EstimateResult | undefined) => prev,
    queryFn: () =>
      unwrap(client.POST("/api/v1/estimate", { body: { scenario: JSON.parse(docJson!) as ScenarioBody } })),
  });
}
