const SVG_NS = "http://www.w3.org/2000/svg";

/** Serialises an SVG element into a standalone SVG document string. */
export function svgToString(svg: SVGSVGElement): string {
  const clone = svg.cloneNode(true) as SVGSVGElement;
  clone.setAttribute("xmlns", SVG_NS);
  clone.setAttribute("font-family", "system-ui, sans-serif");
  const w = svg.getAttribute("width");
  const h = svg.getAttribute("height");
  if (w && h && !clone.getAttribute("viewBox")) clone.setAttribute("viewBox", `0 0 ${w} ${h}`);
  const bg = document.createElementNS(SVG_NS, "rect");
  bg.setAttribute("width", "100%");
  bg.setAttribute("height", "100%");
  bg.setAttribute("fill", "#fff");
  clone.insertBefore(bg, clone.firstChild);
  return new XMLSerializer().serializeToString(clone);
}

export interface ExportLabels {
  title: string;
  /** Under the title: run id, simulator version, window. */
  subtitle?: string;
}

interface LegendItem {
  label: string;
  color: string;
  dash: string;
}

const HEADER = 44;
const LEGEND_ROW = 16;

function el(name: string, attrs: Record<string, string | number>, text?: string) {
  const e = document.createElementNS(SVG_NS, name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
  if (text != null) e.textContent = text;
  return e;
}

/** Legend entries marked with data-legend-* in the figure (LineChart, CdfChart). */
function legendItems(figure: HTMLElement): LegendItem[] {
  return [...figure.querySelectorAll<HTMLElement>("[data-legend-label]")].map((li) => ({
    label: li.dataset.legendLabel ?? "",
    color: li.dataset.legendColor ?? "#333",
    dash: li.dataset.legendDash ?? "",
  }));
}

/** Lays legend items out in rows across the width; returns the rows' height. */
function drawLegend(into: SVGElement, items: LegendItem[], width: number, y0: number): number {
  let x = 10;
  let y = y0 + 10;
  for (const it of items) {
    const w = 26 + it.label.length * 6.2 + 14;
    if (x + w > width && x > 10) {
      x = 10;
      y += LEGEND_ROW;
    }
    into.appendChild(el("line", { x1: x, x2: x + 18, y1: y - 4, y2: y - 4, stroke: it.color, "stroke-width": 2, ...(it.dash ? { "stroke-dasharray": it.dash } : {}) }));
    into.appendChild(el("text", { x: x + 24, y, "font-size": 11, fill: "#333" }, it.label));
    x += w;
  }
  return items.length ? y - y0 + 8 : 0;
}

/**
 * The chart as a document that stands on its own: title, subtitle (run id), the plot and its
 * legend in one SVG. Returns the string and the plot's offset (for painting canvases in PNGs).
 */
export function composeExport(figure: HTMLElement, labels: ExportLabels): { svg: string; width: number; height: number; plotTop: number } | null {
  const plot = figure.querySelector<SVGSVGElement>("svg.chart-svg") ?? figure.querySelector<SVGSVGElement>("svg:not(.line-swatch)");
  if (!plot) return null;
  const width = Number(plot.getAttribute("width")) || plot.clientWidth || 600;
  const plotH = Number(plot.getAttribute("height")) || plot.clientHeight || 200;
  const root = el("svg", { xmlns: SVG_NS, width, "font-family": "system-ui, sans-serif" }) as SVGSVGElement;
  root.appendChild(el("rect", { width: "100%", height: "100%", fill: "#fff" }));
  root.appendChild(el("text", { x: 10, y: 18, "font-size": 14, "font-weight": 600, fill: "#111", class: "export-title" }, labels.title));
  if (labels.subtitle) root.appendChild(el("text", { x: 10, y: 35, "font-size": 11, fill: "#555", class: "export-subtitle" }, labels.subtitle));
  const inner = plot.cloneNode(true) as SVGSVGElement;
  // A canvas layered in through <foreignObject> (a large heatmap) serialises empty, and an SVG
  // image holding a foreignObject taints the canvas it is drawn on (no PNG, no data URL): leave
  // it out; renderFigureCanvas paints the canvases themselves at their place.
  inner.querySelectorAll("foreignObject").forEach((f) => f.remove());
  inner.setAttribute("x", "0");
  inner.setAttribute("y", String(HEADER));
  root.appendChild(inner);
  const legendH = drawLegend(root, legendItems(figure), width, HEADER + plotH);
  const height = HEADER + plotH + legendH + 6;
  root.setAttribute("height", String(height));
  root.setAttribute("viewBox", `0 0 ${width} ${height}`);
  return { svg: new XMLSerializer().serializeToString(root), width, height, plotTop: HEADER };
}

export function downloadBlob(blob: Blob, filename: string) {
  const url = URL.createObjectURL(blob);
  const a = document.createElement("a");
  a.href = url;
  a.download = filename;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

export function saveSvg(figure: HTMLElement, filename: string, labels: ExportLabels) {
  const out = composeExport(figure, labels);
  if (out) downloadBlob(new Blob([out.svg], { type: "image/svg+xml" }), `${filename}.svg`);
}

/** The composed SVG (and any canvas layered inside the figure) painted on a canvas at `scale`. */
export async function renderFigureCanvas(figure: HTMLElement, labels: ExportLabels, scale = 2): Promise<HTMLCanvasElement | null> {
  const out = composeExport(figure, labels);
  if (!out) return null;
  const plot = figure.querySelector<SVGSVGElement>("svg.chart-svg") ?? figure.querySelector<SVGSVGElement>("svg:not(.line-swatch)")!;
  const canvas = document.createElement("canvas");
  canvas.width = out.width * scale;
  canvas.height = out.height * scale;
  const ctx = canvas.getContext("2d");
  if (!ctx) return null;
  ctx.scale(scale, scale);
  const img = new Image();
  const url = URL.createObjectURL(new Blob([out.svg], { type: "image/svg+xml" }));
  await new Promise<void>((resolve, reject) => {
    img.onload = () => resolve();
    img.onerror = () => reject(new Error("could not render the chart"));
    img.src = url;
  });
  ctx.drawImage(img, 0, 0, out.width, out.height);
  URL.revokeObjectURL(url);
  // canvases (large heatmaps, topology) are not part of the SVG: paint them at their place
  const origin = plot.getBoundingClientRect();
  figure.querySelectorAll("canvas").forEach((c) => {
    const r = c.getBoundingClientRect();
    ctx.drawImage(c, r.left - origin.left, r.top - origin.top + out.plotTop, r.width, r.height);
  });
  return canvas;
}

/** Renders the composed SVG (and any canvas layered inside the figure) into a PNG at 2x. */
export async function savePng(figure: HTMLElement, filename: string, labels: ExportLabels) {
  const canvas = await renderFigureCanvas(figure, labels);
  if (!canvas) return;
  const blob = await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, "image/png"));
  if (blob) downloadBlob(blob, `${filename}.png`);
}
