// A tuning's report: one self-contained HTML file (inline styles, charts as inline SVG, painted
// pictures as PNG data URLs) with the tuned scenario(s), the space, the objective and constraints,
// the strategies, the comparison table with its 95% intervals as the page shows it, the
// best-so-far chart, the heatmap, each strategy's pick with its runs, simulator version and
// scenario hash. Readable without the app and printable to PDF from the browser.
import { type ReportChart, type ReportImage, escapeHtml, figuresHtml, flattenParameters, htmlTable, reportHead } from "../../../lib/report/html";

export interface TuningReportScenario {
  id: string;
  name: string;
  /** The stored scenario's content hash. */
  contentHash: string;
  /** The scenario document, for the parameter table. */
  document?: unknown;
}

export interface TuningReportParameter {
  name: string;
  path: string;
  unit: string;
  values: (number | string)[];
}

export interface TuningReportRun {
  id: string;
  seed: number | string;
  /** "fabricsim 0.1.0" as the run's result records it. */
  simulator: string;
  scenarioSha256: string;
}

export interface TuningReportPick {
  strategy: string;
  settings: string;
  objective: string;
  runs: TuningReportRun[];
}

export interface TuningReportInput {
  title: string;
  tuningId: string;
  status: string;
  createdAt: string;
  finishedAt?: string | null;
  scenarios: TuningReportScenario[];
  space: { parameters: TuningReportParameter[]; linked: string[]; size: number };
  /** "minimise fct_p99_us" and the like, one per objective. */
  objectives: string[];
  constraints: string[];
  /** How several scenarios or seeds are folded into one value ("mean", "worst") and the seeds. */
  aggregate: string;
  seeds: number[];
  /** A table's rows as text cells, the first row its header. */
  strategies: string[][];
  /** The page's comparison table as text (means ± 95% CI). */
  comparison: string[][];
  picks: TuningReportPick[];
  charts: ReportChart[];
  images: ReportImage[];
  generatedAt: string;
}

const valuesText = (v: (number | string)[]) => (v.length > 12 ? `${v.slice(0, 6).join(", ")}, … ${v.slice(-3).join(", ")} (${v.length} values)` : v.join(", "));

function scenarioHtml(s: TuningReportScenario): string {
  const params = s.document ? flattenParameters(s.document) : [];
  const rows = params.map(([k, v]) => `<tr><td class="p">${escapeHtml(k)}</td><td>${escapeHtml(v)}</td></tr>`).join("\n");
  return `<h3>${escapeHtml(s.name)}</h3>
<p class="meta">scenario <code>${escapeHtml(s.id)}</code> · content hash <code data-field="scenario-content-hash">${escapeHtml(s.contentHash)}</code></p>
${rows ? `<details open><summary>Parameters (${params.length})</summary><table><thead><tr><th>parameter</th><th>value</th></tr></thead><tbody>
${rows}
</tbody></table></details>` : ""}`;
}

function pickHtml(p: TuningReportPick): string {
  const runs = p.runs.length
    ? `<ul>${p.runs.map((r) => `<li>run <code>${escapeHtml(r.id)}</code> · seed ${escapeHtml(String(r.seed))} · simulator <span data-field="simulator-version">${escapeHtml(r.simulator)}</span> · scenario SHA-256 <code data-field="scenario-hash">${escapeHtml(r.scenarioSha256)}</code></li>`).join("")}</ul>`
    : "<p class=\"meta\">No finished run.</p>";
  return `<li data-strategy="${escapeHtml(p.strategy)}"><strong>${escapeHtml(p.strategy)}</strong>: ${escapeHtml(p.settings)} · objective ${escapeHtml(p.objective)}${runs}</li>`;
}

/** The tuning report document. */
export function buildTuningReportHtml(r: TuningReportInput): string {
  const space = [["parameter", "path", "unit", "values"], ...r.space.parameters.map((p) => [p.name, p.path, p.unit, valuesText(p.values)])];
  return `${reportHead(r.title)}
<body>
<h1>${escapeHtml(r.title)}</h1>
<p class="meta">Tuning <code>${escapeHtml(r.tuningId)}</code> · ${escapeHtml(r.status)} · started ${escapeHtml(r.createdAt)}${r.finishedAt ? ` · finished ${escapeHtml(r.finishedAt)}` : ""} ·
report made ${escapeHtml(r.generatedAt)}</p>
<h2>Scenario${r.scenarios.length > 1 ? "s" : ""}</h2>
${r.scenarios.map(scenarioHtml).join("\n")}
<h2>Objective</h2>
<ul>${r.objectives.map((o) => `<li>${escapeHtml(o)}</li>`).join("")}</ul>
<p>Constraints: ${r.constraints.length ? escapeHtml(r.constraints.join("; ")) : "none"} · seeds ${escapeHtml(r.seeds.join(", "))} · over scenarios and seeds: ${escapeHtml(r.aggregate)}</p>
<h2>Space</h2>
<p class="meta">${r.space.size.toLocaleString("en-US")} points</p>
${htmlTable(space, "Search space")}
${r.space.linked.length ? `<p>Linked: ${escapeHtml(r.space.linked.join("; "))}</p>` : ""}
<h2>Strategies</h2>
${htmlTable(r.strategies, "Strategies")}
<h2>Comparison of the picks (mean ± 95% CI)</h2>
${htmlTable(r.comparison, "Comparison of the strategies' picks")}
<h2>Picks</h2>
<ul class="picks">${r.picks.map(pickHtml).join("\n")}</ul>
<h2>Charts</h2>
${figuresHtml(r.charts, r.images)}
</body></html>
`;
}
