// A run's report: one HTML file with everything inline (styles, SVG charts, images as data URLs),
// readable without the app and printable to PDF from the browser.
import type { RunInfo } from "../../../lib/api/resultTypes";
import { type ReportChart, type ReportImage, escapeHtml, figuresHtml, findingsHtml, flattenParameters, reportHead } from "../../../lib/report/html";
import type { ReportFinding } from "../../../lib/report/collect";

export { escapeHtml, flattenParameters } from "../../../lib/report/html";

export interface ReportCard {
  label: string;
  value: string;
  where?: string;
  window: string;
  note?: string;
}

export interface ReportInput {
  title: string;
  runId: string;
  runInfo: RunInfo;
  scenario?: unknown;
  cards: ReportCard[];
  /** Standalone SVG documents (composeExport) with their titles. */
  charts: ReportChart[];
  /** Canvas pictures (the fabric) as data: URLs, with their colour legends. */
  images: ReportImage[];
  notes: string[];
  /** The page's diagnostics panels as text (deadlocks, fault log, Pingmesh, ...). */
  findings?: ReportFinding[];
  generatedAt: string;
}

/** The report document. */
export function buildReportHtml(r: ReportInput): string {
  const info = r.runInfo;
  const params = r.scenario ? flattenParameters(r.scenario) : [];
  const cards = r.cards
    .map((c) => `<div class="card"><div>${escapeHtml(c.label)}</div><div class="v">${escapeHtml(c.value)}</div>${c.where ? `<small>${escapeHtml(c.where)}</small>` : ""}<small>${escapeHtml(c.window)}</small>${c.note ? `<small>${escapeHtml(c.note)}</small>` : ""}</div>`)
    .join("\n");
  const rows = params.map(([k, v]) => `<tr><td class="p">${escapeHtml(k)}</td><td>${escapeHtml(v)}</td></tr>`).join("\n");
  return `${reportHead(r.title)}
<body>
<h1>${escapeHtml(r.title)}</h1>
<p class="meta">Run <code>${escapeHtml(r.runId)}</code> · seed ${escapeHtml(String(info.seed ?? "?"))} ·
simulator <span data-field="simulator-version">${escapeHtml(`${info.simulator ?? "fabricsim"} ${info.version ?? "?"}`)}</span> (${escapeHtml(String(info.engine ?? ""))}) ·
scenario SHA-256 <code data-field="scenario-hash">${escapeHtml(String(info.scenario_sha256 ?? ""))}</code> ·
simulated ${escapeHtml(String(Number(info.sim_time_ns ?? 0) / 1000))} us, warm-up ${escapeHtml(String(Number(info.warmup_ns ?? 0) / 1000))} us ·
report made ${escapeHtml(r.generatedAt)}</p>
<h2>Summary</h2>
<div class="cards">${cards}</div>
${r.notes.length ? `<ul>${r.notes.map((n) => `<li>${escapeHtml(n)}</li>`).join("")}</ul>` : ""}
${r.findings?.length ? `<h2>Findings</h2>\n${findingsHtml(r.findings)}` : ""}
<h2>Charts</h2>
${figuresHtml(r.charts, r.images)}
<h2>Scenario parameters</h2>
<table><thead><tr><th>parameter</th><th>value</th></tr></thead><tbody>
${rows}
</tbody></table>
</body></html>
`;
}
