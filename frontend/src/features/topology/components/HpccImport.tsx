import { useState } from "react";
import { useMutation } from "@tanstack/react-query";
import { client, unwrap } from "../../../lib/api/client";
import { ErrorBox } from "../../../components/States";
import type { Scenario } from "../../../lib/scenario/types";

/** A flow file's text as the API wants it: a CSV (src,dst,size_bytes,start_us) or HPCC's flow file. */
export function flowFileField(name: string, text: string): "flows" | "flows_csv" {
  if (/\.csv$/i.test(name)) return "flows_csv";
  const first = text.split("\n").find((l) => l.trim() !== "") ?? "";
  return first.includes(",") ? "flows_csv" : "flows";
}

/**
 * The HPCC simulator's flow file (or a CSV of flows) imported through POST /imports/hpcc: over
 * this fabric (its traffic replaced), or with an HPCC topology file. The result replaces the
 * document as one undoable edit; what the import approximated is listed.
 */
export function HpccImport({ doc, onDoc }: { doc: Scenario; onDoc: (doc: Scenario) => void }) {
  const [flows, setFlows] = useState<{ name: string; text: string } | null>(null);
  const [topology, setTopology] = useState<{ name: string; text: string } | null>(null);
  const [notes, setNotes] = useState<string[] | null>(null);
  const run = useMutation({
    mutationFn: () => {
      const body = {
        [flowFileField(flows!.name, flows!.text)]: flows!.text,
        ...(topology ? { topology: topology.text } : { base_scenario: doc as unknown as Record<string, unknown> }),
        name: doc.name ?? "",
      };
      return unwrap(client.POST("/api/v1/imports/hpcc", { body }));
    },
    onSuccess: (r) => { onDoc(r.scenario as unknown as Scenario); setNotes(r.notes); },
  });
  const file = (set: (f: { name: string; text: string } | null) => void) => async (e: React.ChangeEvent<HTMLInputElement>) => {
    const f = e.target.files?.[0];
    e.target.value = "";
    set(f ? { name: f.name, text: await f.text() } : null);
    setNotes(null);
  };
  return (
    <fieldset className="hpcc-import">
      <legend>HPCC flows</legend>
      <label className="small-file button small">
        Flow file…
        <input type="file" hidden aria-label="HPCC flow file or CSV of flows" accept=".txt,.csv" onChange={file(setFlows)} />
      </label>{" "}
      <label className="small-file button small">
        Topology file (optional)…
        <input type="file" hidden aria-label="HPCC topology file" accept=".txt" onChange={file(setTopology)} />
      </label>
      <p className="hint" data-testid="hpcc-import-plan">
        {flows ? <>Flows from <code>{flows.name}</code></> : "No flow file chosen"}
        {topology ? <> on the fabric of <code>{topology.name}</code></> : " over this fabric (its traffic is replaced)"}.
        {" "}A flow file is HPCC's (a count, then <code>src dst priority dport size start_s</code>) or a CSV
        (<code>src,dst,size_bytes,start_us</code>).
      </p>
      <button type="button" className="small" disabled={!flows || run.isPending} onClick={() => run.mutate()}>
        {run.isPending ? "Importing…" : "Import flows"}
      </button>
      <ErrorBox error={run.error} title="Not imported" />
      {notes && (
        <p className="hint" role="status">
          Imported.{notes.length > 0 && <> Approximated: {notes.join("; ")}</>}
        </p>
      )}
    </fieldset>
  );
}
