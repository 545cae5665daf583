import { FieldInput } from "../../../components/FieldInput";
import { GlossaryTip } from "../../../components/GlossaryTip";
import { NIC_FIELDS, SWITCH_FIELDS } from "../../../lib/scenario/fields";
import { getPath } from "../../../lib/scenario/paths";
import { schemaRange } from "../../../lib/scenario/ranges";
import { FIBRE_US_PER_KM } from "../../../lib/topology/linkLabels";
import type { ExplicitLink, Json, JsonObject } from "../../../lib/scenario/types";
import type { LayoutGraph } from "../../../lib/topology/types";

/** A drawn link's rate range (backend/app/scenarios/topology.py ExplicitLink). */
const RATE = schemaRange("ExplicitLink.rate_gbps");

export interface SelectionPanelProps {
  graph: LayoutGraph;
  selected: string[];
  link: { index: number; link: ExplicitLink } | null;
  switchDefaults: JsonObject;
  nicDefaults: JsonObject;
  switchOverrides: Record<string, JsonObject>;
  nicOverrides: Record<string, JsonObject>;
  errors: Record<string, string>;
  onOverride: (scope: "switch" | "nic", ids: string[], path: string, value: Json | undefined) => void;
  onLinkChange: (index: number, patch: Partial<ExplicitLink>) => void;
}

/** Properties of the selected link, or per-node overrides of the selected switches/hosts. */
export function SelectionPanel(p: SelectionPanelProps) {
  if (p.link) return <LinkProperties {...p} link={p.link} />;
  if (p.selected.length === 0) {
    return <p className="hint">Select a node (click, shift-click, shift-drag) or a link to edit its properties.</p>;
  }
  const kinds = new Map(p.graph.nodes.map((n) => [n.id, n.kind]));
  const switches = p.selected.filter((id) => kinds.get(id) === "switch");
  const hosts = p.selected.filter((id) => kinds.get(id) === "host");
  const scope = switches.length > 0 ? "switch" : "nic";
  const ids = scope === "switch" ? switches : hosts;
  const fields = scope === "switch" ? SWITCH_FIELDS : NIC_FIELDS;
  const overrides = scope === "switch" ? p.switchOverrides : p.nicOverrides;
  const defaults = scope === "switch" ? p.switchDefaults : p.nicDefaults;
  const first = overrides[ids[0]] ?? {};
  const cellBytes = Number(getPath(p.switchDefaults, "cell_bytes") ?? 208);
  return (
    <div className="selection-panel">
      <h4>
        {ids.length === 1 ? ids[0] : `${ids.length} ${scope === "switch" ? "switches" : "hosts"}`}
        {switches.length > 0 && hosts.length > 0 && <small> ({hosts.length} hosts ignored: select one kind)</small>}
      </h4>
      <p className="hint">{scope === "switch" ? "Switch" : "NIC"} overrides; empty fields use the fabric-wide value.</p>
      {fields.map((f) => {
        const errKey = `${scope}_overrides.${ids[0]}.${f.path}`;
        return (
          <FieldInput
            key={f.path}
            spec={f}
            value={getPath(first, f.path) ?? undefined}
            placeholder={getPath(defaults, f.path) ?? undefined}
            cellBytes={cellBytes}
            error={p.errors[errKey]}
            term={`${scope}.${f.path}`}
            onChange={(v) => p.onOverride(scope, ids, f.path, v)}
          />
        );
      })}
    </div>
  );
}

function LinkProperties({ link, onLinkChange, errors }: SelectionPanelProps & { link: { index: number; link: ExplicitLink } }) {
  const { index, link: l } = link;
  const usesLength = l.length_km !== undefined;
  const prefix = `topology.links.${index}`;
  const distance = schemaRange(usesLength ? "ExplicitLink.length_km" : "ExplicitLink.delay_us");
  return (
    <div className="selection-panel">
      <h4>Link {l.a} ↔ {l.b}</h4>
      <div className="field">
        <span className="field-head"><span>Rate <span className="unit">(Gbit/s)</span></span><GlossaryTip term="topology.links.rate_gbps" /></span>
        <input type="number" min={RATE.min} max={RATE.max} value={l.rate_gbps} aria-label="Link rate (Gbit/s)"
          onChange={(e) => onLinkChange(index, { rate_gbps: Number(e.target.value) })} />
        {errors[`${prefix}.rate_gbps`] && <small className="field-error">{errors[`${prefix}.rate_gbps`]}</small>}
      </div>
      <div className="field">
        <span className="field-head"><span>{usesLength ? "Length" : "Delay"} <span className="unit">({usesLength ? `km, ${FIBRE_US_PER_KM} us/km` : "us"})</span></span><GlossaryTip term={usesLength ? "topology.links.length_km" : "topology.links.delay_us"} /></span>
        <input type="number" min={distance.min} max={distance.max} step="any" value={usesLength ? l.length_km : (l.delay_us ?? 1)}
          aria-label={usesLength ? "Link length (km)" : "Link delay (us)"}
          onChange={(e) => onLinkChange(index, usesLength ? { length_km: Number(e.target.value) } : { delay_us: Number(e.target.value) })} />
        {errors[`${prefix}.${usesLength ? "length_km" : "delay_us"}`] && <small className="field-error">{errors[`${prefix}.${usesLength ? "length_km" : "delay_us"}`]}</small>}
      </div>
      <button type="button" className="small" onClick={() => onLinkChange(index, usesLength ? { delay_us: (l.length_km ?? 0) * FIBRE_US_PER_KM } : { length_km: (l.delay_us ?? 1) / FIBRE_US_PER_KM })}>
        Use {usesLength ? "delay" : "length"} instead
      </button>
    </div>
  );
}
