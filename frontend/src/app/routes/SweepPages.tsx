import { Link, useNavigate, useParams, useSearchParams } from "react-router";
import { Empty, ErrorBox, Loading } from "../../components/States";
import { useScenario } from "../../lib/api/queries";
import { useSweep, useSweepOptional } from "../../features/sweeps/api/sweeps";
import { useCreateSweep } from "../../lib/api/queries";
import { SweepForm } from "../../features/sweeps/components/SweepForm";
import { HeatmapExplorer } from "../../features/sweeps/components/HeatmapExplorer";
import { JobSweep } from "../../features/sweeps/components/JobSweep";
import { ScreenedTable } from "../../features/sweeps/components/ScreenedTable";
import { jobKey, pointLabel, sweepJobPair, sweepJobs } from "../../features/sweeps/utils/jobSweep";
import { ComparePicker } from "../../features/results/compare/ComparePicker";
import type { SweepPoint } from "../../lib/charts/grid";
import { rememberWork } from "../../lib/localWork/localWork";
import { useScenarioHistory } from "../../lib/api/history";

export function NewSweepPage() {
  const [params] = useSearchParams();
  const scenarioId = params.get("scenario") ?? "";
  const scenario = useScenario(scenarioId || undefined);
  const create = useCreateSweep();
  const navigate = useNavigate();
  if (!scenarioId) return <Empty>Open a scenario first, then choose “Sweep…”.</Empty>;
  return (
    <div className="sweep-page">
      <h1>Sweep over <Link to={`/s/${scenarioId}`}>{scenario.data?.name ?? scenarioId}</Link></h1>
      <SweepForm scenarioId={scenarioId} busy={create.isPending} error={create.error}
        onSubmit={(body) => create.mutate(body, { onSuccess: (s) => {
          rememberWork("sweeps", { id: s.id, scenario_id: scenarioId, name: `Sweep of ${scenario.data?.name || scenarioId} (${s.total} points)` });
          navigate(`/sweeps/${s.id}`);
        } })} />
    </div>
  );
}

export function SweepPage() {
  const { id } = useParams();
  const sweep = useSweep(id);
  const navigate = useNavigate();
  // the compared sweep lives in the URL (?compare=ID), so a shared link shows the comparison
  const [search, setSearch] = useSearchParams();
  const compareId = search.get("compare") ?? "";
  const setCompareId = (v: string) => setSearch(v ? { compare: v } : {}, { replace: true });
  const compare = useSweepOptional(compareId || undefined);
  const base = useScenario(sweep.data?.scenario_id);
  // the base scenario's other sweeps, read by its id (its history)
  const history = useScenarioHistory(sweep.data?.scenario_id);
  const siblings = { data: history.data ? { data: history.data.sweeps } : undefined };
  if (sweep.isLoading) return <Loading what="Loading the sweep" />;
  if (sweep.error || !sweep.data) return <ErrorBox error={sweep.error} title="Could not load the sweep" />;
  const s = sweep.data;
  // `done` counts every point in a final state, failed and cancelled ones included
  const pct = s.total ? Math.round((s.done / s.total) * 100) : 0;
  const done = s.points.filter((p) => p.metrics && p.status === "SUCCEEDED");
  const points = s.points as unknown as SweepPoint[];
  const dims = s.parameters.map((p) => p.path);
  const jobs = sweepJobs(points, sweepJobPair(points));
  return (
    <div className="sweep-page">
      <div className="page-bar row">
        <h1>Sweep of {base.data?.name ?? s.scenario_id} <small className="muted-id">{s.id}</small></h1>
        <span className={`status status-${s.status.toLowerCase()}`} data-testid="sweep-status">{s.status}</span>
        <span className="grow" />
        <Link className="button" to={`/s/${s.scenario_id}`}>Base scenario</Link>
      </div>
      <div className="progress" role="progressbar" aria-valuemin={0} aria-valuemax={100} aria-valuenow={pct} aria-label="Sweep progress">
        <div className="progress-fill" style={{ width: `${pct}%` }} />
        <span className="progress-label">{s.done} of {s.total} {s.screening ? "runs (points at flow level, then the best at packet level)" : "points"} finished{s.failed > 0 ? `, ${s.failed} failed or cancelled` : ""}</span>
      </div>
      <div className="row">
        <label>Compare with <select aria-label="Compare with sweep" value={compareId} onChange={(e) => setCompareId(e.target.value)}>
          <option value="">(no comparison)</option>
          {(siblings.data?.data ?? []).filter((o) => o.id !== s.id).map((o) => (
            <option key={o.id} value={o.id}>{o.id}: {new Date(o.created_at).toLocaleString()} ({o.status.toLowerCase()}, {o.total} points)</option>
          ))}
          {compareId && !(siblings.data?.data ?? []).some((o) => o.id === compareId) && <option value={compareId}>{compareId}</option>}
        </select></label>
        {(siblings.data?.data.length ?? 0) <= 1 && <small className="hint">Another sweep of this scenario appears here to compare with.</small>}
        {compare.error && <ErrorBox error={compare.error} title="Could not load the compared sweep" />}
      </div>
      <ScreenedTable sweep={s} dims={dims} />
      {done.length === 0 ? <Empty>No point has finished yet; the heatmap fills in as runs complete.</Empty> : (
        <>
          {/* a sweep of collective jobs opens on each job's JCT and busbw, one of training jobs on tokens/s, not on throughput */}
          <JobSweep points={points} dims={dims} onOpenRun={(runId) => navigate(`/runs/${runId}`)} />
          <HeatmapExplorer
            points={points}
            paths={dims}
            comparePoints={compare.data?.points as unknown as SweepPoint[] | undefined}
            onOpenRun={(runId) => navigate(`/runs/${runId}`)}
            initialMetric={jobs.length ? jobKey(sweepJobPair(points)[0], jobs[0]) : undefined}
          />
        </>
      )}
      <ComparePicker title="Compare sweep points" runs={done.filter((p) => p.run_id).map((p) => ({
        runId: p.run_id!, label: `point ${p.index}: ${pointLabel(p.params as SweepPoint["params"], dims)}`,
      }))} />
    </div>
  );
}
