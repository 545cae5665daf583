import { useCallback, useMemo, useRef, useState } from "react";
import { rememberWork } from "../../lib/localWork/localWork";
import { Link, useNavigate, useParams, useSearchParams } from "react-router";
import { ChartFrame } from "../../components/ChartFrame";
import { Empty, ErrorBox, Loading } from "../../components/States";
import { capitalise } from "../../lib/format";
import { useScenario } from "../../lib/api/queries";
import { HeatmapExplorer, type ExplorerMark } from "../../features/sweeps/components/HeatmapExplorer";
import { SettingsExport } from "../../features/realfabric/components/SettingsExport";
import { useApplyPick, useCancelTuning, useCreateTuning, useEvaluationScenario, useTuning, useTuningAccess, useTuningResults } from "../../features/tuning/api/tunings";
import { BestSoFarChart } from "../../features/tuning/components/BestSoFarChart";
import { ComparisonTable } from "../../features/tuning/components/ComparisonTable";
import { ScreenedEvaluations } from "../../features/tuning/components/ScreenedEvaluations";
import { ComparePicker } from "../../features/results/compare/ComparePicker";
import { ParetoScatter } from "../../features/tuning/components/ParetoScatter";
import { TuningForm } from "../../features/tuning/components/TuningForm";
import { scenarioJobs } from "../../lib/scenario/jobs";
import { TuningReportButton } from "../../features/tuning/report/TuningReportButton";
import { fmtSetting, pickSettings, plannedEvaluations } from "../../features/tuning/utils/explain";
import { STRATEGY_COLORS, bestSoFar, fmtEstimate, heatmapPoints, thinCurves } from "../../features/tuning/utils/tuning";

export function NewTuningPage() {
  const [params] = useSearchParams();
  const scenarioId = params.get("scenario") ?? "";
  const scenario = useScenario(scenarioId || undefined);
  const create = useCreateTuning();
  const navigate = useNavigate();
  if (!scenarioId) return <Empty>Open a scenario first, then choose “Tune…”.</Empty>;
  return (
    <div className="tuning-page">
      <h1>Tune <Link to={`/s/${scenarioId}`}>{scenario.data?.name ?? scenarioId}</Link></h1>
      <p className="hint">Which ECN/PFC settings should this fabric run? Strategies search the space side by side; every evaluation is a simulation (reused when the same settings were simulated before). How strategies and objectives work: <Link to="/guide/tuning">the tuning guide</Link>.</p>
      <TuningForm scenarioId={scenarioId} jobs={scenarioJobs(scenario.data?.scenario)} busy={create.isPending} error={create.error}
        onSubmit={(body) => create.mutate(body, { onSuccess: (t) => {
          rememberWork("tunings", { id: t.id, scenario_id: t.scenario_ids[0] ?? "", name: t.name || "Tuning" });
          navigate(`/tunings/${t.id}`);
        } })} />
    </div>
  );
}

