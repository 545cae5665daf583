import type { TrafficGenerator } from "../../../lib/scenario/types";
import type { LayoutGraph } from "../../../lib/topology/types";
import {
  COLLECTIVE_ALGORITHMS,
  TRAINING_MODEL_CONTRACT,
  TRAINING_PRECISION_BYTES,
} from "../../../lib/scenario/contract.gen";
import { HostListField, type PickRequest } from "./HostListField";
import { type RankMode, byNodeOrder, rankMode, withRankMode } from "./CollectiveFields";
import {
  MODEL_NAMES,
  contractOf,
  dimsText,
  jobRanks,
  modelDims,
  productCheck,
  rangeText,
  trainingValue,
  withTrainingValue,
} from "../editor/training";

/** The plan's numbers, each with what it means (ranges and defaults from the contract). */
const PARALLEL = [
  { path: "parallel.tp", label: "TP", unit: "tensor parallel, inside a server" },
  { path: "parallel.pp", label: "PP", unit: "pipeline stages" },
  { path: "parallel.dp", label: "DP", unit: "data parallel" },
  { path: "parallel.ep", label: "EP", unit: "DP ranks the experts are spread over" },
  { path: "parallel.micro_batches", label: "Micro-batches", unit: "per iteration, per DP rank" },
  { path: "parallel.micro_batch_size", label: "Micro-batch size", unit: "sequences" },
] as const;
const PARALLEL_FLAGS = [
  { path: "parallel.distributed_optimizer", label: "Distributed optimizer (DP by reduce-scatter + all-gather)" },
  { path: "parallel.sequence_parallel", label: "Sequence parallel (TP by reduce-scatter + all-gather)" },
  { path: "parallel.overlap_grad_reduce", label: "Overlap the gradient reduction with the backward pass" },
] as const;
const MORE = [
  { path: "parallel.bucket_bytes", label: "DP bucket", unit: "bytes" },
  { path: "iterations", label: "Iterations", unit: "" },
  { path: "channels", label: "Channels", unit: "of every collective" },
  { path: "chunk_bytes", label: "Chunk", unit: "bytes; 0: ring steps whole" },
  { path: "nvlink_gbps", label: "NVLink", unit: "Gbit/s per GPU; empty: the topology's" },
] as const;
const MODEL_FIELDS = ["layers", "hidden", "ffn_hidden", "heads", "seq_len", "vocab", "experts", "top_k"] as const;

/** Every field path this form has its own input for (their errors show beside them). */
export const TRAINING_INPUTS = [
  "model",
  "parallel",
  "gpu",
  "compute_us_per_layer",
  "precision",
  "tp_algorithm",
  "dp_algorithm",
  "job",
  "servers",
  "placement",
  ...PARALLEL.map((f) => f.path),
  ...PARALLEL_FLAGS.map((f) => f.path),
  ...MORE.map((f) => f.path),
  "gpu.tflops",
  "gpu.mfu",
  ...MODEL_FIELDS.map((f) => `model.${f}`),
  "model.gated",
];

