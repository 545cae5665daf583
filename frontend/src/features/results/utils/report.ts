// A run's report: one HTML file with everything inline (styles, SVG charts, images as data URLs),
// readable without the app and printable to PDF from the browser.
import type { RunInfo } from "../../../lib/api/resultTypes";

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
  charts: { title: string; svg: string }[];
  /** Canvas pictures (the fabric) as data: URLs. */
  images: { title: string; dataUrl: string }[];
  notes: string[];
  generatedAt: string;
}

const ESC: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };
export const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => ESC[c]);

/** Dotted path -> value of every leaf of the scenario; long lists are summarised by their length. */
export function flattenParameters(value: unknown, prefix = "", out: [string, string][] = []): [string, string][] {
  if (Array.isArray(value)) {
    if (value.length > 12 && value.every((v) => typeof v === "object" && v !== null)) {
      out.push([prefix, `${value.length} entries`]);
      return out;
    }
    if (value.every((v) => typeof v !== "object" || v === null)) {
      out.push([prefix, JSON.stringify(value)]);
      return out;
    }
    value.forEach((v, i) => flattenParameters(v, `${prefix}.${i}`, out));
    return out;
  }
  if (value !== null && typeof value === "object") {
    for (const [k, v] of Object.entries(value as Record<string, unknown>)) flattenParameters(v, prefix ? `${prefix}.${k}` : k, out);
    return out;
  }
  out.push([prefix, typeof value === "string" ? value : JSON.stringify(value)]);
  return out;
}

export const REPORT_STYLE = `
body{font:14px/1.45 system-ui,sans-serif;color:#1b1f24;max-width:1100px;margin:24px auto;padding:0 16px}
h1{font-size:22px;margin:0 0 4px}h2{font-size:17px;margin:24px 0 8px;border-bottom:1px solid #dde2e8;padding-bottom:4px}
.meta{color:#555;font-size:12px}.meta code{font-size:11px}
.cards{display:grid;grid-template-columns:repeat(auto-fill,minmax(190px,1fr));gap:8px}
.card{border:1px solid #dde2e8;border-radius:6px;padding:8px}.card .v{font-size:19px;font-weight:650}
.card small{display:block;color:#555}
table{border-collapse:collapse;font-size:12px}td,th{border-bottom:1px solid #eceff3;padding:2px 10px 2px 0;text-align:left;vertical-align:top}
td.p{font-family:ui-monospace,monospace}
figure{margin:12px 0;break-inside:avoid}figure svg,figure img{max-width:100%;height:auto}
@media print{body{margin:0;max-width:none}h2{break-after:avoid}.cards{grid-template-columns:repeat(3,1fr)}}
`;

/** The report document. */
export function buildReportHtml(r: ReportInput): string {
  const info = r.runInfo;
  const params = r.scenario ? flattenParameters(r.scenario) : [];
  const cards = r.cards
    .map((c) => `<div class="card"><div>${escapeHtml(c.label)}</div><div class="v">${escapeHtml(c.value)}</div>${c.where ? `<small>${escapeHtml(c.where)}</small>` : ""}<small>${escapeHtml(c.window)}</small>${c.note ? `<small>${escapeHtml(c.note)}</small>` : ""}</div>`)
    .join("\n");
  // The SVG documents are our own serialisations; strip their XML prologue, keep them inline.
  const charts = r.charts.map((c) => `<figure aria-label="${escapeHtml(c.title)}">${c.svg.replace(/^<\?xml[^>]*>/, "")}</figure>`).join("\n");
  const images = r.images.map((i) => `<figure><figcaption>${escapeHtml(i.title)}</figcaption><img alt="${escapeHtml(i.title)}" src="${i.dataUrl}"></figure>`).join("\n");
  const rows = params.map(([k, v]) => `<tr><td class="p">${escapeHtml(k)}</td><td>${escapeHtml(v)}</td></tr>`).join("\n");
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(r.title)} — FabricTwin report</title>
<meta name="generator" content="FabricTwin"><style>${REPORT_STYLE}</style></head>
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
<h2>Charts</h2>
${charts}
${images}
<h2>Scenario parameters</h2>
<table><thead><tr><th>parameter</th><th>value</th></tr></thead><tbody>
${rows}
</tbody></table>
</body></html>
`;
}
