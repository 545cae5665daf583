import { useId } from "react";
import type { FieldSpec } from "../lib/scenario/fields";
import { GlossaryTip } from "./GlossaryTip";

export interface FieldInputProps {
  spec: FieldSpec;
  value: unknown;
  /** What applies when this field is unset (the default or the fabric-wide value). */
  placeholder?: unknown;
  onChange: (value: number | string | boolean | undefined) => void;
  error?: string;
  cellBytes?: number;
  /** Glossary key of the field ("switch.ecn.kmin_bytes"): adds its tooltip. */
  term?: string;
}

/** One labelled parameter with its unit, a hint (e.g. bytes in cells) and an inline error. */
export function FieldInput({ spec, value, placeholder, onChange, error, cellBytes = 208, term }: FieldInputProps) {
  const id = useId();
  const shown = value ?? placeholder;
  const hint = spec.hint?.(shown, { cellBytes });
  let control: React.ReactNode;
  if (spec.type === "bool") {
    control = (
      <select id={id} value={value === undefined ? "" : String(value)} onChange={(e) => onChange(e.target.value === "" ? undefined : e.target.value === "true")} aria-invalid={!!error}>
        <option value="">{placeholder === undefined ? "default" : `default (${String(placeholder)})`}</option>
        <option value="true">on</option>
        <option value="false">off</option>
      </select>
    );
  } else if (spec.type === "select") {
    control = (
      <select id={id} value={value === undefined ? "" : String(value)} onChange={(e) => onChange(e.target.value || undefined)} aria-invalid={!!error}>
        <option value="">{placeholder === undefined ? "default" : `default (${String(placeholder)})`}</option>
        {spec.options!.map((o) => <option key={o} value={o}>{o}</option>)}
      </select>
    );
  } else {
    control = (
      <input
        id={id}
        type={spec.type === "auto-number" ? "text" : "number"}
        step={spec.step ?? "any"}
        value={value === undefined ? "" : String(value)}
        placeholder={placeholder === undefined ? "" : String(placeholder)}
        aria-invalid={!!error}
        aria-describedby={error ? `${id}-err` : undefined}
        onChange={(e) => {
          const raw = e.target.value.trim();
          if (raw === "") return onChange(undefined);
          if (spec.type === "auto-number" && raw === (spec.keyword ?? "auto")) return onChange(raw);
          const n = Number(raw);
          onChange(Number.isFinite(n) ? n : raw);
        }}
      />
    );
  }
  return (
    <div className={`field${error ? " has-error" : ""}`}>
      <span className="field-head">
        <label htmlFor={id}>
          {spec.label}
          {spec.unit && <span className="unit"> ({spec.unit})</span>}
        </label>
        {term && <GlossaryTip term={term} />}
      </span>
      {control}
      {hint && <small className="hint">{hint}</small>}
      {error && <small className="field-error" id={`${id}-err`} role="alert">{error}</small>}
    </div>
  );
}
