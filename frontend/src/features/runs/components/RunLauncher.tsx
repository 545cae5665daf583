import { useId, useState } from "react";
import { LIMITS } from "../../../lib/scenario/contract.gen";
import type { Engine } from "../api/runs";

const fmt = (n: number) => n.toLocaleString("en-US");
/** While GET /runs/limits loads, a list is still cut short here (far above any instance's limit,
 *  which the API then states) so that "1-2000000000" is not expanded in the browser. */
const UNKNOWN_LIMIT_CAP = 65_536;

/**
 * "1, 2, 5-7" as distinct seeds, or what is wrong with the text in words. `maxSeeds` is the most
 * one run request may start (GET /runs/limits max_seeds; unknown while it loads: the API then
 * says it); every seed is at most the scenario's largest seed (LIMITS.MAX_SEED).
 */
export function readSeeds(text: string, maxSeeds?: number): { seeds: number[] } | { error: string } {
  const SYNTAX = `whole numbers and ranges, e.g. 1, 2, 5-7${maxSeeds ? ` (at most ${maxSeeds} seeds)` : ""}`;
  const cap = maxSeeds ?? UNKNOWN_LIMIT_CAP;
  const out = new Set<number>();
  const parts = text.split(",").map((s) => s.trim()).filter(Boolean);
  if (parts.length === 0) return { error: `Seeds: enter ${SYNTAX}` };
  for (const part of parts) {
    const m = part.match(/^(\d+)(?:\s*-\s*(\d+))?$/);
    if (!m) return { error: `Seeds: "${part}" is not a seed; use ${SYNTAX}` };
    const a = Number(m[1]);
    const b = m[2] !== undefined ? Number(m[2]) : a;
    if (b < a) return { error: `Seeds: the range ${part} runs backwards; write ${b}-${a}` };
    if (b > LIMITS.MAX_SEED) return { error: `Seeds: ${fmt(b)} is above the largest seed, ${fmt(LIMITS.MAX_SEED)}` };
    if (b - a + 1 > cap) return { error: `Seeds: ${part} is ${fmt(b - a + 1)} seeds; one run request takes at most ${fmt(cap)}` };
    for (let s = a; s <= b && out.size <= cap; s += 1) out.add(s);
    if (out.size > cap) return { error: `Seeds: more than ${fmt(cap)} seeds; one run request takes at most ${fmt(cap)}` };
  }
  return { seeds: [...out] };
}

/** Parses "1, 2, 5-7" into distinct seeds; null when malformed or more than `maxSeeds`. */
export function parseSeeds(text: string, maxSeeds?: number): number[] | null {
  const r = readSeeds(text, maxSeeds);
  return "seeds" in r ? r.seeds : null;
}

/**
 * The threads box: empty is "auto" (the API picks from the fabric's size: GET /runs/limits),
 * else a whole number from 1 to `max` (the instance's MAX_RUN_THREADS; unknown while loading).
 */
export function readThreads(text: string, max?: number): { threads: number | undefined } | { error: string } {
  const t = text.trim();
  if (t === "") return { threads: undefined };
  const range = max ? `from 1 to ${max}` : "of 1 or more";
  if (!/^\d+$/.test(t) || Number(t) < 1 || (max !== undefined && Number(t) > max)) {
    return { error: `Threads: ${t} is not a whole number ${range}; leave it empty for auto (chosen from the fabric's size)` };
  }
  return { threads: Number(t) };
}

/** "2 threads, 2 partitions" (partitions once the run has them; fewer on small fabrics). */
export function threadsLabel(run: { threads?: number; partitions?: number | null }): string {
  const n = run.threads ?? 1;
  const threads = `${n} thread${n === 1 ? "" : "s"}`;
  if (run.partitions === undefined || run.partitions === null) return threads;
  return `${threads}, ${run.partitions} partition${run.partitions === 1 ? "" : "s"}`;
}

/**
 * Seeds, threads and engine fields and the Run button (the engine is passed only when it is the
 * flow-level engine, which runs on one thread: the threads box is then off). With a `warning` (e.g. a fabric with no traffic) the first
 * press only shows it and turns the button into "Run anyway"; with a `disabledReason` (invalid
 * fields) the button is disabled and says why in its title.
 */
export function RunLauncher({ onRun, busy, defaultSeed = 1, warning, disabledReason, maxThreads, maxSeeds }: {
  onRun: (seeds: number[], threads?: number, engine?: Engine) => void;
  busy: boolean;
  defaultSeed?: number;
  warning?: string | null;
  disabledReason?: string;
  maxThreads?: number;
  /** seeds one run request may start (GET /runs/limits) */
  maxSeeds?: number;
}) {
  const [text, setText] = useState(String(defaultSeed));
  const [threadsText, setThreadsText] = useState("");
  const [engine, setEngine] = useState<Engine>("packet");
  const flow = engine === "flow";
  const readT = readThreads(threadsText, maxThreads);
  const threadsId = useId();
  const [confirming, setConfirming] = useState(false);
  const read = readSeeds(text, maxSeeds);
  const seeds = "seeds" in read ? read.seeds : null;
  const errorId = useId();
  const ask = !!warning && !confirming;
  return (
    <form className="run-launcher row" onSubmit={(e) => {
      e.preventDefault();
      if (!seeds || disabledReason || (!flow && "error" in readT)) return;
      if (ask) {
        setConfirming(true);
        return;
      }
      setConfirming(false);
      if (flow) onRun(seeds, undefined, "flow");
      else if ("threads" in readT) onRun(seeds, readT.threads);
    }}>
      <label>
        Seeds{" "}
        <input value={text} onChange={(e) => setText(e.target.value)} size={8} aria-invalid={!seeds} aria-label="Seeds (e.g. 1, 2, 5-7)"
          aria-describedby={"error" in read ? errorId : undefined} />
      </label>
      <label title="Simulator threads of each run: results are the same for every value; auto picks from the fabric's size (1 below 128 hosts)">
        Threads{" "}
        <input type="number" min={1} max={maxThreads} step={1} value={flow ? "" : threadsText} placeholder={flow ? "1" : "auto"} className="threads-input" disabled={flow}
          onChange={(e) => setThreadsText(e.target.value)} aria-invalid={!flow && "error" in readT}
          aria-label={`Threads (empty: auto${maxThreads ? `; 1 to ${maxThreads}` : ""})`}
          aria-describedby={"error" in readT ? threadsId : undefined} />
      </label>
      <label title="The packet-level model is exact (queues, PFC, congestion control) and takes seconds to minutes; the flow-level engine shares links max-min fair and answers in a second at any size, saying what it leaves out">
        Engine{" "}
        <select value={engine} onChange={(e) => setEngine(e.target.value as Engine)} aria-label="Engine">
          <option value="packet">Packet level</option>
          <option value="flow">Flow level (estimate)</option>
        </select>
      </label>
      <button type="submit" className="primary" disabled={!seeds || (!flow && "error" in readT) || busy || !!disabledReason} title={disabledReason}>{busy ? "Starting…" : warning && confirming ? "Run anyway" : "Run"}</button>
      {"error" in read && <span className="run-warning seeds-error" id={errorId} role="alert">{read.error}</span>}
      {!flow && "error" in readT && <span className="run-warning seeds-error" id={threadsId} role="alert">{readT.error}</span>}
      {warning && confirming && <span className="run-warning" role="alert">{warning}</span>}
    </form>
  );
}