/** The `training` generator's fields (docs/scenario-format.md, "training"). */
export function TrainingFields({
  index,
  gen,
  graph,
  errors,
  onUpdate,
  onStartPick,
}: {
  index: number;
  gen: TrafficGenerator;
  graph: LayoutGraph | null;
  errors: Record<string, string>;
  onUpdate: (g: TrafficGenerator) => void;
  onStartPick: (req: PickRequest) => void;
}) {
  const hostNodes = (graph?.nodes ?? []).filter((n) => n.kind === "host");
  const servers = new Set(hostNodes.map((n) => n.server).filter(Boolean)).size;
  const id = (f: string) => `traffic-${index}-${f.replace(/\./g, "-")}`;
  const err = (f: string) => errors[`traffic.${index}.${f}`];
  const errorOf = (f: string) => err(f) && <small className="field-error">{err(f)}</small>;
  const set = (path: string, value: unknown) => onUpdate(withTrainingValue(gen, path, value));
  const preset = typeof gen.model === "string" ? gen.model : "";
  const dims = modelDims(gen.model);
  const ranks = jobRanks(gen, graph);
  const check = productCheck(gen, ranks);
  const byFlops = gen.compute_us_per_layer === undefined || gen.compute_us_per_layer === null;
  const sequenceParallel = trainingValue(gen, "parallel.sequence_parallel") === true;
  const distributed = trainingValue(gen, "parallel.distributed_optimizer") === true;
  const mode = rankMode(gen);

  const number = (path: string, label: string, unit: string, value?: unknown) => {
    const c = contractOf(path);
    const range = rangeText(c);
    const shown =
      value !== undefined
        ? value
        : path.includes(".")
          ? (gen[path.split(".")[0]] as Record<string, unknown> | undefined)?.[path.split(".")[1]]
          : gen[path];
    return (
      <div className="field" key={path}>
        <label htmlFor={id(path)}>
          {label} <span className="unit">({[unit, range].filter(Boolean).join("; ")})</span>
        </label>
        <input
          id={id(path)}
          type="number"
          step="any"
          value={(shown as number | undefined) ?? ""}
          aria-invalid={!!err(path)}
          placeholder={c?.default !== undefined ? String(c.default) : undefined}
          onChange={(e) => set(path, e.target.value === "" ? undefined : Number(e.target.value))}
        />
        {errorOf(path)}
      </div>
    );
  };
  const setModelDim = (k: string, v: number | boolean | undefined) => {
    const next = { ...((gen.model as Record<string, unknown>) ?? {}) };
    if (v === undefined) delete next[k];
    else next[k] = v;
    onUpdate({ ...gen, model: next as never });
  };
  const algorithms = (split: boolean) => COLLECTIVE_ALGORITHMS[split ? "reduce_scatter" : "all_reduce"] ?? [];

  return (
    <>
      <div className="field">
        <label htmlFor={id("model")}>Model</label>
        <select
          id={id("model")}
          value={preset || "custom"}
          aria-invalid={!!err("model")}
          onChange={(e) => {
            const v = e.target.value;
            // a custom model starts from the preset it replaces, so its dimensions are complete
            onUpdate({
              ...gen,
              model: v === "custom" ? ({ ...(modelDims(gen.model) ?? modelDims(MODEL_NAMES[0])!) } as never) : v,
            });
          }}
        >
          {MODEL_NAMES.map((m) => (
            <option key={m} value={m}>
              {m}
            </option>
          ))}
          <option value="custom">custom (its dimensions)</option>
        </select>
        {dims && (
          <small className="hint" data-testid={`training-${index}-dims`}>
            {dimsText(dims)}
          </small>
        )}
        {errorOf("model")}
      </div>
      {!preset && (
        <fieldset className="training-model">
          <legend>Model dimensions</legend>
          {MODEL_FIELDS.map((k) => {
            const c = TRAINING_MODEL_CONTRACT[k];
            return (
              <div className="field" key={k}>
                <label htmlFor={id(`model.${k}`)}>
                  {k.replace(/_/g, " ")}{" "}
                  <span className="unit">({[c?.description, rangeText(c)].filter(Boolean).join("; ")})</span>
                </label>
                <input
                  id={id(`model.${k}`)}
                  type="number"
                  step={1}
                  value={((gen.model as Record<string, unknown>)?.[k] as number | undefined) ?? ""}
                  placeholder={c?.default !== undefined ? String(c.default) : undefined}
                  aria-invalid={!!err(`model.${k}`)}
                  onChange={(e) => setModelDim(k, e.target.value === "" ? undefined : Number(e.target.value))}
                />
                {errorOf(`model.${k}`)}
              </div>
            );
          })}
          <label className="inline">
            <input
              type="checkbox"
              checked={(gen.model as Record<string, unknown>)?.gated === true}
              onChange={(e) => setModelDim("gated", e.target.checked)}
            />{" "}
            {TRAINING_MODEL_CONTRACT.gated?.description ?? "gated MLP"}
          </label>
        </fieldset>
      )}

      <fieldset className="training-parallel">
        <legend>Parallelism</legend>
        <p
          className={`training-product ${check.ok === false ? "field-error" : "hint"}`}
          role={check.ok === false ? "alert" : undefined}
          data-testid={`training-${index}-product`}
          data-ok={String(check.ok)}
        >
          {check.ok === true ? "✓ " : check.ok === false ? "✗ " : ""}
          {check.text}
        </p>
        {PARALLEL.map((f) => number(f.path, f.label, f.unit))}
        {PARALLEL_FLAGS.map((f) => (
          <label className="inline" key={f.path}>
            <input
              type="checkbox"
              checked={trainingValue(gen, f.path) === true}
              onChange={(e) => set(f.path, e.target.checked)}
            />{" "}
            {f.label}
          </label>
        ))}
        {/* the API's product refusal says what the line above already says */}
        {check.ok !== false && errorOf("parallel")}
      </fieldset>

      <fieldset className="training-compute">
        <legend>Compute</legend>
        <div className="field">
          <label htmlFor={id("compute")}>Compute time from</label>
          <select
            id={id("compute")}
            value={byFlops ? "flops" : "layer"}
            onChange={(e) =>
              onUpdate(
                e.target.value === "flops"
                  ? withTrainingValue(gen, "compute_us_per_layer", undefined)
                  : withTrainingValue(withTrainingValue(gen, "gpu", undefined), "compute_us_per_layer", 1000),
              )
            }
          >
            <option value="flops">the FLOP count: GPU TFLOP/s × MFU</option>
            <option value="layer">a time per layer</option>
          </select>
        </div>
        {byFlops ? (
          <>
            {number("gpu.tflops", "GPU peak", "TFLOP/s at the precision")}
            {number("gpu.mfu", "MFU", "model FLOPs utilisation")}
          </>
        ) : (
          number("compute_us_per_layer", "Per layer", "us, forward of one micro-batch; backward 2×")
        )}
        <div className="field">
          <label htmlFor={id("precision")}>Precision</label>
          <select
            id={id("precision")}
            value={String(trainingValue(gen, "precision"))}
            onChange={(e) => set("precision", e.target.value)}
          >
            {Object.entries(TRAINING_PRECISION_BYTES).map(([p, b]) => (
              <option key={p} value={p}>
                {p} ({b} byte{b === 1 ? "" : "s"} per element)
              </option>
            ))}
          </select>
          {errorOf("precision")}
        </div>
      </fieldset>

      <div className="field">
        <label htmlFor={id("ranks")}>Ranks</label>
        <select
          id={id("ranks")}
          value={mode}
          onChange={(e) =>
            onUpdate(withRankMode(gen, e.target.value as RankMode, byNodeOrder(hostNodes.map((n) => n.id)), servers))
          }
        >
          <option value="all">every host, in node order</option>
          <option value="hosts">listed hosts, in rank order</option>
          <option value="servers">a number of servers, placed</option>
        </select>
      </div>
      {mode === "hosts" && (
        <HostListField
          label="Ranks (hosts)"
          value={gen.hosts as string[] | undefined}
          graph={graph}
          optional={false}
          index={index}
          field="hosts"
          onChange={(v) => set("hosts", v)}
          onStartPick={onStartPick}
        />
      )}
      {mode === "servers" && (
        <>
          {number("servers", "Servers", `all their NICs are ranks${servers ? `; ${servers} on this fabric` : ""}`)}
          <div className="field">
            <label htmlFor={id("placement")}>Placement</label>
            <select
              id={id("placement")}
              value={String(trainingValue(gen, "placement"))}
              onChange={(e) => set("placement", e.target.value)}
            >
              <option value="packed">packed (the first free servers)</option>
              <option value="spread">spread (across leaves or units)</option>
              <option value="random">random (from the seed)</option>
            </select>
          </div>
        </>
      )}

      <details className="generator-more">
        <summary>Algorithms, buckets, iterations, job name</summary>
        {(
          [
            ["tp_algorithm", "TP algorithm", sequenceParallel],
            ["dp_algorithm", "DP algorithm", distributed],
          ] as const
        ).map(([path, label, split]) => (
          <div className="field" key={path}>
            <label htmlFor={id(path)}>
              {label} <span className="unit">({split ? "reduce-scatter + all-gather" : "all-reduce"})</span>
            </label>
            <select
              id={id(path)}
              value={String(trainingValue(gen, path))}
              aria-invalid={!!err(path)}
              onChange={(e) => set(path, e.target.value)}
            >
              {algorithms(split).map((a) => (
                <option key={a} value={a}>
                  {a.replace(/_/g, " ")}
                </option>
              ))}
            </select>
            {errorOf(path)}
          </div>
        ))}
        {MORE.map((f) => number(f.path, f.label, f.unit))}
        <div className="field">
          <label htmlFor={id("job")}>
            Job name <span className="unit">(in the results; empty: the generator's name)</span>
          </label>
          <input
            id={id("job")}
            value={(gen.job as string) ?? ""}
            aria-invalid={!!err("job")}
            onChange={(e) => set("job", e.target.value || undefined)}
          />
          {errorOf("job")}
        </div>
      </details>
    </>
  );
}
