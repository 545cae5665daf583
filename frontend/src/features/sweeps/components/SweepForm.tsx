import { useState } from "react";
import { ErrorBox } from "../../../components/States";
import type { SweepCreate } from "../api/sweeps";
import { fieldErrorMap, fieldMessages } from "../../../lib/api/fieldErrors";
import { describeValues } from "../../../lib/scenario/values";
import { LIMITS, SCREEN_KEEP, SCREEN_METRICS } from "../../../lib/scenario/contract.gen";
import { ParamPicker, type ParamChoice } from "../../../components/ParamPicker";
import { unmodelledReason } from "../../../lib/scenario/flowModel";

const SEED: ParamChoice[] = [{ path: "seed", label: "Seed", numeric: true }];

interface ParamRow {
  path: string;
  values: string;
}

interface LinkedRow {
  path: string;
  from: string;
  scale: string;
  offset: string;
}

export function SweepForm({ scenarioId, busy, error, onSubmit }: {
  scenarioId: string;
  busy: boolean;
  error: unknown;
  onSubmit: (body: SweepCreate) => void;
}) {
  const [seed, setSeed] = useState(1);
  const [params, setParams] = useState<ParamRow[]>([
    { path: "switch.ecn.kmin_bytes", values: "5000, 50000" },
    { path: "switch.ecn.pmax", values: "0.01, 0.2" },
  ]);
  const [linked, setLinked] = useState<LinkedRow[]>([{ path: "switch.ecn.kmax_bytes", from: "switch.ecn.kmin_bytes", scale: "1", offset: "500" }]);
  // flow-level screening: every point with the flow engine, the best `keep` again at packet level
  const [screen, setScreen] = useState(false);
  const [keep, setKeep] = useState(3);
  const [metric, setMetric] = useState("jct_us");
  const unmodelled = screen ? [...params.map((p) => p.path), ...linked.map((l) => l.path)].filter((p) => p && unmodelledReason(p)) : [];
  const described = params.map((p) => describeValues(p.values));
  const parsed = described.map((d) => ("values" in d ? d.values : null));
  const fields = fieldErrorMap(error);
  const points = parsed.reduce<number>((n, v) => n * (v?.length ?? 0), 1);
  const keepOk = Number.isInteger(keep) && keep >= SCREEN_KEEP.min && keep <= SCREEN_KEEP.max;
  const valid = parsed.every(Boolean) && params.every((p) => p.path) && points <= 5000 && (!screen || (keepOk && unmodelled.length === 0));
  const upd = <T,>(list: T[], i: number, patch: Partial<T>) => list.map((x, j) => (j === i ? { ...x, ...patch } : x));

  return (
    <form
      className="sweep-form"
      aria-label="Sweep"
      onSubmit={(e) => {
        e.preventDefault();
        if (!valid) return;
        onSubmit({
          scenario_id: scenarioId,
          seed,
          parameters: params.map((p, i) => ({ path: p.path, values: parsed[i]! })),
          linked: linked.filter((l) => l.path && l.from).map((l) => ({ path: l.path, from: l.from, scale: Number(l.scale) || 1, offset: Number(l.offset) || 0 })),
          ...(screen ? { screening: { engine: "flow", keep, metric } } : {}),
        } as SweepCreate);
      }}
    >
      <h3>Swept parameters</h3>
      <p className="hint">Each row: a parameter (as named in the editor, in its unit; “Other path…” takes any dotted path of the scenario, e.g. <code>traffic.1.size_bytes</code>) and its values as a list (<code>1, 10, 20</code>) or a range <code>start:stop:step</code> (<code>0:5000:500</code>).</p>
      {params.map((p, i) => (
        <div className="row" key={i}>
          <ParamPicker label={`Parameter ${i + 1}`} value={p.path} allowOther extra={SEED} onChange={(path) => setParams(upd(params, i, { path }))} />
          <input aria-label={`Parameter ${i + 1} values`} placeholder="values, e.g. 1000, 5000 or 0:5000:500" value={p.values} aria-invalid={!parsed[i]} onChange={(e) => setParams(upd(params, i, { values: e.target.value }))} size={30} />
          {"error" in described[i]
            ? <small className="field-error" role="alert">{described[i].error}</small>
            : <small>{parsed[i]!.length} values</small>}
          {fieldMessages(fields, `parameters.${i}`).map((m) => <small key={m} className="field-error" role="alert">{m}</small>)}
          <button type="button" className="small" onClick={() => setParams(params.filter((_, j) => j !== i))} disabled={params.length === 1}>Remove</button>
        </div>
      ))}
      <button type="button" className="small" onClick={() => setParams([...params, { path: "switch.pfc.alpha", values: "" }])}>Add parameter</button>
      <h3>Linked parameters</h3>
      {linked.map((l, i) => (
        <div className="row" key={i}>
          <ParamPicker label={`Linked ${i + 1}`} value={l.path} allowOther onChange={(path) => setLinked(upd(linked, i, { path }))} />
          <span>=</span>
          <input aria-label={`Linked ${i + 1} scale`} value={l.scale} size={4} onChange={(e) => setLinked(upd(linked, i, { scale: e.target.value }))} />
          <span>×</span>
          <ParamPicker label={`Linked ${i + 1} from`} value={l.from} allowOther extra={SEED} onChange={(from) => setLinked(upd(linked, i, { from }))} />
          <span>+</span>
          <input aria-label={`Linked ${i + 1} offset`} value={l.offset} size={6} onChange={(e) => setLinked(upd(linked, i, { offset: e.target.value }))} />
          <button type="button" className="small" onClick={() => setLinked(linked.filter((_, j) => j !== i))}>Remove</button>
          {fieldMessages(fields, `linked.${i}`).map((m) => <small key={m} className="field-error" role="alert">{m}</small>)}
        </div>
      ))}
      <button type="button" className="small" onClick={() => setLinked([...linked, { path: "", from: "", scale: "1", offset: "0" }])}>Add linked parameter</button>
      <fieldset className="screening" aria-label="Screening">
        <legend>
          <label><input type="checkbox" checked={screen} onChange={(e) => setScreen(e.target.checked)} /> Screen at flow level first</label>
        </legend>
        <p className="hint">Every point runs with the flow-level engine (milliseconds each), ranked by a figure; the best few run again at
          packet level, and the table shows both figures side by side. Only over what the flow engine models: topology, routing,
          placement, parallelism, message sizes, channels, not ECN, PFC, congestion control or buffers.</p>
        {screen && (
          <div className="row">
            <label>Keep the best <input type="number" aria-label="Points kept for packet level" min={SCREEN_KEEP.min} max={SCREEN_KEEP.max} value={keep}
              aria-invalid={!keepOk} onChange={(e) => setKeep(Number(e.target.value))} size={4} /></label>
            <label>ranked by <select aria-label="Screening metric" value={metric} onChange={(e) => setMetric(e.target.value)}>
              {Object.entries(SCREEN_METRICS).map(([m, sense]) => <option key={m} value={m}>{m} ({sense === "min" ? "lower" : "higher"} is better)</option>)}
            </select></label>
            {fieldMessages(fields, "screening").map((m) => <small key={m} className="field-error" role="alert">{m}</small>)}
          </div>
        )}
        {unmodelled.map((p) => (
          <small key={p} className="field-error" role="alert" data-testid="screening-refused">
            {p}: {unmodelledReason(p)}; sweep it without screening
          </small>
        ))}
      </fieldset>
      <div className="row">
        <label>Seed <input type="number" value={seed} min={0} max={LIMITS.MAX_SEED} onChange={(e) => setSeed(Number(e.target.value))} aria-label="Sweep seed" /></label>
        <strong data-testid="sweep-points">{points} points{screen ? `, the best ${keep} again at packet level` : ""}</strong>
        {points > 5000 && <span className="field-error">at most 5,000 points</span>}
        <button type="submit" className="primary" disabled={!valid || busy}>{busy ? "Starting…" : "Start sweep"}</button>
      </div>
      {Object.keys(fields).length === 0 && <ErrorBox error={error} title="The sweep was refused" />}
    </form>
  );
}
