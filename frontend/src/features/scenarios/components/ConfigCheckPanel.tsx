import { ApiError } from "../../../lib/api/errors";
import { SEVERITY_ORDER, countsText } from "../configcheck/targets";
import type { CheckFinding, CheckResult } from "../api/scenarios";

export interface ConfigCheckPanelProps {
  result: CheckResult | undefined;
  error: unknown;
  checking: boolean;
  /** Selects the finding's ports/nodes on the canvas. */
  onShow: (finding: CheckFinding) => void;
}

const RULE_TITLES: Record<string, string> = {
  headroom_below_cable: "PFC headroom below what the cable needs",
  buffer_below_headroom: "Buffer smaller than its headroom reservations",
  kmax_above_buffer: "ECN Kmax above what one queue can hold",
  alpha_below_frame: "Buffer alpha leaves less than a frame under incast",
  qp_depth_below_bdp: "QP depth below the path's BDP",
  rto_below_rtt: "RTO below the base RTT",
  pfc_mixed_on_path: "PFC on at some switches of a path, off at others",
  dcqcn_vs_link_rate: "DCQCN parameters inconsistent with the link rate",
  dci_accelerator_buffer_below_bdp: "WAN accelerator buffer below the long link's BDP",
  dci_accelerator_timeout_below_rtt: "WAN accelerator resend timeout below the long-haul RTT",
  collective_no_nvlink: "Collective with one rank per server: no NVLink steps",
  collective_oversubscribed: "Collective across the leaves of an oversubscribed fabric",
  collective_exceeds_duration: "Collective that cannot finish before the run ends",
  spraying_with_rc: "Packet spraying with an in-order transport (go-back-N)",
  multi_plane_qp_pinned: "Fewer QPs than planes: RC pins each QP to one plane",
};

/** Whole numbers exactly (byte counts are compared with the fix), fractions to 4 significant digits. */
const formatNumber = (v: number) =>
  Number.isInteger(v) ? v.toLocaleString("en-US") : v.toLocaleString("en-US", { maximumSignificantDigits: 4 });

/** A finding's numbers in words: "headroom bytes 20,000 · required bytes 39,728". */
function numbersText(numbers: Record<string, number>) {
  return Object.entries(numbers).map(([k, v]) => `${k.replace(/_/g, " ")} ${formatNumber(v)}`).join(" · ");
}

/**
 * Findings with the same rule, severity and fix (one per port when a fabric-wide value is wrong)
 * as one item: the first one's message and numbers, every place in `where`.
 */
export function groupFindings(findings: CheckFinding[]): (CheckFinding & { count: number })[] {
  const groups = new Map<string, CheckFinding & { count: number }>();
  for (const f of findings) {
    // a collective's findings are per job (their messages name it): never merged into another job's
    const key = `${f.severity}|${f.rule}|${f.fix}${f.rule.startsWith("collective_") ? `|${f.message}` : ""}`;
    const g = groups.get(key);
    if (g) {
      g.where = [...g.where, ...f.where.filter((w) => !g.where.includes(w))];
      g.count += 1;
    } else groups.set(key, { ...f, count: 1 });
  }
  return [...groups.values()];
}

/**
 * The configuration check before a run (POST /scenarios/check, the same module as `fabricsim
 * check`): each finding's severity, where, its numbers and the fix; clicking one shows it on the canvas.
 */
export function ConfigCheckPanel({ result, error, checking, onShow }: ConfigCheckPanelProps) {
  const invalid = error instanceof ApiError && error.status === 422;
  if (error && !result) {
    return <p className="hint" role="status">{invalid ? "Fix the highlighted fields first: the check runs on a valid scenario." : `The check is unavailable: ${(error as Error).message}`}</p>;
  }
  if (!result) return <p className="hint" role="status">Checking the configuration…</p>;
  const findings = groupFindings(result.findings).sort((a, b) => SEVERITY_ORDER[a.severity] - SEVERITY_ORDER[b.severity]);
  return (
    <div className="config-check" aria-busy={checking}>
      <p className="hint" data-testid="config-check-summary">
        {countsText(result.counts)}{checking ? " · checking the latest edit…" : ""}
        {invalid && " (last valid version: fix the highlighted fields)"}
      </p>
      {findings.length > 0 && (
        <ul className="findings" aria-label="Configuration findings">
          {findings.map((f, i) => (
            <li key={`${f.rule}-${i}`} className={`finding ${f.severity}`}>
              <button type="button" className="finding-head" onClick={() => onShow(f)} title="Show on the canvas">
                <span className={`severity ${f.severity}`}>{f.severity}</span> {RULE_TITLES[f.rule] ?? f.rule}
              </button>
              <div className="finding-where">{f.where.slice(0, 6).join(", ")}{f.where.length > 6 ? ` and ${f.where.length - 6} more` : ""}</div>
              <p>{f.count > 1 ? f.message.replace(/\.?$/, ".") : f.message}{f.count > 1 && <em>{" "}The same holds at {f.count - 1} more {f.count === 2 ? "place" : "places"} listed above.</em>}</p>
              {Object.keys(f.numbers).length > 0 && <p className="finding-numbers">{numbersText(f.numbers)}</p>}
              <p className="finding-fix"><strong>Fix:</strong> {f.fix}</p>
            </li>
          ))}
        </ul>
      )}
      {result.effective.length > 0 && (
        <table className="effective" aria-label="Effective configuration changes">
          <caption>Changed by timed set faults</caption>
          <thead><tr><th>node</th><th>parameter</th><th>intended</th><th>effective</th><th>from</th></tr></thead>
          <tbody>
            {result.effective.map((e, i) => (
              <tr key={i}><td>{e.node}</td><td>{e.param}</td><td>{formatNumber(e.intended)}</td><td>{formatNumber(e.effective)}</td><td>{formatNumber(e.from_us)} us</td></tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}
