import { useState } from "react";
import { NIC_FIELDS, SWITCH_FIELDS } from "../lib/scenario/fields";

export interface ParamChoice {
  path: string;
  label: string;
  unit?: string;
  numeric: boolean;
}

/** The scenario parameters a sweep or a tuning can vary, named as in the editor (its field list). */
export const PARAM_CHOICES: ParamChoice[] = [
  ...SWITCH_FIELDS.filter((f) => f.type !== "bool").map((f) => ({ path: `switch.${f.path}`, label: `Switch: ${f.label}`, unit: f.unit, numeric: f.type !== "select" })),
  ...NIC_FIELDS.filter((f) => f.type !== "bool").map((f) => ({ path: `nic.${f.path}`, label: `NIC: ${f.label}`, unit: f.unit, numeric: f.type === "number" || f.type === "auto-number" })),
  { path: "traffic.0.size_bytes", label: "Traffic 1: flow size", unit: "bytes", numeric: true },
  { path: "duration_us", label: "Duration", unit: "µs", numeric: true },
];

const OTHER = "__other__";

/**
 * One parameter picker for the sweep and the tuning forms: the editor's fields by name (with
 * their unit), and, where the form allows it, any other dotted path typed by hand.
 */
export function ParamPicker({ value, onChange, label, numericOnly = false, allowOther = false, extra = [] }: {
  value: string;
  onChange: (path: string) => void;
  /** The accessible name ("Parameter 1"). */
  label: string;
  /** Only numeric fields (a tuning searches numbers). */
  numericOnly?: boolean;
  /** Offer "Other path…" with a text box (a sweep takes any path of the scenario). */
  allowOther?: boolean;
  /** Choices before the fields (a sweep's "seed"). */
  extra?: ParamChoice[];
}) {
  const choices = [...extra, ...PARAM_CHOICES.filter((c) => !numericOnly || c.numeric)];
  const known = choices.some((c) => c.path === value);
  const [typing, setTyping] = useState(allowOther && !known && value !== "");
  const other = allowOther && (typing || !known);
  return (
    <span className="param-picker">
      <select aria-label={label} value={other ? OTHER : value} onChange={(e) => {
        if (e.target.value === OTHER) { setTyping(true); onChange(""); } else { setTyping(false); onChange(e.target.value); }
      }}>
        {!known && !allowOther && <option value={value}>{value || "choose…"}</option>}
        {choices.map((c) => <option key={c.path} value={c.path}>{c.label}{c.unit ? ` (${c.unit})` : ""}</option>)}
        {allowOther && <option value={OTHER}>Other path…</option>}
      </select>
      {other && (
        <input aria-label={`${label} path`} placeholder="dotted path, e.g. traffic.1.size_bytes" value={value} size={24}
          onChange={(e) => onChange(e.target.value)} />
      )}
    </span>
  );
}
