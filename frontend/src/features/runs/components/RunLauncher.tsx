import { useId, useState } from "react";

/** The most seeds one run request may start (POST /runs: seeds max_length). */
export const MAX_SEEDS = 64;
const SYNTAX = `whole numbers and ranges, e.g. 1, 2, 5-7 (at most ${MAX_SEEDS} seeds)`;

/** "1, 2, 5-7" as distinct seeds, or what is wrong with the text in words. */
export function readSeeds(text: string): { seeds: number[] } | { error: string } {
  const out = new Set<number>();
  const parts = text.split(",").map((s) => s.trim()).filter(Boolean);
  if (parts.length === 0) return { error: `Seeds: enter ${SYNTAX}` };
  for (const part of parts) {
    const m = part.match(/^(\d+)(?:\s*-\s*(\d+))?$/);
    if (!m) return { error: `Seeds: "${part}" is not a seed; use ${SYNTAX}` };
    const a = Number(m[1]);
    const b = m[2] !== undefined ? Number(m[2]) : a;
    if (b < a) return { error: `Seeds: the range ${part} runs backwards; write ${b}-${a}` };
    if (b - a + 1 > MAX_SEEDS) return { error: `Seeds: ${part} is ${(b - a + 1).toLocaleString("en-US")} seeds; one run request takes at most ${MAX_SEEDS}` };
    for (let s = a; s <= b; s += 1) out.add(s);
    if (out.size > MAX_SEEDS) return { error: `Seeds: more than ${MAX_SEEDS} seeds; one run request takes at most ${MAX_SEEDS}` };
  }
  return { seeds: [...out] };
}

/** Parses "1, 2, 5-7" into distinct seeds; null when malformed or more than MAX_SEEDS. */
export function parseSeeds(text: string): number[] | null {
  const r = readSeeds(text);
  return "seeds" in r ? r.seeds : null;
}

/**
 * Seeds field and the Run button. With a `warning` (e.g. a fabric with no traffic) the first
 * press only shows it and turns the button into "Run anyway"; with a `disabledReason` (invalid
 * fields) the button is disabled and says why in its title.
 */
export function RunLauncher({ onRun, busy, defaultSeed = 1, warning, disabledReason }: {
  onRun: (seeds: number[]) => void;
  busy: boolean;
  defaultSeed?: number;
  warning?: string | null;
  disabledReason?: string;
}) {
  const [text, setText] = useState(String(defaultSeed));
  const [confirming, setConfirming] = useState(false);
  const read = readSeeds(text);
  const seeds = "seeds" in read ? read.seeds : null;
  const errorId = useId();
  const ask = !!warning && !confirming;
  return (
    <form className="run-launcher row" onSubmit={(e) => {
      e.preventDefault();
      if (!seeds || disabledReason) return;
      if (ask) {
        setConfirming(true);
        return;
      }
      setConfirming(false);
      onRun(seeds);
    }}>
      <label>
        Seeds{" "}
        <input value={text} onChange={(e) => setText(e.target.value)} size={8} aria-invalid={!seeds} aria-label="Seeds (e.g. 1, 2, 5-7)"
          aria-describedby={"error" in read ? errorId : undefined} />
      </label>
      <button type="submit" className="primary" disabled={!seeds || busy || !!disabledReason} title={disabledReason}>{busy ? "Starting…" : warning && confirming ? "Run anyway" : "Run"}</button>
      {"error" in read && <span className="run-warning seeds-error" id={errorId} role="alert">{read.error}</span>}
      {warning && confirming && <span className="run-warning" role="alert">{warning}</span>}
    </form>
  );
}
