import { useEffect, useMemo, useRef, useState, useSyncExternalStore } from "react";
import { useLocation } from "react-router";
import { useQueries, useQuery } from "@tanstack/react-query";
import { client, unwrap } from "../lib/api/client";
import { scenarioDocument, useScenario } from "../lib/api/queries";
import {
  type LabSignal, type PredictionSpec, activeLab, labProgress, labSignal, onLabSignal, predictionResults, recentSignals, runMetrics, setActiveLab, stepDone,
  subscribeLabs, updateProgress,
} from "../features/labs/model/progress";
import type { Scenario } from "../lib/scenario/types";
import { useLab } from "../features/labs/api/labs";
import { LabView } from "../features/labs/components/LabView";
import { usePresets } from "../features/scenarios/api/scenarios";
import { ErrorBox, Loading } from "../components/States";

const FINAL = new Set(["SUCCEEDED", "FAILED", "CANCELLED"]);

/** The active lab beside every page (editor canvas, run results); it ticks steps from page signals. */
export function LabDock() {
  const slug = useSyncExternalStore(subscribeLabs, activeLab, () => null);
  if (!slug) return null;
  return <ActiveLab slug={slug} />;
}

function ActiveLab({ slug }: { slug: string }) {
  const lab = useLab(slug);
  const progressJson = useSyncExternalStore(subscribeLabs, () => JSON.stringify(labProgress(slug)), () => "{}");
  const progress = useMemo(() => JSON.parse(progressJson), [progressJson]);
  const presets = usePresets();
  const preset = presets.data?.find((p) => p.key === lab.data?.preset);
  const presetDoc = scenarioDocument(useScenario(preset?.scenario_id).data);
  // every preset a run check names "as it is" (lab 9 runs ai-moe-alltoall too): its document by key
  const named = useMemo(() => [...new Set([
    ...(lab.data?.steps ?? []).map((st) => st.check),
    ...(lab.data?.predictions ?? []).map((p) => p.run),
  ].filter((c) => c?.kind === "run_finished" && c.preset).map((c) => c!.preset as string))], [lab.data]);
  const namedDocs = useQueries({
    queries: named.map((key) => {
      const id = presets.data?.find((p) => p.key === key)?.scenario_id;
      return { queryKey: ["scenario", id], enabled: !!id, staleTime: Infinity, queryFn: () => unwrap(client.GET("/api/v1/scenarios/{id}", { params: { path: { id: id! } } })) };
    }),
  });
  // keyed by what has loaded: useQueries gives a new array on every render
  const loadedKey = namedDocs.map((q) => q.dataUpdatedAt).join(",");
  const presetDocs = useMemo(() => Object.fromEntries(named.flatMap((key, i) => {
    const d = scenarioDocument(namedDocs[i]?.data);
    return d ? [[key, d] as const] : [];
    // eslint-disable-next-line react-hooks/exhaustive-deps
  })), [named, loadedKey]);
  const [sheetOpen, setSheetOpen] = useState(false);
  useRunWatcher();

  const labRef = useRef(lab.data);
  labRef.current = lab.data;
  const presetRef = useRef<Scenario | undefined>(presetDoc);
  presetRef.current = presetDoc;
  const presetDocsRef = useRef<Record<string, Scenario>>(presetDocs);
  presetDocsRef.current = presetDocs;
  const handle = useRef<(s: LabSignal) => void>(() => {});
  useEffect(() => onLabSignal((s) => handle.current(s)), []);
  // signals sent before the lab finished loading (the preset opened at once) count too
  useEffect(() => {
    if (lab.data) for (const s of recentSignals()) handle.current(s);
  }, [lab.data, presetDoc, presetDocs]);
  handle.current = (s: LabSignal) => {
    const l = labRef.current;
    if (!l) return;
    const ticks = l.steps.filter((st) => st.check && stepDone(st.check as never, s, presetRef.current, presetDocsRef.current)).map((st) => st.id);
    const results = predictionResults((l.predictions ?? []) as PredictionSpec[], s, presetRef.current, presetDocsRef.current);
    if (ticks.length === 0 && Object.keys(results).length === 0) return;
    updateProgress(slug, (p) => ({
      ...p,
      done: { ...p.done, ...Object.fromEntries(ticks.map((id) => [id, true])) },
      results: { ...p.results, ...results },
    }));
  };

  const done = lab.data ? lab.data.steps.filter((st) => progress.done?.[st.id]).length : 0;
  return (
    <aside className={`lab-dock${sheetOpen ? " open" : ""}`} aria-label="Lab">
      {/* on a phone the lab is a bottom sheet: this bar opens and folds it, so the page keeps the width */}
      <button type="button" className="lab-sheet-toggle" aria-expanded={sheetOpen} onClick={() => setSheetOpen((o) => !o)}>
        <span className="lab-sheet-title">{lab.data?.title ?? "Lab"}</span>
        {lab.data && <small> · {done} of {lab.data.steps.length} steps</small>}
        <span aria-hidden="true">{sheetOpen ? " ▾" : " ▴"}</span>
        <span className="visually-hidden">{sheetOpen ? "Hide the lab" : "Show the lab"}</span>
      </button>
      {lab.isLoading && <Loading what="Loading the lab" />}
      <ErrorBox error={lab.error} title="Could not load the lab" />
      {lab.data && (
        <LabView lab={lab.data} progress={progress}
          presetHref={preset ? `/editor?preset=${encodeURIComponent(preset.key)}&from=${preset.scenario_id}` : null}
          onToggleStep={(id, done) => updateProgress(slug, (p) => ({ ...p, done: { ...p.done, [id]: done } }))}
          onPredict={(id, answer) => updateProgress(slug, (p) => {
            const ticks = lab.data!.steps.filter((s) => s.check?.kind === "prediction_saved" && s.check.prediction === id).map((s) => s.id);
            return { ...p, predictions: { ...p.predictions, [id]: answer }, done: { ...p.done, ...Object.fromEntries(ticks.map((t) => [t, true])) } };
          })}
          onClose={() => setActiveLab(null)} />
      )}
    </aside>
  );
}

