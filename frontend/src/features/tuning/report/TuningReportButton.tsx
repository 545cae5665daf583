import { useState } from "react";
import { client, unwrap } from "../../../lib/api/client";
import type { RunInfo } from "../../../lib/api/resultTypes";
import { downloadBlob } from "../../../lib/charts/save";
import { collectFigures } from "../../../lib/report/collect";
import { tableText } from "../../../lib/report/html";
import type { TuningPublic, TuningResults } from "../api/tunings";
import { fmtEstimate } from "../utils/tuning";
import { type TuningReportPick, type TuningReportRun, type TuningReportScenario, buildTuningReportHtml } from "./tuningReport";

const GOAL: Record<string, string> = { min: "minimise", max: "maximise" };

/** What the report needs beyond the page: the scenarios' documents and each pick run's provenance. */
async function loadProvenance(scenarioIds: string[], runIds: string[]) {
  const [scenarios, runs] = await Promise.all([
    Promise.all(scenarioIds.map(async (id): Promise<TuningReportScenario> => {
      const s = await unwrap(client.GET("/api/v1/scenarios/{id}", { params: { path: { id } } }));
      return { id, name: s.name, contentHash: s.content_hash, document: s.scenario };
    })),
    Promise.all(runIds.map(async (id): Promise<TuningReportRun> => {
      const info = (await unwrap(client.GET("/api/v1/runs/{id}/summary", { params: { path: { id } } }))).run_info as RunInfo;
      return { id, seed: info.seed ?? "?", simulator: `${info.simulator ?? "fabricsim"} ${info.version ?? "?"}`, scenarioSha256: String(info.scenario_sha256 ?? "") };
    })),
  ]);
  return { scenarios, runs: new Map(runs.map((r) => [r.id, r])) };
}

/**
 * "Download report (HTML)" on the tuning page: the page's comparison table and figures (read from
 * `root`, so the report shows what the page shows) with the tuning's set-up and provenance.
 */
export function TuningReportButton({ root, tuning, results }: {
  root: React.RefObject<HTMLElement | null>;
  tuning: TuningPublic;
  results: TuningResults;
}) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const download = async () => {
    const el = root.current;
    if (!el) return;
    setBusy(true);
    setError(null);
    try {
      const byId = new Map(results.evaluations.map((e) => [e.id, e]));
      const pickRuns = results.picks.map((p) => byId.get(p.evaluation_id)?.run_ids ?? []);
      const prov = await loadProvenance(tuning.scenario_ids, [...new Set(pickRuns.flat())]);
      const subtitle = `tuning ${tuning.id} · ${tuning.name}`;
      const { charts, images } = await collectFigures(el, subtitle);
      const picks: TuningReportPick[] = results.picks.map((p, i) => ({
        strategy: p.strategy,
        settings: Object.entries(Object.keys(p.overrides ?? {}).length ? p.overrides : p.params).map(([k, v]) => `${k} = ${v}`).join(", "),
        objective: p.objectives.map((o) => fmtEstimate(o)).join(" · "),
        runs: pickRuns[i].map((id) => prov.runs.get(id)!).filter(Boolean),
      }));
      const spec = tuning.spec;
      const html = buildTuningReportHtml({
        title: `Tuning: ${tuning.name}`,
        tuningId: tuning.id, status: tuning.status, createdAt: tuning.created_at, finishedAt: tuning.finished_at,
        scenarios: prov.scenarios,
        space: {
          parameters: results.space.parameters.map((p) => ({ name: p.name, path: p.path, unit: p.unit, values: p.values as (number | string)[] })),
          linked: results.space.linked.map((l) => `${l.path} = ${l.scale} × ${l.source} + ${l.offset}${l.unit ? ` ${l.unit}` : ""}`),
          size: results.space.size,
        },
        objectives: results.objectives.map((o, i) => `${GOAL[results.goals[i]] ?? results.goals[i]} ${o}`),
        constraints: (spec.constraints ?? []).map((c) => `${c.metric} ${c.op} ${c.value}`),
        aggregate: spec.aggregate ?? "mean", seeds: spec.seeds ?? [1],
        strategies: [["strategy", "evaluations done", "cost (full-duration equivalents)", "best objective"],
          ...tuning.strategies.map((s) => [s.strategy, `${s.done} of ${s.evaluations}`, String(s.cost), fmtEstimate(s.best)])],
        comparison: tableText(el.querySelector<HTMLTableElement>("table.comparison-table")),
        picks, charts, images, generatedAt: new Date().toISOString(),
      });
      downloadBlob(new Blob([html], { type: "text/html" }), `tuning-${tuning.id}-report.html`);
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      <button type="button" disabled={busy} onClick={() => void download()}>{busy ? "Preparing the report…" : "Download report (HTML)"}</button>
      {error && <span role="alert" className="error-text">Could not make the report: {error}</span>}
    </>
  );
}
