// The `training` generator in the editor: its model presets, the ranks its plan needs against the
// ranks the job has, and the ranges of its fields, all read from the generated contract
// (backend/app/scenarios/traffic.py: Training, TrainingModel, TrainingParallel, TrainingGpu).
import type { FieldContract, NumberRange } from "../../../lib/scenario/contract.gen";
import { TRAINING_CONTRACT, TRAINING_MODELS, TRAINING_MODEL_CONTRACT } from "../../../lib/scenario/contract.gen";
import type { TrafficGenerator } from "../../../lib/scenario/types";
import type { LayoutGraph } from "../../../lib/topology/types";
import { formatCount } from "../../../lib/format";

/** The public models, in the contract's order. */
export const MODEL_NAMES = Object.keys(TRAINING_MODELS);

/** A model's dimensions: a preset's from the contract's table, else the object given. */
export function modelDims(model: unknown): Record<string, number | boolean> | null {
  if (typeof model === "string") return TRAINING_MODELS[model] ?? null;
  if (model && typeof model === "object") return model as Record<string, number | boolean>;
  return null;
}

/** "80 layers, hidden 8,192, FFN 28,672, 64 heads, sequence 8,192, vocabulary 128,256; 8 experts, top 2". */
export function dimsText(d: Record<string, number | boolean> | null): string {
  if (!d) return "";
  const n = (k: string) => formatCount(Number(d[k]));
  const dense = `${n("layers")} layers, hidden ${n("hidden")}, FFN ${d.ffn_hidden != null ? n("ffn_hidden") : `4 × hidden`}, ${n("heads")} heads, sequence ${n("seq_len")}, vocabulary ${n("vocab")}`;
  const moe = Number(d.experts ?? 1) > 1 ? `; ${n("experts")} experts, top ${n("top_k")}` : "";
  return `${dense}${moe}${d.gated ? "; SwiGLU MLP" : ""}`;
}

/** A field's value, or its default from the contract ("parallel.tp" reads gen.parallel.tp). */
export function trainingValue(gen: TrafficGenerator, path: string): unknown {
  const [head, tail] = path.split(".");
  const v = tail ? (gen[head] as Record<string, unknown> | undefined)?.[tail] : gen[head];
  return v ?? TRAINING_CONTRACT[path]?.default;
}

/** The generator with one field set ("parallel.tp" sets gen.parallel.tp); undefined removes it. */
export function withTrainingValue(gen: TrafficGenerator, path: string, value: unknown): TrafficGenerator {
  const [head, tail] = path.split(".");
  const next = { ...gen } as TrafficGenerator;
  if (!tail) {
    if (value === undefined) delete next[head];
    else next[head] = value as never;
    return next;
  }
  const inner = { ...((gen[head] as Record<string, unknown> | undefined) ?? {}) };
  if (value === undefined) delete inner[tail];
  else inner[tail] = value;
  next[head] = inner as never;
  return next;
}

/** "1 .. 131,072", "above 0 up to 1" from a field's contract. */
export function rangeText(c: NumberRange | undefined): string {
  if (!c || (c.min === undefined && c.max === undefined)) return "";
  const f = (v: number) => (Number.isInteger(v) ? formatCount(v) : String(v));
  const lo = c.min === undefined ? "" : c.exclusiveMin ? `above ${f(c.min)}` : f(c.min);
  if (c.max === undefined || c.max >= 1e15) return c.exclusiveMin ? lo : `at least ${lo}`;
  return c.exclusiveMin ? `${lo} up to ${f(c.max)}` : `${lo} .. ${f(c.max)}`;
}

export const contractOf = (path: string): FieldContract | undefined =>
  path.startsWith("model.") ? TRAINING_MODEL_CONTRACT[path.slice(6)] : TRAINING_CONTRACT[path];

/** The ranks the job has: its listed hosts, its servers' NICs, or every host (null: unknown,
 *  e.g. servers on a fabric whose servers differ in size). */
export function jobRanks(gen: TrafficGenerator, graph: LayoutGraph | null): number | null {
  if (Array.isArray(gen.hosts)) return gen.hosts.length;
  const hosts = (graph?.nodes ?? []).filter((n) => n.kind === "host");
  if (typeof gen.servers === "number") {
    const sizes = new Map<string, number>();
    for (const h of hosts) sizes.set(h.server ?? h.id, (sizes.get(h.server ?? h.id) ?? 0) + 1);
    const distinct = new Set(sizes.values());
    if (distinct.size !== 1) return null;
    return gen.servers * [...distinct][0];
  }
  return graph ? hosts.length : null;
}

/** tp × pp × dp against the job's ranks, in words, and whether they match. */
export function productCheck(gen: TrafficGenerator, ranks: number | null): { ok: boolean | null; text: string } {
  const tp = Number(trainingValue(gen, "parallel.tp"));
  const pp = Number(trainingValue(gen, "parallel.pp"));
  const dp = Number(trainingValue(gen, "parallel.dp"));
  const product = tp * pp * dp;
  const plan = `${formatCount(tp)} × ${formatCount(pp)} × ${formatCount(dp)} = ${formatCount(product)} rank${product === 1 ? "" : "s"}`;
  if (![tp, pp, dp].every((v) => Number.isInteger(v) && v >= 1))
    return { ok: false, text: `tp, pp and dp must each be a whole number of at least 1` };
  if (ranks == null)
    return {
      ok: null,
      text: `${plan} (tp × pp × dp); the job's ranks are not known here (the fabric is not drawn yet, or its servers differ in size)`,
    };
  if (product === ranks) return { ok: true, text: `${plan}; the job has ${formatCount(ranks)}` };
  return { ok: false, text: `${plan}; the job has ${formatCount(ranks)}` };
}

/** A new training generator: the first public model with TP inside a server and DP across the
 *  rest of the hosts, one micro-batch, one iteration (the contract's defaults otherwise). */
export function newTrainingGenerator(hosts: number, nicsPerServer: number): TrafficGenerator {
  const model = MODEL_NAMES[0];
  const heads = Number(TRAINING_MODELS[model].heads);
  let tp = 1;
  while (tp * 2 <= Math.max(1, nicsPerServer) && hosts % (tp * 2) === 0 && heads % (tp * 2) === 0) tp *= 2;
  return { kind: "training", model, parallel: { tp, pp: 1, dp: Math.max(1, Math.floor(hosts / tp)) } };
}
