// A comparison's report: one self-contained HTML file (inline styles, charts as inline SVG, the
// fabric difference as a PNG data URL) with each run's simulator version and scenario hash, the
// summary table with deltas and the parameters that differ, as the compare page shows them.
import { type ReportChart, type ReportImage, escapeHtml, figuresHtml, htmlTable, reportHead } from "../../../lib/report/html";

export { tableText } from "../../../lib/report/html";

export interface CompareReportRun {
  letter: string;
  id: string;
  scenarioName: string;
  seed: number | string;
  simulator: string;
  scenarioSha256: string;
}

export interface CompareReportInput {
  title: string;
  runs: CompareReportRun[];
  /** A table's rows as text cells, the first row its header. */
  summary: string[][];
  differences: string[][];
  charts: ReportChart[];
  /** The fabric difference as a PNG, with its diverging colour legend. */
  images: ReportImage[];
  generatedAt: string;
}

/** The comparison report document. */
export function buildCompareReportHtml(r: CompareReportInput): string {
  const runs = r.runs.map((x) => `<li><strong>${escapeHtml(x.letter)}</strong> ${escapeHtml(x.scenarioName)} · run <code>${escapeHtml(x.id)}</code> · seed ${escapeHtml(String(x.seed))} ·
simulator <span data-field="simulator-version">${escapeHtml(x.simulator)}</span> · scenario SHA-256 <code data-field="scenario-hash">${escapeHtml(x.scenarioSha256)}</code></li>`).join("\n");
  return `${reportHead(r.title)}
<body>
<h1>${escapeHtml(r.title)}</h1>
<p class="meta">report made ${escapeHtml(r.generatedAt)}; deltas are against run A</p>
<h2>Runs</h2>
<ol class="meta">${runs}</ol>
<h2>Summary (deltas against A)</h2>
${htmlTable(r.summary)}
<h2>Scenario differences</h2>
${htmlTable(r.differences)}
<h2>Charts</h2>
${figuresHtml(r.charts, r.images)}
</body></html>
`;
}
