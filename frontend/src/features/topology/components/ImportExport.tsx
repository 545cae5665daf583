import { useState } from "react";
import { FORMATS, type TopologyFormat, detectFormat } from "../../../lib/topology/formats";
import type { ExplicitTopology, Scenario } from "../../../lib/scenario/types";

function download(name: string, text: string, type: string) {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = document.createElement("a");
  a.href = url;
  a.download = name;
  a.click();
  URL.revokeObjectURL(url);
}

const slug = (s: string) => s.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-|-$/g, "") || "fabric";

/** What an imported file holds: a whole scenario (JSON) or a topology (DOT, containerlab, HPCC). */
export function readImport(name: string, text: string): { doc: Scenario } | { topology: ExplicitTopology } {
  const trimmed = text.trimStart();
  if (trimmed.startsWith("{")) {
    const data = JSON.parse(text);
    const doc = (data.scenario ?? data) as Scenario; // a preset file wraps it in "scenario"
    if (doc.schema_version !== 1 || !doc.topology) throw new Error("a JSON file must be a scenario (schema_version 1 with a topology)");
    return { doc };
  }
  return { topology: FORMATS[detectFormat(name, text)].read(text) };
}

/** Scenario JSON and topology files in and out; files can also be dropped on the editor. */
export function ImportExport({ doc, explicit, onImport }: {
  doc: Scenario;
  explicit: () => ExplicitTopology | null;
  onImport: (name: string, text: string) => void;
}) {
  const [format, setFormat] = useState<TopologyFormat>("dot");
  return (
    <div className="import-export">
      <div className="row">
        <button type="button" className="small" onClick={() => download(`${slug(doc.name ?? "")}.json`, JSON.stringify(doc, null, 2) + "\n", "application/json")}>
          Export scenario JSON
        </button>
        <label className="small-file button small">
          Import file…
          <input type="file" hidden aria-label="Import a scenario or topology file" accept=".json,.dot,.gv,.yml,.yaml,.txt"
            onChange={async (e) => {
              const f = e.target.files?.[0];
              e.target.value = "";
              if (f) onImport(f.name, await f.text());
            }} />
        </label>
      </div>
      <div className="row">
        <select aria-label="Topology format" value={format} onChange={(e) => setFormat(e.target.value as TopologyFormat)}>
          {(Object.keys(FORMATS) as TopologyFormat[]).map((f) => <option key={f} value={f}>{FORMATS[f].title}</option>)}
        </select>
        <button type="button" className="small" onClick={() => {
          const t = explicit();
          if (t) download(`${slug(doc.name ?? "")}.${FORMATS[format].ext}`, FORMATS[format].write(t, slug(doc.name ?? "")), "text/plain");
        }}>Export topology</button>
      </div>
      <p className="hint">Or drop a scenario JSON, DOT, containerlab YAML or HPCC topology file on the editor.</p>
    </div>
  );
}
