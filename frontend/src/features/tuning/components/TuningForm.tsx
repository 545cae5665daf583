import { useState } from "react";
import { ErrorBox } from "../../../components/States";
import { fieldErrorMap, fieldMessages } from "../../../lib/api/fieldErrors";
import { describeValues } from "../../../lib/scenario/values";
import { ParamPicker } from "../../../components/ParamPicker";
import type { TuningCreate } from "../api/tunings";
import { SCREEN_KEEP, SCREEN_METRICS } from "../../../lib/scenario/contract.gen";
import { unmodelledReason } from "../../../lib/scenario/flowModel";
import { RUN_METRICS } from "../../../lib/api/metrics.gen";
import { isJobMetric, jobHasMetric, runMetric } from "../../../lib/api/metrics";
import type { ScenarioJob } from "../../../lib/scenario/jobs";

const UNITS = ["model", "cells", "bytes", "percent", "alpha_direct", "alpha_broadcom_index", "alpha_sai_exponent"] as const;
const STRATEGIES = ["vendor", "experience", "grid", "random", "annealing", "tpe", "nsga2"] as const;
/** The composites, then every declared run metric with its sense (app/runs/metrics.py); a job's
 *  metric is read from the job picked beside it (the first that has it when none is). */
const OBJECTIVES: Record<string, string> = {
  bytetuning_throughput: "ByteTuning throughput-sensitive (max)",
  bytetuning_latency: "ByteTuning latency-sensitive (max)",
  ...Object.fromEntries(RUN_METRICS.map((m) => [m.name, `${m.label} (${m.goal})`])),
};

interface Row { path: string; values: string; unit: string; name: string }

const objective = (key: string, beta: number, job: string) =>
  key.startsWith("bytetuning") ? { kind: key, beta }
    : { kind: "metric", metric: key, ...(isJobMetric(key) && job ? { job } : {}) };

/** The scenario's jobs that have the metric (a training metric: its training jobs). */
const jobsWith = (metric: string, jobs: ScenarioJob[]) => jobs.filter((j) => jobHasMetric(metric, j.kind)).map((j) => j.name);

/** The job picker of an objective read from a job (nothing for other objectives). */
function JobPicker({ metric, jobs: all, value, label, onChange, errors }: {
  metric: string; jobs: ScenarioJob[]; value: string; label: string; onChange: (job: string) => void; errors: string[];
}) {
  if (!isJobMetric(metric)) return null;
  const jobs = jobsWith(metric, all);
  const kinds = runMetric(metric)?.jobKinds;
  if (!jobs.length) return <small className="field-error" role="alert">This scenario has no {kinds ? kinds.join(" or ") : "collective or training"} job: the objective would have no value.</small>;
  return (
    <>
      <label>{label} <select value={value || jobs[0]} onChange={(e) => onChange(e.target.value)}>
        {jobs.map((j) => <option key={j} value={j}>{j}</option>)}
      </select></label>
      {errors.map((m) => <small key={m} className="field-error" role="alert">{m}</small>)}
    </>
  );
}

