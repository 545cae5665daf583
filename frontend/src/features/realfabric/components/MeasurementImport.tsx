import { useState } from "react";
import { ErrorBox } from "../../../components/States";
import { type MeasurementKind, type MeasurementPublic, useImportMeasurement } from "../api/realFabric";
import { guessKind } from "../utils/measurement";

const NCCL_TOOLS = ["all_reduce_perf", "all_gather_perf", "reduce_scatter_perf", "alltoall_perf", "broadcast_perf", "sendrecv_perf"];

/**
 * An NCCL-tests or perftest output attached to this scenario (saved first): the kind is read
 * from the text; the tool only when the table cannot say (all_gather_perf and alltoall_perf
 * print the same columns). A wrong or truncated file is refused with its line.
 */
export function MeasurementImport({ scenarioId, onImported }: {
  scenarioId: () => Promise<string>;
  onImported: (m: MeasurementPublic) => void;
}) {
  const [file, setFile] = useState<{ name: string; text: string } | null>(null);
  const [kind, setKind] = useState<MeasurementKind>("nccl_tests");
  const [tool, setTool] = useState("");
  const save = useImportMeasurement();
  const submit = async () => {
    const id = await scenarioId();
    const m = await save.mutateAsync({ scenario_id: id, kind, text: file!.text, tool: tool || null, name: file!.name });
    onImported(m);
  };
  return (
    <fieldset className="measurement-import">
      <legend>Measurement (NCCL-tests, perftest)</legend>
      <label className="small-file button small">
        Benchmark output…
        <input type="file" hidden accept=".txt,.log,.out" aria-label="NCCL-tests or perftest output"
          onChange={async (e) => {
            const f = e.target.files?.[0];
            e.target.value = "";
            if (!f) return;
            const text = await f.text();
            setFile({ name: f.name, text });
            setKind(guessKind(text) ?? kind);
          }} />
      </label>
      <div className="row">
        <label>Kind <select value={kind} onChange={(e) => setKind(e.target.value as MeasurementKind)} aria-label="Measurement kind">
          <option value="nccl_tests">NCCL-tests</option>
          <option value="perftest">perftest</option>
        </select></label>
        {kind === "nccl_tests" && (
          <label>Tool <select value={tool} onChange={(e) => setTool(e.target.value)} aria-label="NCCL-tests tool">
            <option value="">read from the file</option>
            {NCCL_TOOLS.map((t) => <option key={t} value={t}>{t}</option>)}
          </select></label>
        )}
      </div>
      <p className="hint" data-testid="measurement-import-plan">
        {file ? <><code>{file.name}</code> as {kind === "nccl_tests" ? "NCCL-tests" : "perftest"} output</> : "No file chosen"}: attached to
        this scenario (saved first); its page runs the matching simulation and plots measured against simulated.
      </p>
      <button type="button" className="small" disabled={!file || save.isPending} onClick={() => void submit().catch(() => {})}>
        {save.isPending ? "Importing…" : "Import measurement"}
      </button>
      <ErrorBox error={save.error} title="Not imported" />
    </fieldset>
  );
}
