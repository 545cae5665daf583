// A comparison's report: one self-contained HTML file (inline styles, charts as inline SVG, the
// fabric difference as a PNG data URL) with each run's simulator version and scenario hash, the
// summary table with deltas and the parameters that differ, as the compare page shows them.
import { REPORT_STYLE, escapeHtml } from "./report";

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
  charts: { title: string; svg: string }[];
  images: { title: string; dataUrl: string }[];
  generatedAt: string;
}

const table = (rows: string[][]) => {
  if (!rows.length) return "<p>None.</p>";
  const [head, ...body] = rows;
  const cells = (r: string[], tag: "th" | "td") => r.map((c, i) => `<${i === 0 ? "th" : tag}>${escapeHtml(c)}</${i === 0 ? "th" : tag}>`).join("");
  return `<table><thead><tr>${cells(head, "th")}</tr></thead><tbody>${body.map((r) => `<tr>${cells(r, "td")}</tr>`).join("\n")}</tbody></table>`;
};

/** The comparison report document. */
export function buildCompareReportHtml(r: CompareReportInput): string {
  const runs = r.runs.map((x) => `<li><strong>${escapeHtml(x.letter)}</strong> ${escapeHtml(x.scenarioName)} · run <code>${escapeHtml(x.id)}</code> · seed ${escapeHtml(String(x.seed))} ·
simulator <span data-field="simulator-version">${escapeHtml(x.simulator)}</span> · scenario SHA-256 <code data-field="scenario-hash">${escapeHtml(x.scenarioSha256)}</code></li>`).join("\n");
  const charts = r.charts.map((c) => `<figure aria-label="${escapeHtml(c.title)}">${c.svg.replace(/^<\?xml[^>]*>/, "")}</figure>`).join("\n");
  const images = r.images.map((i) => `<figure><figcaption>${escapeHtml(i.title)}</figcaption><img alt="${escapeHtml(i.title)}" src="${i.dataUrl}"></figure>`).join("\n");
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(r.title)} — FabricTwin report</title>
<meta name="generator" content="FabricTwin"><style>${REPORT_STYLE}</style></head>
<body>
<h1>${escapeHtml(r.title)}</h1>
<p class="meta">report made ${escapeHtml(r.generatedAt)}; deltas are against run A</p>
<h2>Runs</h2>
<ol class="meta">${runs}</ol>
<h2>Summary (deltas against A)</h2>
${table(r.summary)}
<h2>Scenario differences</h2>
${table(r.differences)}
<h2>Charts</h2>
${charts}
${images}
</body></html>
`;
}

/** A rendered table's text, row by row (the page's tables are the report's, so they cannot disagree). */
export function tableText(el: HTMLTableElement | null): string[][] {
  if (!el) return [];
  return [...el.rows].map((row) => [...row.cells].map((c) => (c.textContent ?? "").replace(/\s+/g, " ").trim()));
}