export function TuningForm({ scenarioId, jobs: given = [], busy, error, onSubmit }: {
  scenarioId: string;
  /** The scenario's jobs (lib/scenario/jobs: scenarioJobs), for the job metrics' objectives; a
   *  bare name is a collective job. */
  jobs?: (string | ScenarioJob)[];
  busy: boolean;
  error: unknown;
  onSubmit: (body: TuningCreate) => void;
}) {
  const jobs: ScenarioJob[] = given.map((j) => (typeof j === "string" ? { name: j, kind: "collective" } : j));
  const [named, setNamed] = useState(false);
  const [rows, setRows] = useState<Row[]>([
    { path: "switch.ecn.kmin_bytes", values: "0, 2500, 5000", unit: "cells", name: "kmin" },
    { path: "switch.ecn.pmax", values: "1, 50", unit: "percent", name: "pmax" },
  ]);
  const [linkKmax, setLinkKmax] = useState(true);
  const [obj1, setObj1] = useState("bytetuning_throughput");
  const [obj2, setObj2] = useState("");
  const [job1, setJob1] = useState("");
  const [job2, setJob2] = useState("");
  const [beta, setBeta] = useState(0.5);
  const [seeds, setSeeds] = useState("1");
  // flow-level screening: every evaluation with the flow engine, the best `keep` again at packet level
  const [screen, setScreen] = useState(false);
  const [keep, setKeep] = useState(3);
  const [chosen, setChosen] = useState<Record<string, number | null>>({ vendor: 1, experience: 1, grid: 1, random: 3, annealing: 3, tpe: null, nsga2: null });
  const fields = fieldErrorMap(error);
  const described = rows.map((r) => describeValues(r.values));
  const seedList = seeds.split(",").map((s) => Number(s.trim())).filter((n) => Number.isInteger(n) && n >= 0);
  const size = named ? 3300 : described.reduce((n, d) => n * ("values" in d ? d.values.length : 0), 1);
  const strategies = STRATEGIES.filter((s) => chosen[s] != null);
  const nsgaWithoutTwo = strategies.includes("nsga2") && !obj2;
  const kmaxLinked = linkKmax && rows.some((r) => r.path === "switch.ecn.kmin_bytes");
  const screenRefusals = !screen ? [] : [
    ...(named ? ["the ByteTuning space: its ECN and PFC settings are not modelled by the flow engine"] : []),
    ...(named ? [] : rows.map((r) => r.path).concat(kmaxLinked ? ["switch.ecn.kmax_bytes"] : []))
      .filter((p) => unmodelledReason(p)).map((p) => `${p}: ${unmodelledReason(p)}`),
    ...[obj1, obj2].filter((o) => o && !(o in SCREEN_METRICS)).map((o) => `objective ${o}: the flow engine does not answer it (rank by ${Object.keys(SCREEN_METRICS).join(", ")})`),
  ];
  const keepOk = Number.isInteger(keep) && keep >= SCREEN_KEEP.min && keep <= SCREEN_KEEP.max;
  const valid = (named || described.every((d) => "values" in d)) && strategies.length > 0 && seedList.length > 0 && !nsgaWithoutTwo
    && (!screen || (keepOk && screenRefusals.length === 0));
  const upd = (i: number, patch: Partial<Row>) => setRows(rows.map((r, j) => (j === i ? { ...r, ...patch } : r)));
  const kminRow = rows.find((r) => r.path === "switch.ecn.kmin_bytes");

  const submit = () => {
    const space = named ? { named: "bytetuning" } : {
      parameters: rows.map((r, i) => ({ name: r.name, path: r.path, unit: r.unit, values: (described[i] as { values: number[] }).values })),
      linked: linkKmax && kminRow ? [{ name: "kmax", path: "switch.ecn.kmax_bytes", from: kminRow.name, offset: 500, unit: kminRow.unit }] : [],
    };
    onSubmit({
      scenario_ids: [scenarioId], seeds: seedList, space,
      objectives: [objective(obj1, beta, job1 || jobsWith(obj1, jobs)[0] || ""), ...(obj2 ? [objective(obj2, beta, job2 || jobsWith(obj2, jobs)[0] || "")] : [])],
      strategies: strategies.map((s) => ({ name: s, budget: chosen[s]!, seed: 1 })),
      ...(screen ? { screening: { engine: "flow", keep } } : {}),
    } as TuningCreate);
  };

  return (
    <form className="tuning-form" aria-label="Tuning" onSubmit={(e) => { e.preventDefault(); if (valid) submit(); }}>
      <h3>Search space</h3>
      <label><input type="checkbox" checked={named} onChange={(e) => setNamed(e.target.checked)} /> The ByteTuning space: Kmin 0..5000 cells step 500, Kmax = Kmin + 500, Pmax 1..90 %, alpha 1/3/5/11/20, headroom 100..600 cells (3,300 points)</label>
      {!named && <>
        {rows.map((r, i) => (
          <div className="row" key={i}>
            <ParamPicker label={`Parameter ${i + 1}`} value={r.path} numericOnly
              onChange={(path) => upd(i, { path, name: path.split(".").pop()!.replace(/_bytes|_us|_mbps/, "").slice(0, 32) })} />
            <input aria-label={`Parameter ${i + 1} values`} value={r.values} size={24} aria-invalid={"error" in described[i]} onChange={(e) => upd(i, { values: e.target.value })} />
            <select aria-label={`Parameter ${i + 1} unit`} value={r.unit} onChange={(e) => upd(i, { unit: e.target.value })}>
              {UNITS.map((u) => <option key={u}>{u}</option>)}
            </select>
            {"error" in described[i] ? <small className="field-error" role="alert">{described[i].error}</small> : <small>{described[i].values.length} values</small>}
            {fieldMessages(fields, `space.parameters.${i}`).map((m) => <small key={m} className="field-error" role="alert">{m}</small>)}
            <button type="button" className="small" disabled={rows.length === 1} onClick={() => setRows(rows.filter((_, j) => j !== i))}>Remove</button>
          </div>
        ))}
        <button type="button" className="small" onClick={() => setRows([...rows, { path: "switch.pfc.alpha", values: "1, 3, 5", unit: "alpha_direct", name: `p${rows.length + 1}` }])}>Add parameter</button>
        {kminRow && <label><input type="checkbox" checked={linkKmax} onChange={(e) => setLinkKmax(e.target.checked)} /> Kmax = Kmin + 500 ({kminRow.unit})</label>}
      </>}
      <p><strong data-testid="tuning-points">{size.toLocaleString("en-US")} points</strong></p>
      <h3>Objective</h3>
      <div className="row">
        <label>Objective <select value={obj1} onChange={(e) => setObj1(e.target.value)}>{Object.entries(OBJECTIVES).map(([k, l]) => <option key={k} value={k}>{l}</option>)}</select></label>
        <JobPicker metric={obj1} jobs={jobs} value={job1} label="Job of the objective" onChange={setJob1} errors={fieldMessages(fields, "objectives.0.job")} />
        <label>Second objective (Pareto) <select value={obj2} onChange={(e) => setObj2(e.target.value)}><option value="">(none)</option>{Object.entries(OBJECTIVES).map(([k, l]) => <option key={k} value={k}>{l}</option>)}</select></label>
        <JobPicker metric={obj2} jobs={jobs} value={job2} label="Job of the second objective" onChange={setJob2} errors={fieldMessages(fields, "objectives.1.job")} />
        <label>beta <input type="number" step={0.1} min={0} max={1} value={beta} onChange={(e) => setBeta(Number(e.target.value))} /></label>
        <label>Seeds <input value={seeds} size={8} onChange={(e) => setSeeds(e.target.value)} aria-label="Seeds" /></label>
      </div>
      <h3>Strategies and budgets</h3>
      <div className="row">
        {STRATEGIES.map((s) => (
          <label key={s}>
            <input type="checkbox" checked={chosen[s] != null} onChange={(e) => setChosen({ ...chosen, [s]: e.target.checked ? (s === "vendor" || s === "experience" || s === "grid" ? 1 : 10) : null })} /> {s}
            {chosen[s] != null && !["vendor", "experience", "grid"].includes(s) && (
              <input type="number" min={1} value={chosen[s]!} size={4} aria-label={`${s} budget`} onChange={(e) => setChosen({ ...chosen, [s]: Number(e.target.value) })} />
            )}
          </label>
        ))}
      </div>
      {nsgaWithoutTwo && <p className="field-error">nsga2 needs a second objective.</p>}
      <fieldset className="screening" aria-label="Screening">
        <legend><label><input type="checkbox" checked={screen} onChange={(e) => setScreen(e.target.checked)} /> Screen at flow level first</label></legend>
        <p className="hint">Every evaluation runs with the flow-level engine; when the strategies have finished, the best settings run again at
          packet level, their objectives beside the flow-level ones. Only over what the flow engine models (topology, routing, placement,
          message sizes, channels) and for the figures it answers (JCT, busbw, throughput, FCT, slowdown).</p>
        {screen && <label>Keep the best <input type="number" aria-label="Settings kept for packet level" min={SCREEN_KEEP.min} max={SCREEN_KEEP.max} value={keep}
          aria-invalid={!keepOk} size={4} onChange={(e) => setKeep(Number(e.target.value))} /></label>}
        {screenRefusals.map((m) => <small key={m} className="field-error" role="alert" data-testid="screening-refused">{m}</small>)}
      </fieldset>
      <button type="submit" className="primary" disabled={!valid || busy}>{busy ? "Starting…" : "Start tuning"}</button>
      <ErrorBox error={error} title="The tuning was refused" />
    </form>
  );
}
