import { ChartFrame } from "../../../components/ChartFrame";
import { formatCount } from "../../../lib/format";
import { type TrainingJob, disagreements, dominanceText, planText, trainingCards } from "../utils/training";
import { SummaryCards } from "./SummaryCards";
import { TrainingTimeline } from "./TrainingTimeline";

/** One training job: its model and plan, its cards, what dominates its iteration, and the
 *  iteration's timeline by kind. The cards and the chart come from the same `training` object;
 *  where their figures differ the panel says so rather than showing two truths. */
export function TrainingPanel({
  job,
  anchor,
  subtitle,
  runId,
  index,
}: {
  job: TrainingJob;
  anchor: string;
  subtitle?: string;
  runId: string;
  index: number;
}) {
  const t = job.training;
  const off = disagreements(t);
  return (
    <section className="job-panel training-panel" aria-label={`Job ${job.name}`} data-job={job.name}>
      <h3>
        Job {job.name}: training {t.model === "custom" ? "a custom model" : t.model}
      </h3>
      <p className="hint">
        {planText(t)} on {formatCount(t.tp * t.pp * t.dp)} ranks; {formatCount(t.tokens_per_iteration)} tokens per
        iteration
      </p>
      <SummaryCards cards={trainingCards(job, anchor)} />
      <p className="training-dominance" data-testid="training-dominance">
        {dominanceText(t)}
      </p>
      {off.length > 0 && (
        <p className="field-error" role="alert" data-testid="training-disagreement">
          The timeline and the cards differ ({off.join("; ")}): the cards hold the simulator's figures.
        </p>
      )}
      <ChartFrame
        id={anchor}
        title={`Iteration by kind: ${job.name}`}
        filename={`run-${runId}-job-${index}-training`}
        subtitle={subtitle}
        note={
          <>
            The first iteration on{" "}
            {t.critical_rank != null ? `rank ${t.critical_rank}, the last to end it` : "the rank that ended it last"}:
            its compute, then each kind of communication on its own row. Outlined, full-colour bars are exposed
            communication, which the rank waited for; faded bars ran while it computed.
            {t.timeline_truncated &&
              " Only the timeline's first segments are kept in the result (timeline_truncated): later ones are not drawn, and the cards are not checked against it."}
          </>
        }
      >
        <TrainingTimeline training={t} name={job.name} />
      </ChartFrame>
    </section>
  );
}