export function TuningPage() {
  const { id } = useParams();
  const tuning = useTuning(id);
  const running = !!tuning.data && !["SUCCEEDED", "FAILED", "CANCELLED"].includes(tuning.data.status);
  // The light results draw the page; the evaluations' metrics are fetched once a heatmap shows
  // a metric other than the objective (2 MB for a 3,300-point grid, most of the page's cost).
  const [needMetrics, setNeedMetrics] = useState(false);
  const light = useTuningResults(id, running);
  const full = useTuningResults(id, running, true, needMetrics);
  const results = full.data ? full : light;
  const onMetricsShown = useCallback((shown: string[]) => {
    if (shown.some((m) => m !== "objective")) setNeedMetrics(true);
  }, []);
  const apply = useApplyPick(id ?? "");
  const cancel = useCancelTuning(id ?? "");
  const access = useTuningAccess(id);
  const navigate = useNavigate();
  const [selected, setSelected] = useState<number | null>(null);
  const pageRef = useRef<HTMLDivElement>(null);
  const r = results.data;
  const curves = useMemo(() => (r ? thinCurves(bestSoFar(r)) : {}), [r]);
  const points = useMemo(() => (r ? heatmapPoints(r.evaluations, r === full.data) : []), [r, full.data]);
  const byId = useMemo(() => new Map((r?.evaluations ?? []).map((e) => [e.id, e])), [r]);
  const chosen = selected != null ? byId.get(selected) : undefined;
  const chosenSettings = pickSettings((r?.picks ?? []).find((p) => p.evaluation_id === chosen?.id) ?? chosen);
  const chosenScenario = useEvaluationScenario(access.data && !access.data.may_change ? chosen?.run_ids?.[0] : undefined);
  if (tuning.isLoading) return <Loading what="Loading the tuning" />;
  if (tuning.error || !tuning.data) return <ErrorBox error={tuning.error} title="Could not load the tuning" />;
  const t = tuning.data;
  const marks: ExplorerMark[] = (r?.picks ?? []).filter((p) => byId.get(p.evaluation_id)?.point).map((p) => ({
    params: p.params as ExplorerMark["params"], label: p.strategy, color: STRATEGY_COLORS[p.strategy] ?? "#333", id: p.evaluation_id,
  }));
  const path = (r?.paths.annealing ?? []).map((eid) => byId.get(eid)?.params as ExplorerMark["params"]).filter(Boolean);
  const objectiveLabel = r?.objectives[0] ?? "objective";
  return (
    <div className="tuning-page" ref={pageRef}>
      <div className="page-bar row">
        <h1>{capitalise(t.name)} <small className="muted-id">{t.id}</small></h1>
        <span className={`status status-${t.status.toLowerCase()}`} data-testid="tuning-status">{t.status}</span>
        <span className="grow" />
        {running && access.data?.may_change && <button type="button" onClick={() => cancel.mutate()}>Cancel</button>}
        {r && <TuningReportButton root={pageRef} tuning={t} results={r} />}
        <Link className="button" to={`/s/${t.scenario_ids[0]}`}>Base scenario</Link>
      </div>
      {t.error && <ErrorBox error={new Error(t.error)} title="The tuning failed" />}
      <ul className="strategy-progress" aria-label="Progress per strategy">
        {t.strategies.map((s) => (
          <li key={s.strategy} data-strategy={s.strategy}>
            <span className="swatch" style={{ background: STRATEGY_COLORS[s.strategy] }} /> <strong>{s.strategy}</strong>: {s.done} of {Math.max(plannedEvaluations(t, s.strategy), s.evaluations)} evaluations done{s.cost !== s.evaluations ? ` (cost ${s.cost})` : ""}, best {fmtEstimate(s.best)}
          </li>
        ))}
      </ul>
      {!r ? <Loading what="Loading the results" /> : (
        <>
          <ChartFrame title={`Best ${objectiveLabel} so far`} filename="best-so-far">
            <BestSoFarChart curves={curves} label={objectiveLabel} />
          </ChartFrame>
          {t.spec.screening && <ScreenedEvaluations results={r} keep={t.spec.screening.keep} />}
          <h2>Comparison of the picks</h2>
          {(r.objective_specs ?? []).map((o) => (
            <p key={o.label} className="objective-explainer" data-testid="objective-formula">
              <strong>{o.label}</strong> ({o.goal === "max" ? "higher is better" : "lower is better"}
              {o.kind !== "metric" && <>, β = {o.beta}{o.kind === "bytetuning_latency" && <>, γ = {o.gamma}</>}</>}): <code>{o.formula}</code>.{" "}
              {o.kind !== "metric" && <>With β = {o.beta}, an empty queue weighs {o.beta === 0.5 ? "as much as" : o.beta > 0.5 ? "less than" : "more than"} full utilisation, so a pick can score higher with less throughput. </>}
              <Link to="/guide/tuning">How the objectives are defined</Link>
            </p>
          ))}
          <ComparisonTable results={r} selected={selected} onPick={setSelected} />
          <ComparePicker title="Compare the picks' runs" runs={(r.picks ?? []).flatMap((p) => (byId.get(p.evaluation_id)?.run_ids ?? []).map((runId, k) => ({
            runId, label: `${p.strategy}'s pick · run ${k + 1}`, scenarioId: undefined,
          })))} initial={(r.picks ?? []).map((p) => byId.get(p.evaluation_id)?.run_ids?.[0]).filter((x): x is string => !!x)} />
          {r.objectives.length > 1 && (
            <ChartFrame title="Pareto front" filename="pareto">
              <ParetoScatter results={r} onPick={setSelected} />
            </ChartFrame>
          )}
          <h2>Heatmap</h2>
          {points.length === 0 ? <Empty>No grid point has finished yet; the heatmap fills in as evaluations complete.</Empty> : (
            <HeatmapExplorer points={points} paths={r.space.parameters.map((p) => p.name)} marks={marks} pathParams={path}
              extraMetrics={{ objective: `Objective: ${objectiveLabel}`, queue_p99_bytes: "Queue p99 (bytes)" }} initialMetric="objective"
              higherIsBetter={{ objective: r.goals[0] === "max" }} initialAggregate="best"
              onMarkClick={(m) => m.id != null && setSelected(m.id)} onMetricsShown={onMetricsShown}
              loadingMetrics={needMetrics && !full.data}
              onOpenRun={(runId) => navigate(`/runs/${runId}`)} />
          )}
          <p className="hint">Dots mark each strategy's pick{path.length > 1 ? "; the dashed line is annealing's path of accepted moves" : ""}. Click a dot or a table row to select a pick.</p>
          {chosen && (
            <section className="chosen-pick" aria-label="Selected pick">
              <h2>Selected: {chosen.strategy}'s pick</h2>
              {/* the same settings, in the same units, as the comparison table (kmin = 104 KB, not 500) */}
              <p data-testid="chosen-settings">{(chosenSettings.length ? chosenSettings : Object.entries(chosen.params)).map(([k, v]) => fmtSetting(k, v)).join(", ")}; objective {fmtEstimate(chosen.objectives?.[0])}</p>
              {access.data?.may_change ? (
                <>
                  <button type="button" className="primary" disabled={apply.isPending}
                    onClick={() => apply.mutate(chosen.id, { onSuccess: (s) => navigate(`/s/${s.id}`) })}>Apply this pick</button>
                  <small> forks the base scenario with these settings</small>
                  <ErrorBox error={apply.error} title="Could not apply the pick" />
                </>
              ) : access.data && (
                <p className="hint" data-testid="not-yours">
                  {access.data.reason}{" "}
                  {chosenScenario.data && <Link className="button primary" to={`/editor?from=${chosenScenario.data}`}>Fork with these settings</Link>}
                </p>
              )}
              <SettingsExport key={chosen.id} title="Export this pick's settings"
                source={{ kind: "pick", tuningId: t.id, evaluationId: chosen.id }} />
            </section>
          )}
        </>
      )}
    </div>
  );
}
