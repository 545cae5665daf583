import type { Caveat, RunInfo } from "../../../lib/api/resultTypes";
import type { FlowError } from "../../../lib/flowError";

/** Which engine answered ("flow" or the packet model's "ns-3.37"), in words. */
export function engineLabel(info: RunInfo): string {
  return info.engine === "flow" ? "flow-level engine" : `packet-level model${info.engine ? ` (${info.engine})` : ""}`;
}

/**
 * Says which engine answered the run and, for the flow-level engine, what it left out (the
 * result's caveats, each naming the scenario field that brings the feature in): its figures are
 * an estimate whose error against the packet model docs/validation-flow.md measures.
 */
export function EngineNotice({ info, caveats, flowError }: { info: RunInfo; caveats: Caveat[]; flowError?: FlowError | null }) {
  if (info.engine !== "flow") {
    return <p className="hint engine-notice" data-testid="engine">Answered by the {engineLabel(info)}.</p>;
  }
  return (
    <section className="engine-notice" data-testid="engine" aria-label="Engine">
      <p className="hint">
        Answered by the <strong>flow-level engine</strong>: flows share links max-min fair, with no queues or pauses.
        Each figure below is a flow-level estimate and says how close to the packet model it was measured to be on
        {flowError ? <> {flowError.label}</> : " such scenarios"} (docs/validation-flow.md)
        {flowError && !flowError.applies && <>; this run has what no measured scenario had ({flowError.outside.join(", ")}), so its error is unmeasured</>}.
        Run it at packet level for queues, PFC and congestion control.
      </p>
      {caveats.length > 0 && (
        <details>
          <summary>What it leaves out ({caveats.length})</summary>
          <ul className="caveats">
            {caveats.map((c) => (
              <li key={`${c.feature}-${c.field}`} data-feature={c.feature}>
                <code>{c.field}</code>: {c.message}
              </li>
            ))}
          </ul>
        </details>
      )}
    </section>
  );
}
