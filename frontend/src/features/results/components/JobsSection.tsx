import { ChartFrame } from "../../../components/ChartFrame";
import { ErrorBox } from "../../../components/States";
import type { Job } from "../../../lib/api/resultTypes";
import { formatBytes, formatCount, formatDurationUs } from "../../../lib/format";
import { useRunJobs } from "../api/results";
import { BUSBW_MEANING, IDEAL_MEANING, channelsText, iterationOverlap, jobCards } from "../utils/jobs";
import { JobTimeline } from "./JobTimeline";
import { linkSharing } from "../utils/overlay";
import { JOBS_ANCHOR, SummaryCards } from "./SummaryCards";
import { type FlowError, withFlowError } from "../../../lib/flowError";
import { TrainingPanel } from "./TrainingPanel";
import { isTrainingJob } from "../utils/training";

/** An anchor id for a job's timeline (job names are free text). */
export const jobAnchor = (i: number) => `job-${i}-timeline`;

/** One collective job: what it ran, its cards and its iteration timeline. */
export function JobPanel({ job, index, subtitle, runId, onShowNodes, onShowLinks, jobs, runEndUs, flowError }: {
  job: Job; index: number; subtitle?: string; runId: string;
  /** A flow-level run: the error measured on such scenarios, said beside each figure. */
  flowError?: FlowError | null;
  /** The run's simulated end (an unfinished job's steps run until it). */
  runEndUs?: number;
  /** Every job of the run: the panel says which shared this job's links while it ran. */
  jobs?: Job[];
  /** Highlights hosts on the fabric overlay (absent: no buttons). */
  onShowNodes?: (ids: string[], what: string) => void;
  /** Colours the fabric overlay by this job's bytes per link. */
  onShowLinks?: (index: number) => void;
}) {
  const anchor = jobAnchor(index);
  const slow = job.slowest_step;
  const together = jobs ? linkSharing(jobs, index).partners.filter((p) => p.concurrent) : [];
  const overlap = iterationOverlap(job);
  return (
    <section className="job-panel" aria-label={`Job ${job.name}`} data-job={job.name}>
      <h3>Job {job.name}</h3>
      <p className="hint">
        {job.op.replace(/_/g, "-")} ({job.algorithm.replace(/_/g, " ")}) of {formatBytes(job.message_bytes)} over {formatCount(job.ranks)} ranks
        on {formatCount(job.servers)} server{job.servers === 1 ? "" : "s"}, {channelsText(job)}
      </p>
      <SummaryCards cards={withFlowError(jobCards(job, anchor), flowError)} />
      {overlap && (
        <p className="hint" data-testid="iterations-overlap">
          The iterations overlap: each rank starts its next iteration on its own, so iteration {overlap.later} began
          at {formatDurationUs(overlap.startUs)}, before iteration {overlap.earlier} ended at {formatDurationUs(overlap.endUs)}.
          The JCT ({formatDurationUs(job.jct_us ?? 0)}) is therefore less than the iterations' times added up ({formatDurationUs(overlap.sumUs)}).
        </p>
      )}
      {together.length > 0 && (
        <p className="hint" data-testid="job-sharing">
          While it ran, {together.map((p) => `job ${p.job} crossed ${p.links} of the same link direction${p.links === 1 ? "" : "s"}`).join(" and ")}: their
          frames queued together there, so this job had less than the fabric to itself, which its ideal assumes.
        </p>
      )}
      {onShowNodes && (
        <div className="row">
          {onShowLinks && (job.links?.length ?? 0) > 0 && <button type="button" className="small" onClick={() => onShowLinks(index)}>Show its links on the fabric</button>}
          <button type="button" className="small" onClick={() => onShowNodes(job.hosts, `the ${job.ranks} ranks of job ${job.name}`)}>Show its ranks on the fabric</button>
          {slow && <button type="button" className="small" onClick={() => onShowNodes([slow.src, slow.dst], `the slowest step's transfer ${slow.src}->${slow.dst} (job ${job.name})`)}>Show the slowest transfer's hosts</button>}
        </div>
      )}
      <ChartFrame id={anchor} title={`Iteration timeline: ${job.name}`} filename={`run-${runId}-job-${index}-timeline`} subtitle={subtitle}
        note={<>Each bar is a step of the {job.algorithm === "tree" ? "tree" : "channel"}: from its first transfer's start to its last completion at the receiver; rows are step numbers.
          {job.steps_truncated && " Only the first steps are kept in the result (steps_truncated): later ones are not drawn."}</>}>
        {job.steps.length ? <JobTimeline job={job} runEndUs={runEndUs} /> : <p className="hint">No step was recorded.</p>}
      </ChartFrame>
    </section>
  );
}

/** The run's collective jobs (none: nothing shown). */
export function JobsSection({ runId, subtitle, onShowNodes, onShowLinks, runEndUs, flowError }: {
  runId: string; subtitle?: string; onShowNodes?: (ids: string[], what: string) => void; onShowLinks?: (index: number) => void; runEndUs?: number;
  flowError?: FlowError | null;
}) {
  const jobs = useRunJobs(runId);
  if (jobs.error) return <ErrorBox error={jobs.error} title="Could not load the jobs" />;
  if (!jobs.data?.length) return null;
  return (
    <section className="jobs" id={JOBS_ANCHOR} aria-label="Collective jobs">
      <h2>{jobs.data.every(isTrainingJob) ? "Training jobs" : "Collective jobs"}</h2>
      {!jobs.data.every(isTrainingJob) && <p className="hint" data-testid="busbw-meaning">{BUSBW_MEANING} {IDEAL_MEANING}</p>}
      {jobs.data.map((j, i) => isTrainingJob(j)
        ? <TrainingPanel key={`${j.name}-${i}`} job={j} index={i} anchor={jobAnchor(i)} subtitle={subtitle} runId={runId} />
        : <JobPanel key={`${j.name}-${i}`} job={j} index={i} subtitle={subtitle} runId={runId} onShowNodes={onShowNodes} onShowLinks={onShowLinks} jobs={jobs.data} runEndUs={runEndUs} flowError={flowError} />)}
    </section>
  );
}
