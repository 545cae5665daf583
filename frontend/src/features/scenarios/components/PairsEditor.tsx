import { useState } from "react";

/**
 * A list of (source, destination) pairs. `options` are hosts for `pairs` and ToR switches for
 * `tor_pairs`; a pair whose two ends are equal, or that is already listed, is refused with a reason.
 */
export function PairsEditor({ label, pairs, options, onChange }: {
  label: string;
  pairs: [string, string][];
  options: string[];
  onChange: (p: [string, string][]) => void;
}) {
  const [src, setSrc] = useState<string | null>(null);
  const [dst, setDst] = useState<string | null>(null);
  const [why, setWhy] = useState<string | null>(null);
  // until the user picks, the first two options (never the same one twice)
  const from = src ?? options[0] ?? "";
  const to = dst ?? options.find((o) => o !== from) ?? "";
  const add = () => {
    if (!from || !to) return setWhy("The fabric has no endpoints to pair yet.");
    if (from === to) return setWhy(`A pair needs two different ends: ${from} cannot send to itself.`);
    if (pairs.some(([a, b]) => a === from && b === to)) return setWhy(`${from} → ${to} is already in the list.`);
    setWhy(null);
    onChange([...pairs, [from, to]]);
  };
  return (
    <div className="field">
      <span>{label} (source → destination)</span>
      {pairs.length === 0 ? <em className="hint">No pairs yet.</em> : (
        <ul className="pairs" aria-label={label}>
          {pairs.map(([a, b], i) => (
            <li key={`${a}-${b}-${i}`}>{a} → {b} <button type="button" className="small" aria-label={`Remove pair ${a} → ${b}`}
              onClick={() => onChange(pairs.filter((_, j) => j !== i))}>×</button></li>
          ))}
        </ul>
      )}
      <div className="row">
        <select aria-label="Pair source" value={from} onChange={(e) => { setSrc(e.target.value); setWhy(null); }}>
          {options.map((h) => <option key={h}>{h}</option>)}
        </select>
        →
        <select aria-label="Pair destination" value={to} onChange={(e) => { setDst(e.target.value); setWhy(null); }}>
          {options.map((h) => <option key={h}>{h}</option>)}
        </select>
        <button type="button" className="small" onClick={add}>Add pair</button>
      </div>
      {why && <small className="field-note" role="status">{why}</small>}
    </div>
  );
}
