import { format } from "d3-format";
import { useRef } from "react";
import { Term } from "../../../components/GlossaryTip";
import { ErrorBox } from "../../../components/States";
import { formatWallS } from "../../../lib/format";
import { threadsLabel } from "./RunLauncher";
import { Link } from "react-router";
import { type ProgressSample, type RunPublic, FINAL, etaFromSamples, useCancelRun, useRunAccess } from "../api/runs";

const us = (ns: number) => format(",.0f")(ns / 1000);

/** Progress of one run: bar, simulated time, ETA, cancel. */
export function RunProgress({ run }: { run: RunPublic }) {
  const cancel = useCancelRun();
  const final = FINAL.has(run.status);
  const access = useRunAccess(run.id, !final);
  const pct = Math.round((run.status === "SUCCEEDED" ? 1 : run.progress) * 100);
  // the progress reports seen on this page, for the recent rate
  const samples = useRef<ProgressSample[]>([]);
  const seen = samples.current;
  if (!seen.length || seen[seen.length - 1].wall_s < run.wall_s) seen.push({ wall_s: run.wall_s, progress: run.progress });
  if (seen.length > 200) seen.splice(0, seen.length - 200);
  const eta = etaFromSamples(seen);
  // before the simulator's first report the run has no duration yet ("simulated 0 / 0 us" said nothing)
  const starting = !final && (run.duration_ns === 0 || (run.status === "PENDING" && run.sim_time_ns === 0));
  return (
    <section className="run-progress" aria-label="Run progress">
      <div className="row">
        <span className={`status status-${run.status.toLowerCase()}`} data-testid="run-status">{run.status}</span>
        <span>seed {run.seed}</span>
        {run.cached && <span className="badge">cached result</span>}
        {/* only its owner may cancel it: anyone else is told why, and how to run it as their own */}
        {!final && access.data?.may_change && (
          <button type="button" onClick={() => cancel.mutate(run.id)} disabled={cancel.isPending}>{cancel.isPending ? "Cancelling…" : "Cancel run"}</button>
        )}
        {!final && access.data && !access.data.may_change && (
          <span className="hint" data-testid="not-yours">
            {access.data.reason} <Link to={`/editor?from=${run.scenario_id}`}>Fork with these settings</Link>
          </span>
        )}
      </div>
      <div className="progress" role="progressbar" aria-valuemin={0} aria-valuemax={100} aria-valuenow={pct} aria-label="Simulated time">
        <div className="progress-fill" style={{ width: `${pct}%` }} />
        <span className="progress-label">{pct}%</span>
      </div>
      <p className="hint">
        {starting ? <span data-testid="run-starting">starting: {run.status === "PENDING" ? "waiting for a simulator worker" : "the simulator is reading the scenario"}</span>
          : <>simulated {us(run.status === "SUCCEEDED" ? run.duration_ns : run.sim_time_ns)} / {us(run.duration_ns)} us</>}
        {" · "}{format(",")(run.events)} events · wall {formatWallS(run.wall_s)}
        {" · "}<span data-testid="run-engine">{run.engine === "flow" ? "flow-level engine" : "packet level"}</span>
        {run.engine !== "flow" && <>{" · "}<span data-testid="run-threads">{run.partitions ? <Term term="term.partitions">{threadsLabel(run)}</Term> : threadsLabel(run)}</span></>}
        {eta !== null && !final && <> · about {eta < 60 ? `${Math.ceil(eta)} s` : `${Math.ceil(eta / 60)} min`} left</>}
      </p>
      {run.status === "CANCELLED" && (
        <p className="notice" role="status">Cancelled at {us(run.sim_time_ns)} us of {us(run.duration_ns)} us simulated; no result was stored. Run it again from the editor.</p>
      )}
      {run.status === "FAILED" && <ErrorBox error={new Error(run.error ?? "the simulator failed")} title="The run failed" />}
      <ErrorBox error={cancel.error} title="Could not cancel" />
    </section>
  );
}
