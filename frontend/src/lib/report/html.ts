// The pieces every self-contained HTML report shares (a run's, a comparison's, a tuning's):
// escaping, the inline style sheet, parameter flattening, tables and figures as HTML text.

const ESC: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };
export const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => ESC[c]);

/** A chart as a standalone SVG document (composeExport: title, subtitle, plot, legend). */
export interface ReportChart {
  title: string;
  svg: string;
  /** Colour legends shown beside the chart on the page (a heatmap's scale), as inline SVG. */
  legends?: string[];
}

/** A picture painted on a canvas (the fabric, a large heatmap) as a data: URL, with its legends. */
export interface ReportImage {
  title: string;
  dataUrl: string;
  /** The colour legends shown beside the picture on the page, as inline SVG. */
  legends?: string[];
  /** Short lines read with the picture ("coloured by …", "grey: not recorded"). */
  notes?: string[];
}

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
figcaption{font-weight:600;margin-bottom:4px}.legends{display:flex;flex-wrap:wrap;gap:16px;align-items:center}
.legends svg{flex:none}.fig-note{color:#555;font-size:12px;margin:2px 0}
@media print{body{margin:0;max-width:none}h2{break-after:avoid}.cards{grid-template-columns:repeat(3,1fr)}}
`;

/** The head of a report document (title, inline styles; nothing fetched from anywhere). */
export function reportHead(title: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)} — FabricTwin report</title>
<meta name="generator" content="FabricTwin"><style>${REPORT_STYLE}</style></head>`;
}

/** A table from rows of text cells, the first row its header; each row's first cell is a header cell. */
export function htmlTable(rows: string[][], label?: string): string {
  if (!rows.length) return "<p>None.</p>";
  const [head, ...body] = rows;
  const cells = (r: string[], tag: "th" | "td") => r.map((c, i) => `<${i === 0 ? "th" : tag}>${escapeHtml(c)}</${i === 0 ? "th" : tag}>`).join("");
  const aria = label ? ` aria-label="${escapeHtml(label)}"` : "";
  return `<table${aria}><thead><tr>${cells(head, "th")}</tr></thead><tbody>${body.map((r) => `<tr>${cells(r, "td")}</tr>`).join("\n")}</tbody></table>`;
}

/** Charts inline (their XML prologue stripped), then pictures with their caption, legends and notes. */
const legendsHtml = (legends?: string[]) => (legends?.length ? `<div class="legends">${legends.map((l) => l.replace(/^<\?xml[^>]*>/, "")).join("")}</div>` : "");

export function figuresHtml(charts: ReportChart[], images: ReportImage[]): string {
  const c = charts.map((x) => `<figure aria-label="${escapeHtml(x.title)}">${x.svg.replace(/^<\?xml[^>]*>/, "")}${legendsHtml(x.legends)}</figure>`);
  const i = images.map((x) => {
    const legends = legendsHtml(x.legends);
    const notes = (x.notes ?? []).map((n) => `<p class="fig-note">${escapeHtml(n)}</p>`).join("");
    return `<figure aria-label="${escapeHtml(x.title)}"><figcaption>${escapeHtml(x.title)}</figcaption><img alt="${escapeHtml(x.title)}" src="${x.dataUrl}">${legends}${notes}</figure>`;
  });
  return [...c, ...i].join("\n");
}

/**
 * A rendered table's text, row by row (the page's tables are the report's, so they cannot
 * disagree). Columns whose every cell is a control (a button, a checkbox) are left out.
 */
export function tableText(el: HTMLTableElement | null): string[][] {
  if (!el) return [];
  const rows = [...el.rows].map((row) => [...row.cells]);
  const width = Math.max(0, ...rows.map((r) => r.length));
  const controlOnly = (j: number) => rows.every((r) => !r[j] || !(r[j].textContent ?? "").trim() || r[j].querySelector("button, input, select") !== null)
    && rows.some((r) => r[j]?.querySelector("button, input, select"));
  const keep = Array.from({ length: width }, (_, j) => j).filter((j) => !controlOnly(j));
  return rows.map((r) => keep.filter((j) => r[j]).map((j) => (r[j].textContent ?? "").replace(/\s+/g, " ").trim()));
}

/** Findings (diagnostics panels as text) as HTML: a heading, its sentences, its tables. */
export function findingsHtml(findings: { title: string; lines: string[]; tables: { label: string; rows: string[][] }[] }[]): string {
  return findings.map((f) => `<section class="finding" aria-label="${escapeHtml(f.title)}"><h3>${escapeHtml(f.title)}</h3>
${f.lines.map((l) => `<p>${escapeHtml(l)}</p>`).join("\n")}
${f.tables.map((t) => htmlTable(t.rows, t.label || undefined)).join("\n")}</section>`).join("\n");
}
