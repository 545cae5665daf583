import { format } from "d3-format";
import { ApiError } from "../../../lib/api/errors";
import { uniqueFieldErrors } from "../../../lib/api/fieldErrors";
import type { EstimateResult } from "../api/scenarios";
import { errorBound, errorLegend } from "../../../lib/flowError";

type EstimatePanelProps = {
  result: EstimateResult | undefined;
  error: unknown;
  estimating: boolean;
  /** Runs the scenario at packet level (the exact answer). */
  onRunPacket: () => void;
};

const number = format(",.4~r");
const fmt = (x: number | null | undefined, unit: string) => (x === null || x === undefined ? "-" : `${number(x)}${unit ? ` ${unit}` : ""}`);

const seconds = (s: number) => (s < 1 ? `${number(s * 1000)} ms` : s < 120 ? `${number(s)} s` : s < 7200 ? `${number(s / 60)} min` : `${number(s / 3600)} h`);
const count = format(".3~s");

/**
 * How long a packet-level run would take on this instance (the estimate's packet_run: its frames
 * x the events per frame, over the events per second its recent packet-level runs measured).
 */
export function packetRunText(p: EstimateResult["packet_run"]): string {
  if (!p) return "No packet-level run has finished on this instance yet, so its speed is unknown.";
  return `A packet-level run would take about ${seconds(p.seconds)} on one thread: ${count(p.events)} events ` +
    `(${count(p.frames)} frames × ${number(p.events_per_frame)} events per frame) at ${count(p.events_per_s)} events/s, ` +
    `the medians of the last ${p.runs} packet-level run${p.runs === 1 ? "" : "s"} here.`;
}

/**
 * What a 422 says (the field it names, and why the estimate refuses the scenario), in the field's
 * words and with its allowed range, as the form says it ("Duration must be more than 0 us
 * (allowed: ...)", not the API's "duration_us: Input should be greater than 0").
 */
function refusal(error: unknown): string | null {
  if (!(error instanceof ApiError) || error.status !== 422) return null;
  const fields = uniqueFieldErrors(error.fields);
  return fields.length > 0 ? fields.map((f) => f.message).join("; ") : error.message;
}

/**
 * The flow-level estimate while editing (POST /estimate): each job's JCT, busbw (a collective's;
 * a training job's iteration has none of its own) and iteration time, throughput, FCT and slowdown, refreshed after each change, with what the flow engine leaves
 * out; one click runs the scenario at packet level.
 */
export function EstimatePanel({ result, error, estimating, onRunPacket }: EstimatePanelProps) {
  const refused = refusal(error);
  if (error && !result) {
    return <p className="hint" role="status">{refused ? `No estimate: ${refused}` : `The estimate is unavailable: ${(error as Error).message}`}</p>;
  }
  if (!result) return <p className="hint" role="status">Estimating…</p>;
  const err = result.flow_error;
  return (
    <div className="estimate" aria-busy={estimating} data-testid="estimate-panel">
      <p className="hint">
        Flow-level estimate in {number(result.wall_s * 1000)} ms{estimating ? " · estimating the latest edit…" : ""}
        {result.status === "limit" && " (partial: the estimate's time bound stopped it)"}
        {refused && ` (last valid version: ${refused})`}
      </p>
      <table className="estimate-figures" aria-label="Estimated figures">
        <tbody>
          {result.jobs.map((j) => (
            <tr key={j.name} data-job={j.name}>
              {/* a training job is an iteration of many collectives: no one bus bandwidth of its own */}
              <th scope="row">{j.name} ({j.op === "training" ? "training" : j.algorithm})</th>
              <td>JCT {fmt(j.jct_us, "us")}{errorBound("jct_us", err)}</td>
              {j.op === "training"
                ? <td className="hint">no busbw: an iteration of many collectives</td>
                : <td>busbw {fmt(j.busbw_gbps, "Gbit/s")}{errorBound("busbw_gbps", err)} of {fmt(j.ideal_busbw_gbps, "Gbit/s")}</td>}
              <td>iteration {fmt(j.iteration_us, "us")}{errorBound("iteration_us", err)}</td>
            </tr>
          ))}
          <tr><th scope="row">throughput</th><td colSpan={3}>{fmt(result.throughput_gbps, "Gbit/s")}{errorBound("throughput_gbps", err)}</td></tr>
          <tr>
            <th scope="row">FCT p50 / p99</th><td>{fmt(result.fct_p50_us, "us")}</td><td>{fmt(result.fct_p99_us, "us")}</td><td />
          </tr>
          <tr>
            <th scope="row">slowdown p50 / p99</th><td>{fmt(result.slowdown_p50, "")}{errorBound("slowdown_p50", err)}</td><td>{fmt(result.slowdown_p99, "")}{errorBound("slowdown_p99", err)}</td><td />
          </tr>
        </tbody>
      </table>
      {err && <p className="hint" data-testid="estimate-error">{errorLegend(err)}</p>}
      {result.caveats.length > 0 && (
        <details>
          <summary>It leaves out {result.caveats.length} thing{result.caveats.length === 1 ? "" : "s"}</summary>
          <ul className="caveats">
            {result.caveats.map((c) => <li key={`${String(c.feature)}-${String(c.field)}`}><code>{String(c.field)}</code>: {String(c.message)}</li>)}
          </ul>
        </details>
      )}
      <p className="hint" data-testid="packet-run-time">{packetRunText(result.packet_run)}</p>
      <button type="button" onClick={onRunPacket} title="The exact answer: queues, PFC, congestion control">Run at packet level</button>
    </div>
  );
}
