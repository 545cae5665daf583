import { Link } from "react-router";
import type { SweepPublic } from "../api/sweeps";
import { formatNumber } from "../../../lib/format";
import { screenedRows } from "../utils/screening";
import { pointLabel } from "../utils/jobSweep";
import type { SweepPoint } from "../../../lib/charts/grid";

const signed = (x: number) => `${x >= 0 ? "+" : ""}${(100 * x).toFixed(1)} %`;

/**
 * A screening sweep's result (issue 36, the practitioners' recipe): every point ran at flow level,
 * ranked by the screening's figure; the best ran again at packet level, both figures side by side.
 */
export function ScreenedTable({ sweep, dims }: { sweep: SweepPublic; dims: string[] }) {
  const screening = sweep.screening;
  if (!screening) return null;
  const rows = screenedRows(sweep);
  const sense =
    screening.goal ?? (screening.metric === "busbw_gbps" || screening.metric === "throughput_gbps" ? "max" : "min");
  const figure = `${screening.metric}${screening.job ? ` of ${screening.job}` : ""}`;
  return (
    <section className="screening" aria-label="Screening" data-testid="screened">
      <h2>Screened at flow level</h2>
      <p className="hint">
        Every point ran with the flow-level engine and was ranked by {figure} ({sense === "min" ? "lower" : "higher"} is
        better);
        {sweep.kept == null
          ? ` the best ${screening.keep} run again at packet level once every point has its flow-level answer.`
          : ` the best ${sweep.kept.length} ran again at packet level. The heatmap shows the flow-level figures of every point.`}
      </p>
      {rows.length > 0 && (
        <table className="data" aria-label="Screened points, flow and packet level">
          <thead>
            <tr>
              <th>rank</th>
              <th>point</th>
              <th>flow level</th>
              <th>packet level</th>
              <th>flow vs packet</th>
              <th>runs</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={r.point.index} data-point={r.point.index}>
                <td>{r.rank}</td>
                <td>{pointLabel(r.point.params as SweepPoint["params"], dims)}</td>
                <td>{r.flow == null ? "—" : formatNumber(r.flow)}</td>
                <td>{r.packet == null ? (r.point.packet_status ?? "—").toLowerCase() : formatNumber(r.packet)}</td>
                <td>{r.error == null ? "—" : signed(r.error)}</td>
                <td>
                  {r.point.run_id && <Link to={`/runs/${r.point.run_id}`}>flow</Link>}
                  {r.point.packet_run_id && (
                    <>
                      {" "}
                      · <Link to={`/runs/${r.point.packet_run_id}`}>packet</Link>
                    </>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
