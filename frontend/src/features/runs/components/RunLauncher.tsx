import { useState } from "react";

/** Parses "1, 2, 5-7" into distinct seeds; null when malformed. */
export function parseSeeds(text: string): number[] | null {
  const out: number[] = [];
  for (const part of text.split(",").map((s) => s.trim()).filter(Boolean)) {
    const m = part.match(/^(\d+)(?:\s*-\s*(\d+))?$/);
    if (!m) return null;
    const a = Number(m[1]);
    const b = m[2] !== undefined ? Number(m[2]) : a;
    if (b < a || b - a > 63) return null;
    for (let s = a; s <= b; s += 1) if (!out.includes(s)) out.push(s);
  }
  return out.length ? out : null;
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
  const seeds = parseSeeds(text);
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
        <input value={text} onChange={(e) => setText(e.target.value)} size={8} aria-invalid={!seeds} aria-label="Seeds (e.g. 1, 2, 5-7)" />
      </label>
      <button type="submit" className="primary" disabled={!seeds || busy || !!disabledReason} title={disabledReason}>{busy ? "Starting…" : warning && confirming ? "Run anyway" : "Run"}</button>
      {warning && confirming && <span className="run-warning" role="alert">{warning}</span>}
    </form>
  );
}
