import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { client, unwrap } from "../../../lib/api/client";
import type { components } from "../../../lib/api/schema.gen";

export type MeasurementPublic = components["schemas"]["MeasurementPublic"];
export type MeasurementKind = components["schemas"]["MeasurementCreate"]["kind"];
export type Comparison = components["schemas"]["Comparison"];
export type ComparedPoint = components["schemas"]["ComparedPoint"];
export type SettingsImport = components["schemas"]["SettingsImport"];
export type SettingsImported = components["schemas"]["SettingsImported"];
export type ReportEntry = components["schemas"]["ReportEntry"];
export type SettingsExport = components["schemas"]["SettingsExport"];
export type ExportFormat = SettingsExport["format"];

const FINAL = new Set(["SUCCEEDED", "FAILED", "CANCELLED"]);

export function useImportMeasurement() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: components["schemas"]["MeasurementCreate"]) =>
      unwrap(client.POST("/api/v1/measurements", { body })),
    onSuccess: (m) => void qc.invalidateQueries({ queryKey: ["measurements", m.scenario_id] }),
  });
}

export function useMeasurements(scenarioId: string | undefined) {
  return useQuery({
    queryKey: ["measurements", scenarioId],
    enabled: !!scenarioId,
    queryFn: () => unwrap(client.GET("/api/v1/measurements", { params: { query: { scenario_id: scenarioId } } })),
  });
}

export function useMeasurement(id: string | undefined) {
  return useQuery({
    queryKey: ["measurement", id],
    enabled: !!id,
    queryFn: () => unwrap(client.GET("/api/v1/measurements/{id}", { params: { path: { id: id! } } })),
  });
}

export function useSimulateMeasurement(id: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: components["schemas"]["SimulateRequest"]) =>
      unwrap(client.POST("/api/v1/measurements/{id}/simulate", { params: { path: { id } }, body })),
    onSuccess: () => {
      void qc.invalidateQueries({ queryKey: ["measurement", id] });
      void qc.invalidateQueries({ queryKey: ["comparison", id] });
    },
  });
}

/** Measured against simulated, read again every 2 s while the simulation runs. */
export function useComparison(id: string | undefined) {
  return useQuery({
    queryKey: ["comparison", id],
    enabled: !!id,
    queryFn: () => unwrap(client.GET("/api/v1/measurements/{id}/comparison", { params: { path: { id: id! } } })),
    refetchInterval: (q) => {
      const status = q.state.data?.status;
      return status && !FINAL.has(status) ? 2000 : false;
    },
  });
}

export function useImportSettings() {
  return useMutation({
    mutationFn: ({ scenarioId, body }: { scenarioId: string; body: SettingsImport }) =>
      unwrap(client.POST("/api/v1/scenarios/{id}/settings/import", { params: { path: { id: scenarioId } }, body })),
  });
}

/** Where exported settings come from: a saved scenario (and a run of it), or a tuning's pick. */
export type ExportSource =
  | { kind: "scenario"; scenarioId: () => Promise<string>; runId?: string }
  | { kind: "pick"; tuningId: string; evaluationId: number };

export async function exportSettings(source: ExportSource, format: ExportFormat): Promise<SettingsExport> {
  if (source.kind === "pick") {
    return unwrap(client.GET("/api/v1/tunings/{id}/evaluations/{evaluation_id}/settings/export", {
      params: { path: { id: source.tuningId, evaluation_id: source.evaluationId }, query: { format } },
    }));
  }
  const id = await source.scenarioId();
  return unwrap(client.GET("/api/v1/scenarios/{id}/settings/export", {
    params: { path: { id }, query: { format, run_id: source.runId } },
  }));
}
