import { useMemo } from "react";
import type { LayoutGraph } from "../../../lib/topology/types";

/** A request to pick hosts on the canvas for a traffic generator's field. */
export interface PickRequest {
  label: string;
  index: number;
  field: string;
  mode: "add" | "set";
}

/** A list of hosts chosen by clicking on the canvas, by group (the switch they hang off) or all. */
export function HostListField({ label, value, graph, optional, onChange, onStartPick, index, field }: {
  label: string;
  index: number;
  field: string;
  value: string[] | undefined;
  graph: LayoutGraph | null;
  optional?: boolean;
  onChange: (hosts: string[] | undefined) => void;
  onStartPick: (req: PickRequest) => void;
}) {
  const groups = useMemo(() => {
    const m = new Map<string, string[]>();
    for (const n of graph?.nodes ?? []) if (n.kind === "host") m.set(n.group ?? "", [...(m.get(n.group ?? "") ?? []), n.id]);
    return m;
  }, [graph]);
  const hosts = value ?? [];
  return (
    <div className="field host-list">
      <span>{label}</span>
      <div className="chips" aria-label={`${label}: ${hosts.length ? hosts.join(", ") : optional ? "all hosts" : "none"}`}>
        {hosts.length === 0 && <em>{optional ? "all hosts" : "none yet"}</em>}
        {hosts.map((h) => (
          <button key={h} type="button" className="chip" onClick={() => onChange(hosts.filter((x) => x !== h))} title="Remove">{h} ×</button>
        ))}
      </div>
      <div className="row">
        <button type="button" className="small" onClick={() => onStartPick({ label: `add to ${label.toLowerCase()}`, index, field, mode: "add" })}>
          Pick on canvas
        </button>
        <select aria-label={`Add a group to ${label}`} value="" onChange={(e) => {
          const g = groups.get(e.target.value);
          if (g) onChange([...new Set([...hosts, ...g])]);
        }}>
          <option value="">Add group…</option>
          {[...groups.keys()].map((g) => <option key={g} value={g}>{g || "(no group)"} ({groups.get(g)!.length})</option>)}
        </select>
        {hosts.length > 0 && <button type="button" className="small" onClick={() => onChange(optional ? undefined : [])}>Clear</button>}
      </div>
    </div>
  );
}

