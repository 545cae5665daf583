import { useState } from "react";
import { Link } from "react-router";
import { Markdown } from "../../../components/Markdown";
import type { LabProgress } from "../model/progress";
import { answerBlocks, splitAnswers, withoutAnswerFences } from "../model/answers";
import type { Lab } from "../api/labs";

export interface LabViewProps {
  lab: Lab;
  progress: LabProgress;
  /** Editor link that opens the lab's preset (the page knows the preset's scenario id). */
  presetHref: string | null;
  onToggleStep: (id: string, done: boolean) => void;
  onPredict: (id: string, answer: string) => void;
  onClose: () => void;
}

const fmt = (v: number) => v.toLocaleString("en-US", { maximumFractionDigits: 2 });

/** A lab beside the canvas or the results: checklist, predictions, text, questions, instructor notes. */
export function LabView({ lab, progress, presetHref, onToggleStep, onPredict, onClose }: LabViewProps) {
  const [instructor, setInstructor] = useState(false);
  const doneCount = lab.steps.filter((s) => progress.done[s.id]).length;
  return (
    <div className="lab-view">
      <div className="row lab-head">
        <h2>{lab.title}</h2>
        <button type="button" className="small" onClick={onClose} aria-label="Close the lab">Close</button>
      </div>
      <p className="hint">{lab.time}{presetHref && <> · <Link to={presetHref}>Open the preset {lab.preset}</Link></>}</p>
      <section aria-label="Lab steps">
        <h3>Steps <small data-testid="lab-progress">{doneCount} of {lab.steps.length} done</small></h3>
        <ol className="lab-steps">
          {lab.steps.map((s) => (
            <li key={s.id} className={progress.done[s.id] ? "done" : undefined}>
              <label>
                <input type="checkbox" checked={!!progress.done[s.id]} onChange={(e) => onToggleStep(s.id, e.target.checked)}
                  aria-label={s.text} />
                {s.text}
                {s.check && <small className="hint"> {s.check.kind === "prediction_saved" ? "(ticks when saved)" : "(ticks itself)"}</small>}
              </label>
            </li>
          ))}
        </ol>
      </section>
      {(lab.predictions ?? []).length > 0 && (
        <section aria-label="Predict before you run" className="lab-predict">
          <h3>Predict before you run</h3>
          {(lab.predictions ?? []).map((p) => (
            <PredictionBox key={p.id} id={p.id} question={p.question} unit={p.unit ?? ""} answer={progress.predictions[p.id] ?? ""}
              hasMetric={!!p.metric} result={progress.results?.[p.id]} runWords={runWords(p.run, lab.preset)}
              solution={[p.answer ?? "", answerBlocks(`${lab.body}\n${lab.instructor}`, p.id)].filter(Boolean).join("\n\n")} onSave={(a) => onPredict(p.id, a)} />
          ))}
        </section>
      )}
      <details className="lab-text" open>
        <summary>Lab text</summary>
        {splitAnswers(lab.body.replace(/^# .*\n/, "")).map((part, i) => {
          if (part.kind === "text") return <Markdown key={i} source={part.source} headingOffset={1} />;
          const unsaved = part.predictions.filter((id) => !progress.predictions[id]);
          // an answer shows once every prediction it answers is saved
          return unsaved.length === 0
            ? <div key={i} className="lab-answer" data-answer={part.predictions.join(" ")}><Markdown source={part.source} headingOffset={1} /></div>
            : (
              <p key={i} className="lab-answer-hidden" data-hidden-answer={part.predictions.join(" ")}>
                Hidden until you save your prediction{unsaved.length > 1 ? "s" : ""}: {unsaved.map((id) => `“${questionOf(lab, id)}”`).join(", ")}
              </p>
            );
        })}
      </details>
      {(lab.questions ?? []).length > 0 && (
        <section aria-label="Questions">
          <h3>Questions</h3>
          <ol>{(lab.questions ?? []).map((q) => <li key={q}>{q}</li>)}</ol>
        </section>
      )}
      {lab.instructor && (
        <section aria-label="Instructor notes" className="lab-instructor">
          <label className="hint"><input type="checkbox" checked={instructor} onChange={(e) => setInstructor(e.target.checked)} /> Show instructor notes</label>
          {instructor && <Markdown source={withoutAnswerFences(lab.instructor)} headingOffset={2} />}
        </section>
      )}
    </div>
  );
}

type RunCondition = NonNullable<Lab["predictions"]>[number]["run"];

const questionOf = (lab: Lab, id: string) => (lab.predictions ?? []).find((p) => p.id === id)?.question ?? id;

/** The run a prediction is compared with, in words: [the run that gave it, what to do to get one]. */
export function runWords(run: RunCondition, preset: string): [string, string] {
  if (run?.path) return [`the run with ${run.path} = ${String(run.value)}`, `run with ${run.path} = ${String(run.value)}`];
  if (run?.preset) {
    const what = run.preset === preset ? "the preset" : `the preset ${run.preset}`;
    return [`the run of ${what} as it is`, `run ${what} as it is`];
  }
  return ["the run", "run the scenario"];
}

function PredictionBox({ id, question, unit, answer, hasMetric, result, runWords: [theRun, doRun], solution, onSave }: {
  id: string; question: string; unit: string; answer: string; hasMetric: boolean;
  result?: { runId: string; value: number }; runWords: [string, string]; solution: string; onSave: (a: string) => void;
}) {
  const [draft, setDraft] = useState(answer);
  const saved = answer !== "" && draft === answer;
  return (
    <form className="prediction" onSubmit={(e) => { e.preventDefault(); if (draft.trim()) onSave(draft.trim()); }}>
      <label htmlFor={`predict-${id}`}>{question}{unit && <span className="unit"> ({unit})</span>}</label>
      <div className="row">
        <input id={`predict-${id}`} value={draft} onChange={(e) => setDraft(e.target.value)} size={10} />
        <button type="submit" className="small" disabled={!draft.trim() || saved}>{saved ? "Saved" : "Save"}</button>
      </div>
      {answer && (
        <p className="prediction-vs" data-testid={`prediction-${id}`}>
          You predicted <strong>{answer}{unit && ` ${unit}`}</strong>
          {!hasMetric ? "." : result !== undefined
            ? <>; {theRun} <Link to={`/runs/${result.runId}`}>gave</Link> <strong>{fmt(result.value)}{unit && ` ${unit}`}</strong>.</>
            : `; ${doRun} to compare.`}
        </p>
      )}
      {/* the answer only once the student has committed to a prediction */}
      {answer && solution && (
        <div className="prediction-answer" data-testid={`answer-${id}`}>
          <strong>Answer:</strong> <Markdown source={solution} headingOffset={2} />
        </div>
      )}
    </form>
  );
}
