import { useState } from "react";
import { useMutation } from "@tanstack/react-query";
import { ErrorBox } from "../../../components/States";
import { type ExportFormat, type ExportSource, exportSettings } from "../api/realFabric";

const FORMATS: { format: ExportFormat; label: string; hint: string }[] = [
  { format: "sonic", label: "SONiC config_db", hint: "a patch per switch for config load" },
  { format: "nvue", label: "NVUE commands", hint: "nv set qos per switch" },
  { format: "nic_sysfs", label: "NIC sysfs", hint: "ConnectX roce_rp / roce_np writes" },
];

function download(name: string, type: string, content: string) {
  const url = URL.createObjectURL(new Blob([content], { type }));
  const a = document.createElement("a");
  a.href = url;
  a.download = name;
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/**
 * The settings of a scenario or of a tuning's pick in a device's format and units, every file
 * with a header naming where it came from; what the format cannot hold exactly is listed.
 */
export function SettingsExport({ source, title = "Export settings" }: { source: ExportSource; title?: string }) {
  const [shownFile, setShownFile] = useState(0);
  const load = useMutation({ mutationFn: (format: ExportFormat) => exportSettings(source, format), onSuccess: () => setShownFile(0) });
  const result = load.data;
  const file = result?.files[shownFile];
  return (
    <section className="settings-export" aria-label={title}>
      <h3>{title}</h3>
      <div className="row" role="group" aria-label="Export format">
        {FORMATS.map((f) => (
          <button key={f.format} type="button" className="small" title={f.hint} disabled={load.isPending}
            onClick={() => load.mutate(f.format)}>{f.label}</button>
        ))}
      </div>
      <ErrorBox error={load.error} title="Not exported" />
      {result && (
        <div className="export-result" data-testid="settings-export">
          <p className="hint">
            {result.files.length} file{result.files.length > 1 ? "s" : ""} · from scenario <code>{String(result.source.scenario_id)}</code>
            {result.source.run_id ? <> · run <code>{String(result.source.run_id)}</code></> : null}
            {result.source.tuning_id ? <> · {String(result.source.strategy)}'s pick of tuning <code>{String(result.source.tuning_id)}</code></> : null}
          </p>
          {result.files.length > 1 && (
            <select aria-label="File" value={shownFile} onChange={(e) => setShownFile(Number(e.target.value))}>
              {result.files.map((f, i) => <option key={f.name} value={i}>{f.name}</option>)}
            </select>
          )}
          {file && (
            <>
              <button type="button" className="small" onClick={() => download(file.name, file.media_type, file.content)}>Download {file.name}</button>{" "}
              <button type="button" className="small" onClick={() => result.files.forEach((f) => download(f.name, f.media_type, f.content))}>Download all</button>
              <pre className="export-content" data-testid="export-content">{file.content}</pre>
            </>
          )}
          {result.approximations.length > 0 && (
            <div className="hint"><strong>Not exact in this format:</strong>
              <ul>{result.approximations.map((a) => <li key={a}>{a}</li>)}</ul>
            </div>
          )}
          <p className="hint">No place in this format: {result.not_exported.join(", ")}.</p>
        </div>
      )}
    </section>
  );
}
