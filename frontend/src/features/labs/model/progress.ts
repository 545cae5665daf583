// Lab progress kept in this browser: the active lab, ticked steps, predictions and the result each
// prediction is compared with. Pages send signals (preset opened, document changed, run finished);
// the lab dock turns them into ticks with `stepDone`.
import { NIC_DEFAULTS, SWITCH_DEFAULTS } from "../../../lib/scenario/fields";
import { getPath } from "../../../lib/scenario/paths";
import type { Json, Scenario } from "../../../lib/scenario/types";

export interface StepCheck {
  kind: "preset_opened" | "param_changed" | "run_finished" | "prediction_saved";
  preset?: string | null;
  path?: string | null;
  value?: Json;
  prediction?: string | null;
  /** run_finished: further paths the run's scenario must have at these values (null: unset, 0 or false). */
  also?: Record<string, Json> | null;
}

export type LabSignal =
  | { kind: "preset_opened"; preset: string }
  | { kind: "doc"; doc: Scenario }
  | { kind: "run_finished"; runId: string; doc: Scenario; summary?: Record<string, unknown>; metrics?: Record<string, unknown> };

export interface LabProgress {
  done: Record<string, boolean>;
  predictions: Record<string, string>;
  /** Per prediction, the latest finished run its question is about and the metric it gave. */
  results?: Record<string, { runId: string; value: number }>;
}

/** A prediction's question, the run it is about (a run_finished check) and the summary metric. */
export interface PredictionSpec {
  id: string;
  metric?: string | null;
  run?: StepCheck | null;
}

const ACTIVE = "fabrictwin.lab.active";
const key = (slug: string) => `fabrictwin.lab.${slug}`;
const listeners = new Set<() => void>();
const signalListeners = new Set<(s: LabSignal) => void>();

function read<T>(k: string, fallback: T): T {
  try {
    const raw = window.localStorage.getItem(k);
    return raw ? (JSON.parse(raw) as T) : fallback;
  } catch {
    return fallback;
  }
}

function write(k: string, v: unknown) {
  try {
    if (v === null) window.localStorage.removeItem(k);
    else window.localStorage.setItem(k, JSON.stringify(v));
  } catch {
    /* storage disabled: progress lives as long as the page */
  }
  for (const l of listeners) l();
}

export const subscribeLabs = (l: () => void) => { listeners.add(l); return () => { listeners.delete(l); }; };
export const activeLab = (): string | null => read<string | null>(ACTIVE, null);
export const setActiveLab = (slug: string | null) => write(ACTIVE, slug);
export const labProgress = (slug: string): LabProgress => ({ done: {}, predictions: {}, ...read<Partial<LabProgress>>(key(slug), {}) });
export function updateProgress(slug: string, change: (p: LabProgress) => LabProgress) {
  write(key(slug), change(labProgress(slug)));
}

const recent = new Map<LabSignal["kind"], LabSignal>();

/** Pages call this; the lab dock listens (and replays the latest of each kind once its lab loads). */
export function labSignal(s: LabSignal) {
  recent.set(s.kind, s);
  for (const l of signalListeners) l(s);
}
export const recentSignals = (): LabSignal[] => [...recent.values()];
export const onLabSignal = (l: (s: LabSignal) => void) => { signalListeners.add(l); return () => { signalListeners.delete(l); }; };

/** The value at `path`, or the default the editor shows for unset switch and NIC fields. */
export function effectiveValue(doc: Scenario, path: string): Json | undefined {
  const v = getPath(doc, path);
  if (v !== undefined) return v;
  if (path.startsWith("switch.")) return SWITCH_DEFAULTS[path.slice(7)] as Json | undefined;
  if (path.startsWith("nic.")) return NIC_DEFAULTS[path.slice(4)] as Json | undefined;
  return undefined;
}

const same = (a: Json | undefined, b: Json | undefined) => JSON.stringify(a) === JSON.stringify(b);

/**
 * What a prediction's `metric` is read from (docs/labs/README.md): the run summary's fields, each
 * collective job by name under `jobs` (`jobs.ring.busbw_gbps`) and the result's `pingmesh`.
 */
export function runMetrics(summary: Record<string, unknown>, jobs: { name: string }[] = [], pingmesh?: unknown): Record<string, unknown> {
  return { ...summary, jobs: Object.fromEntries(jobs.map((j) => [j.name, j])), ...(pingmesh ? { pingmesh } : {}) };
}

/** Whether a signal completes a step's check; `presetDoc` is the lab preset's document and
 * `presetDocs` any preset's by key (a run of another preset "as it is", lab 9's MoE all-to-all). */
export function stepDone(check: StepCheck, signal: LabSignal, presetDoc?: Scenario, presetDocs?: Record<string, Scenario>): boolean {
  if (check.kind === "preset_opened") return signal.kind === "preset_opened" && signal.preset === check.preset;
  if (check.kind === "param_changed") {
    if (signal.kind !== "doc" || !check.path) return false;
    const v = effectiveValue(signal.doc, check.path);
    if (check.value !== undefined && check.value !== null) return same(v, check.value);
    return presetDoc ? !same(v, effectiveValue(presetDoc, check.path)) : false;
  }
  if (check.kind === "run_finished") {
    if (signal.kind !== "run_finished") return false;
    for (const [path, want] of Object.entries(check.also ?? {})) {
      const v = effectiveValue(signal.doc, path);
      if (want === null ? !(v === undefined || v === null || v === 0 || v === false) : !same(v, want)) return false;
    }
    if (check.path) return same(effectiveValue(signal.doc, check.path), check.value);
    // "the preset as it is": the run's scenario is the lab's preset, nothing changed
    if (check.preset) {
      const doc = presetDocs ? presetDocs[check.preset] : presetDoc;
      return !!doc && sameScenario(signal.doc, doc);
    }
    return true;
  }
  return false;
}

/** Two scenario documents alike in every setting (name, description and key order aside). */
export function sameScenario(a: Scenario, b: Scenario): boolean {
  const settings = (d: Scenario) => canonical({ ...d, name: undefined, description: undefined });
  return settings(a) === settings(b);
}

function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(",")}]`;
  if (v && typeof v === "object") {
    const entries = Object.entries(v as Record<string, unknown>).filter(([, x]) => x !== undefined && x !== null).sort(([a], [b]) => (a < b ? -1 : 1));
    return `{${entries.map(([k, x]) => `${JSON.stringify(k)}:${canonical(x)}`).join(",")}}`;
  }
  return JSON.stringify(v);
}

/** The predictions a finished run answers: each whose run condition it meets, with its metric. */
export function predictionResults(predictions: PredictionSpec[], signal: LabSignal, presetDoc?: Scenario, presetDocs?: Record<string, Scenario>): Record<string, { runId: string; value: number }> {
  if (signal.kind !== "run_finished") return {};
  const metrics = signal.metrics ?? signal.summary;
  if (!metrics) return {};
  const out: Record<string, { runId: string; value: number }> = {};
  for (const p of predictions) {
    if (!p.metric) continue;
    if (p.run && !stepDone(p.run, signal, presetDoc, presetDocs)) continue;
    const v = getPath(metrics, p.metric);
    if (typeof v === "number") out[p.id] = { runId: signal.runId, value: v };
  }
  return out;
}
