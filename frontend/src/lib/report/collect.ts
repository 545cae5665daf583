// Gathers a page's figures for a report: every `.chart-frame` under a root becomes a standalone
// SVG (composeExport: title, subtitle, plot, line legend) or, where the picture is painted on a
// canvas (the fabric, a large heatmap), a PNG data URL. Colour legends (ColorLegend's
// `svg.legend`) and the picker settings that say what the colours mean travel with each figure,
// so a picture in the report is never without its key.
import { composeExport, renderFigureCanvas, svgToString } from "../charts/save";
import { type ReportChart, type ReportImage, tableText } from "./html";

/** The plot of a frame: a chart's SVG, else the first SVG that is not a legend or a swatch. */
function plotSvg(frame: HTMLElement): SVGSVGElement | null {
  return frame.querySelector<SVGSVGElement>("svg.chart-svg") ?? frame.querySelector<SVGSVGElement>("svg:not(.line-swatch):not(.legend)");
}

/** The colour legends of a frame as standalone SVG strings. */
function legendSvgs(frame: HTMLElement): string[] {
  return [...frame.querySelectorAll<SVGSVGElement>("svg.legend")].map((svg) => svgToString(svg));
}

/** What the pickers of a frame are set to ("Colour links by: Utilization"), and swatch notes. */
export function frameNotes(frame: HTMLElement): string[] {
  const notes: string[] = [];
  frame.querySelectorAll<HTMLSelectElement>("select").forEach((sel) => {
    const own = sel.closest("label")?.firstChild;
    const name = (own && own.nodeType === Node.TEXT_NODE ? own.textContent : null)?.trim() || sel.getAttribute("aria-label") || "";
    const value = sel.selectedOptions[0]?.text ?? sel.value;
    if (name && value) notes.push(`${name}: ${value}`);
  });
  frame.querySelectorAll<HTMLInputElement>('input[type="range"]').forEach((r) => {
    const text = r.closest("label")?.textContent?.replace(/\s+/g, " ").trim();
    if (text) notes.push(text);
  });
  frame.querySelectorAll<HTMLElement>(".swatch-note").forEach((n) => {
    const text = n.textContent?.replace(/\s+/g, " ").trim();
    if (text) notes.push(`grey: ${text}`);
  });
  return notes;
}

/** A canvas as a PNG data URL, or null when the browser refuses (a tainted canvas). */
function dataUrlOf(canvas: HTMLCanvasElement): string | null {
  try {
    return canvas.toDataURL("image/png");
  } catch {
    return null;
  }
}

/** Every figure under `root` (frames without a picture, such as tables, are left out). */
export async function collectFigures(root: HTMLElement, subtitle: string): Promise<{ charts: ReportChart[]; images: ReportImage[] }> {
  const charts: ReportChart[] = [];
  const images: ReportImage[] = [];
  for (const frame of root.querySelectorAll<HTMLElement>(".chart-frame")) {
    const title = frame.getAttribute("aria-label") ?? "";
    const canvas = frame.querySelector("canvas");
    const plot = plotSvg(frame);
    const legends = legendSvgs(frame);
    if (canvas && !plot) {
      // the fabric: the canvas itself, with its colour legend and what the colours mean
      images.push({ title, dataUrl: canvas.toDataURL("image/png"), legends, notes: frameNotes(frame) });
    } else if (canvas && plot) {
      // a chart with a painted layer (a large heatmap): SVG and canvas composed into one PNG
      const painted = await renderFigureCanvas(frame, { title, subtitle }).catch(() => null);
      const dataUrl = painted ? dataUrlOf(painted) : null;
      if (dataUrl) images.push({ title, dataUrl, legends, notes: [] });
      else {
        // could not be painted together: the SVG (axes, marks) and the painted layer apart
        const out = composeExport(frame, { title, subtitle });
        if (out) charts.push({ title, svg: out.svg, legends });
        const layer = dataUrlOf(canvas);
        if (layer) images.push({ title: `${title}: painted cells`, dataUrl: layer, notes: [] });
      }
    } else if (plot) {
      const out = composeExport(frame, { title, subtitle });
      if (out) charts.push({ title, svg: out.svg, legends });
    }
  }
  return { charts, images };
}

/** A diagnostics panel as text: its title, its sentences and its tables. */
export interface ReportFinding {
  title: string;
  lines: string[];
  tables: { label: string; rows: string[][] }[];
}

/**
 * The page's findings (the `section.diagnostics` panels: deadlocks and the fault log, Pingmesh,
 * the DCI accelerator, QP accounting) as text, so a report says what the run found in the words
 * the page uses.
 */
export function collectFindings(root: HTMLElement): ReportFinding[] {
  return [...root.querySelectorAll<HTMLElement>("section.diagnostics")].map((panel) => {
    const heading = panel.querySelector("h2, h3, h4");
    const title = (heading?.textContent ?? panel.getAttribute("aria-label") ?? "").trim();
    const lines = [...panel.querySelectorAll<HTMLElement>("p")]
      .filter((p) => !p.closest("table"))
      .map((p) => (p.textContent ?? "").replace(/\s+/g, " ").trim())
      .filter(Boolean);
    const tables = [...panel.querySelectorAll<HTMLTableElement>("table")]
      .map((t) => ({ label: t.getAttribute("aria-label") ?? "", rows: tableText(t) }));
    return { title, lines, tables };
  });
}