/** On a run page, signals "run finished" once the run succeeds, with its scenario and summary. */
function useRunWatcher() {
  const { pathname } = useLocation();
  const runId = /^\/runs\/([A-Za-z0-9_-]+)$/.exec(pathname)?.[1];
  const run = useQuery({
    queryKey: ["lab-run", runId],
    enabled: !!runId,
    queryFn: () => unwrap(client.GET("/api/v1/runs/{id}", { params: { path: { id: runId! } } })),
    refetchInterval: (q) => (q.state.data && FINAL.has(q.state.data.status) ? false : 1000),
  });
  const signalled = useRef<string | null>(null);
  const succeeded = run.data?.status === "SUCCEEDED" ? run.data : null;
  useEffect(() => {
    if (!succeeded || signalled.current === succeeded.id) return;
    signalled.current = succeeded.id;
    void (async () => {
      const scenario = await unwrap(client.GET("/api/v1/scenarios/{id}", { params: { path: { id: succeeded.scenario_id } } }));
      const summary = await unwrap(client.GET("/api/v1/runs/{id}/summary", { params: { path: { id: succeeded.id } } }));
      // a prediction's metric may be a job's (jobs.<name>.busbw_gbps) or the Pingmesh's
      const [jobs, diagnostics] = await Promise.all([
        unwrap(client.GET("/api/v1/runs/{id}/jobs", { params: { path: { id: succeeded.id } } })).catch(() => []),
        unwrap(client.GET("/api/v1/runs/{id}/diagnostics", { params: { path: { id: succeeded.id } } })).catch(() => null),
      ]);
      const metrics = runMetrics(summary.summary as Record<string, unknown>, jobs as unknown as { name: string }[], (diagnostics as { pingmesh?: unknown } | null)?.pingmesh);
      labSignal({ kind: "run_finished", runId: succeeded.id, doc: scenario.scenario as unknown as Scenario, summary: summary.summary as Record<string, unknown>, metrics });
    })().catch(() => { signalled.current = null; });
  }, [succeeded]);
}
