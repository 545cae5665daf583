import { useState } from "react";
import { ErrorBox } from "../../../components/States";
import type { Scenario } from "../../../lib/scenario/types";
import { type SettingsImported, useImportSettings } from "../api/realFabric";
import { ReportTable } from "./ReportTable";

interface TextFile { name: string; text: string }

async function read(files: FileList | null): Promise<TextFile[]> {
  return Promise.all([...(files ?? [])].map(async (f) => ({ name: f.name, text: await f.text() })));
}

/**
 * SONiC config_db.json files (one switch, or one per switch) and a ConnectX sysfs dump into this
 * scenario: the API reads them into a copy of the saved scenario and returns the field-by-field
 * report with the result; nothing changes until "Apply to the editor" (an undoable edit, saved
 * like any other).
 */
export function SettingsImport({ scenarioId, onDoc }: { scenarioId: () => Promise<string>; onDoc: (doc: Scenario) => void }) {
  const [sonic, setSonic] = useState<TextFile[]>([]);
  const [sysfs, setSysfs] = useState<TextFile | null>(null);
  const [host, setHost] = useState("");
  const [draw, setDraw] = useState(true);
  const [result, setResult] = useState<SettingsImported | null>(null);
  const [applied, setApplied] = useState(false);
  const [open, setOpen] = useState(false);
  const preview = useImportSettings();
  const run = async () => {
    const id = await scenarioId();
    const body = {
      sonic: sonic.map((f) => ({ name: f.name, text: f.text })),
      nic_sysfs: sysfs?.text ?? null,
      nic_host: host.trim() || null,
      draw_topology: draw,
      dry_run: true,
    };
    setResult(await preview.mutateAsync({ scenarioId: id, body }));
    setApplied(false);
    setOpen(true);
  };
  return (
    <fieldset className="settings-import">
      <legend>Switch and NIC settings</legend>
      <label className="small-file button small">
        config_db.json…
        <input type="file" hidden multiple accept=".json" aria-label="SONiC config_db.json files"
          onChange={async (e) => { setSonic(await read(e.target.files)); e.target.value = ""; setResult(null); }} />
      </label>{" "}
      <label className="small-file button small">
        sysfs dump…
        <input type="file" hidden accept=".txt,.sh,.log" aria-label="ConnectX sysfs dump"
          onChange={async (e) => { setSysfs((await read(e.target.files))[0] ?? null); e.target.value = ""; setResult(null); }} />
      </label>
      <p className="hint" data-testid="settings-import-plan">
        {sonic.length ? <>{sonic.length} config_db file{sonic.length > 1 ? "s" : ""} ({sonic.map((f) => f.name).join(", ")})</> : "No SONiC file"}
        {" · "}{sysfs ? <>NIC settings from <code>{sysfs.name}</code></> : "no NIC dump"}.
      </p>
      <div className="row">
        <label>NIC settings for <input value={host} onChange={(e) => setHost(e.target.value)} placeholder="every host" size={9} aria-label="Host for the NIC settings" /></label>
        <label className="check"><input type="checkbox" checked={draw} onChange={(e) => setDraw(e.target.checked)} /> redraw the topology (one file per switch)</label>
      </div>
      <button type="button" className="small" disabled={(!sonic.length && !sysfs) || preview.isPending} onClick={() => void run().catch(() => {})}>
        {preview.isPending ? "Reading…" : "Preview the import"}
      </button>
      <ErrorBox error={preview.error} title="Not imported" />
      {result && (
        <p role="status" className="hint">
          Read: {result.counts.mapped} fields set parameters, {result.counts.read ?? 0} read, {result.counts.ignored} ignored,
          {" "}{result.counts.kept} parameters kept. <button type="button" className="small" onClick={() => setOpen(true)}>Show the report</button>
        </p>
      )}
      {result && open && (
        <div className="report-dialog" role="dialog" aria-modal="true" aria-label="Import report">
          <div className="report-dialog-body">
            <div className="row">
              <h2>What the import read</h2>
              <span className="grow" />
              <button type="button" className="primary" disabled={applied}
                onClick={() => { onDoc(result.scenario as unknown as Scenario); setApplied(true); setOpen(false); }}>
                {applied ? "Applied" : "Apply to the editor"}
              </button>
              <button type="button" onClick={() => setOpen(false)}>Close</button>
            </div>
            <p className="hint">Nothing changes until you apply: the scenario then takes the mapped values (an edit you can undo, saved like any other).</p>
            <ReportTable entries={result.report} />
          </div>
        </div>
      )}
    </fieldset>
  );
}
