import { FieldInput } from "../../../components/FieldInput";
import { NIC_DEFAULTS, NIC_FIELDS, RUN_FIELDS, SWITCH_DEFAULTS, SWITCH_FIELDS } from "../../../lib/scenario/fields";
import { getPath } from "../../../lib/scenario/paths";
import type { Json, Scenario } from "../../../lib/scenario/types";


/** Scenario-wide settings: run length, switch defaults, NIC defaults (incl. the DCQCN preset). */
export function ParamsPanel({ doc, errors, onSet }: {
  doc: Scenario;
  errors: Record<string, string>;
  onSet: (path: string, value: Json | undefined) => void;
}) {
  const cellBytes = Number(getPath(doc, "switch.cell_bytes") ?? 208);
  // The DCQCN preset this scenario runs: its own, else the contract's default (nvidia-default).
  const ccPreset = String(getPath(doc, "nic.cc.preset") ?? NIC_DEFAULTS["cc.preset"]);
  return (
    <div className="params-panel">
      <details open>
        <summary>Run</summary>
        <label className={`field${errors.name ? " has-error" : ""}`}>
          <span>Name</span>
          <input value={doc.name ?? ""} onChange={(e) => onSet("name", e.target.value)} aria-label="Scenario name"
            aria-invalid={!!errors.name} aria-describedby={errors.name ? "scenario-name-error" : undefined} />
          {errors.name && <small className="field-error" id="scenario-name-error" role="alert">{errors.name}</small>}
        </label>
        {RUN_FIELDS.map((f) => (
          <FieldInput key={f.path} spec={{ path: f.path, label: f.label, unit: f.unit, type: "number" }}
            value={getPath(doc, f.path) ?? undefined} placeholder={f.placeholder}
            error={errors[f.path]} term={f.path} onChange={(v) => onSet(f.path, v)} />
        ))}
      </details>
      <details open>
        <summary>Switch defaults</summary>
        {SWITCH_FIELDS.map((f) => (
          <FieldInput key={f.path} spec={f} value={getPath(doc.switch, f.path) ?? undefined}
            placeholder={SWITCH_DEFAULTS[f.path]} cellBytes={cellBytes}
            error={errors[`switch.${f.path}`]} term={`switch.${f.path}`} onChange={(v) => onSet(`switch.${f.path}`, v)} />
        ))}
      </details>
      <details>
        <summary>NIC defaults (DCQCN: <span data-testid="cc-preset-in-use">{ccPreset}</span>)</summary>
        {NIC_FIELDS.map((f) => (
          <FieldInput key={f.path} spec={f} value={getPath(doc.nic, f.path) ?? undefined}
            placeholder={NIC_DEFAULTS[f.path] ?? `from ${ccPreset}`}
            error={errors[`nic.${f.path}`]} term={`nic.${f.path}`} onChange={(v) => onSet(`nic.${f.path}`, v)} />
        ))}
      </details>
      {Object.entries(errors)
        .filter(([k]) => !k.startsWith("traffic.") && k !== "topology" && !k.startsWith("topology.") && !k.includes("_overrides.") && !isShown(k))
        .map(([k, m]) => <p key={k} className="field-error" role="alert">{m}</p>)}
    </div>
  );
}

function isShown(path: string) {
  return (
    path === "name" ||
    RUN_FIELDS.some((f) => f.path === path) ||
    SWITCH_FIELDS.some((f) => `switch.${f.path}` === path) ||
    NIC_FIELDS.some((f) => `nic.${f.path}` === path)
  );
}
