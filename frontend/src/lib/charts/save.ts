/** Serialises an SVG element into a standalone SVG document string. */
export function svgToString(svg: SVGSVGElement): string {
  const clone = svg.cloneNode(true) as SVGSVGElement;
  clone.setAttribute("xmlns", "http://www.w3.org/2000/svg");
  clone.setAttribute("font-family", "system-ui, sans-serif");
  const w = svg.getAttribute("width");
  const h = svg.getAttribute("height");
  if (w && h && !clone.getAttribute("viewBox")) clone.setAttribute("viewBox", `0 0 ${w} ${h}`);
  const bg = document.createElementNS("http://www.w3.org/2000/svg", "rect");
  bg.setAttribute("width", "100%");
  bg.setAttribute("height", "100%");
  bg.setAttribute("fill", "#fff");
  clone.insertBefore(bg, clone.firstChild);
  return new XMLSerializer().serializeToString(clone);
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

export function saveSvg(svg: SVGSVGElement, filename: string) {
  downloadBlob(new Blob([svgToString(svg)], { type: "image/svg+xml" }), `${filename}.svg`);
}

/** Renders the SVG (and any canvas layered inside the figure) into a PNG at 2x. */
export async function savePng(figure: HTMLElement, filename: string) {
  const svg = figure.querySelector("svg");
  if (!svg) return;
  const width = Number(svg.getAttribute("width")) || svg.clientWidth;
  const height = Number(svg.getAttribute("height")) || svg.clientHeight;
  const scale = 2;
  const canvas = document.createElement("canvas");
  canvas.width = width * scale;
  canvas.height = height * scale;
  const ctx = canvas.getContext("2d");
  if (!ctx) return;
  ctx.scale(scale, scale);
  const img = new Image();
  const url = URL.createObjectURL(new Blob([svgToString(svg)], { type: "image/svg+xml" }));
  await new Promise<void>((resolve, reject) => {
    img.onload = () => resolve();
    img.onerror = () => reject(new Error("could not render the chart"));
    img.src = url;
  });
  ctx.drawImage(img, 0, 0, width, height);
  URL.revokeObjectURL(url);
  // canvases (large heatmaps, topology) are not part of the SVG: paint them at their place
  const origin = svg.getBoundingClientRect();
  figure.querySelectorAll("canvas").forEach((c) => {
    const r = c.getBoundingClientRect();
    ctx.drawImage(c, r.left - origin.left, r.top - origin.top, r.width, r.height);
  });
  const blob = await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, "image/png"));
  if (blob) downloadBlob(blob, `${filename}.png`);
}
