import { useMemo, useState } from "react";
import type { ReportEntry } from "../api/realFabric";

const STATUSES = ["mapped", "read", "ignored", "kept"] as const;
const TITLES: Record<(typeof STATUSES)[number], string> = {
  mapped: "set a parameter", read: "read (ports, links)", ignored: "ignored", kept: "kept as it was",
};

function shown(v: unknown): string {
  if (v == null) return "";
  return typeof v === "object" ? JSON.stringify(v) : String(v);
}

/**
 * The import's report, field by field: what was read, which parameter it set and how it was
 * converted, what was ignored and why, and what the files left as it was. Filter by status.
 */
export function ReportTable({ entries }: { entries: ReportEntry[] }) {
  const [only, setOnly] = useState<Set<string>>(new Set(STATUSES));
  const counts = useMemo(() => Object.fromEntries(STATUSES.map((s) => [s, entries.filter((e) => e.status === s).length])), [entries]);
  const rows = entries.filter((e) => only.has(e.status));
  return (
    <div className="import-report">
      <div className="row report-filters" role="group" aria-label="Show">
        {STATUSES.map((s) => (
          <label key={s} className="check">
            <input type="checkbox" checked={only.has(s)} onChange={() => setOnly((cur) => {
              const next = new Set(cur);
              if (next.has(s)) next.delete(s); else next.add(s);
              return next;
            })} />
            <span className={`report-status status-${s}`}>{s}</span> {TITLES[s]} ({counts[s]})
          </label>
        ))}
      </div>
      <div className="table-scroll">
        <table className="data-table report-table" data-testid="import-report">
          <thead>
            <tr><th>Status</th><th>From</th><th>Value</th><th>Parameter</th><th>Becomes</th><th>How / why</th></tr>
          </thead>
          <tbody>
            {rows.map((e, i) => (
              <tr key={i} data-status={e.status}>
                <td><span className={`report-status status-${e.status}`}>{e.status}</span></td>
                <td><code>{e.source ?? ""}</code></td>
                <td>{e.value ?? ""}</td>
                <td>{e.parameter ? <code>{e.parameter}</code> : ""}</td>
                <td>{shown(e.converted)}</td>
                <td>{[e.conversion, e.note].filter(Boolean).join(" — ")}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}
