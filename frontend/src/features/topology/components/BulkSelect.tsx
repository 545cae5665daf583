import { useMemo, useState } from "react";
import { type BulkFilter, podsOf, selectNodes } from "../../../lib/topology/bulk";
import type { LayoutGraph } from "../../../lib/topology/types";

export interface BulkSelectProps {
  graph: LayoutGraph;
  /** Replaces the selection; the Selection panel then sets overrides on all of it. */
  onSelect: (ids: string[]) => void;
}

/** Tier rows described by their first members: "tier 1 (edge0_0, edge0_1, …)". */
function tierOptions(graph: LayoutGraph) {
  const byTier = new Map<number, string[]>();
  for (const n of graph.nodes) {
    const list = byTier.get(n.tier) ?? [];
    if (list.length < 3) list.push(n.id);
    byTier.set(n.tier, list);
  }
  const count = new Map<number, number>();
  for (const n of graph.nodes) count.set(n.tier, (count.get(n.tier) ?? 0) + 1);
  return [...byTier.keys()].sort((a, b) => a - b).map((t) => ({
    tier: t,
    label: `${t === 0 ? "hosts" : `tier ${t}`}: ${count.get(t)} (${byTier.get(t)!.join(", ")}${count.get(t)! > 3 ? ", …" : ""})`,
  }));
}

/**
 * Bulk selection: by tier, pod/podset and name pattern (all that are set must match). What it
 * selects is edited in the Selection panel below, which writes one override per node.
 */
export function BulkSelect({ graph, onSelect }: BulkSelectProps) {
  const [filter, setFilter] = useState<BulkFilter>({});
  const tiers = useMemo(() => tierOptions(graph), [graph]);
  const pods = useMemo(() => podsOf(graph.nodes), [graph]);
  const matches = useMemo(() => selectNodes(graph.nodes, filter), [graph, filter]);
  const any = filter.tier !== undefined || filter.pod !== undefined || !!filter.pattern?.trim();
  return (
    <div className="bulk-select">
      <label className="field">
        <span>Tier</span>
        <select aria-label="Bulk select tier" value={filter.tier ?? ""}
          onChange={(e) => setFilter({ ...filter, tier: e.target.value === "" ? undefined : Number(e.target.value) })}>
          <option value="">any tier</option>
          {tiers.map((t) => <option key={t.tier} value={t.tier}>{t.label}</option>)}
        </select>
      </label>
      {pods.length > 0 && (
        <label className="field">
          <span>Pod</span>
          <select aria-label="Bulk select pod" value={filter.pod ?? ""}
            onChange={(e) => setFilter({ ...filter, pod: e.target.value || undefined })}>
            <option value="">any pod</option>
            {pods.map((p) => <option key={p} value={p}>{p}</option>)}
          </select>
        </label>
      )}
      <label className="field">
        <span>Name pattern <span className="unit">(* and ?)</span></span>
        <input type="text" aria-label="Bulk select name pattern" placeholder="edge*_0" value={filter.pattern ?? ""}
          onChange={(e) => setFilter({ ...filter, pattern: e.target.value })} />
      </label>
      <div className="row">
        <button type="button" disabled={!any || matches.length === 0} onClick={() => onSelect(matches)}>
          Select {any ? matches.length.toLocaleString("en") : ""} {matches.length === 1 ? "node" : "nodes"}
        </button>
        {any && <button type="button" className="small" onClick={() => setFilter({})}>Clear</button>}
      </div>
      <p className="hint">Then set a switch or NIC field in Selection: it is written as an override on every selected node.</p>
    </div>
  );
}
