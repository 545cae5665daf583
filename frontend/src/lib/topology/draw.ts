import type { LayoutGraph, LayoutNode } from "./types";
import { longHaulLabel } from "./linkLabels";

export interface View {
  x: number;
  y: number;
  k: number;
}

export interface DrawStyle {
  nodeFill: (n: LayoutNode) => string;
  linkStroke: (index: number) => string;
  linkWidth: (index: number) => number;
  selected: Set<string>;
  /** Indices of selected links, drawn on top in the selection colour. */
  selectedLinks?: Set<number>;
  positions?: Map<string, { x: number; y: number }>;
  box?: { x0: number; y0: number; x1: number; y1: number } | null;
  labels: boolean;
  /** Node under the pointer: its label is always drawn, on top. */
  hovered?: string | null;
  /** node id -> a role drawn as a ring and a tag beside the node (the DCI WAN accelerator). */
  badges?: Map<string, string>;
}

/** Badge rings and tags: amber, apart from the selection blue and the error red. */
export const BADGE_COLOR = "#b35c00";

export const HOST_RADIUS = 5;
export const SWITCH_HALF = 8;

/** Selection is blue with a white halo: red is kept for errors. */
export const SELECTION_COLOR = "#0072b2";

export const defaultNodeFill = (n: LayoutNode) => (n.kind === "host" ? "#4c78a8" : "#54a24b");

export function nodePosition(n: LayoutNode, positions?: Map<string, { x: number; y: number }>) {
  return positions?.get(n.id) ?? n;
}

/** Draws the graph in world coordinates under the given view; links batched per colour. */
export function drawTopology(
  ctx: CanvasRenderingContext2D,
  graph: LayoutGraph,
  view: View,
  size: { width: number; height: number; dpr: number },
  style: DrawStyle,
) {
  const { width, height, dpr } = size;
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  ctx.clearRect(0, 0, width, height);
  ctx.setTransform(dpr * view.k, 0, 0, dpr * view.k, dpr * view.x, dpr * view.y);

  const byId = new Map(graph.nodes.map((n) => [n.id, nodePosition(n, style.positions)]));
  const batches = new Map<string, { width: number; idx: number[] }>();
  graph.links.forEach((_, i) => {
    const key = `${style.linkStroke(i)}|${style.linkWidth(i)}`;
    const b = batches.get(key) ?? { width: style.linkWidth(i), idx: [] };
    b.idx.push(i);
    batches.set(key, b);
  });
  for (const [key, b] of batches) {
    ctx.beginPath();
    for (const i of b.idx) {
      const l = graph.links[i];
      const a = byId.get(l.a);
      const z = byId.get(l.b);
      if (!a || !z) continue;
      ctx.moveTo(a.x, a.y);
      ctx.lineTo(z.x, z.y);
    }
    ctx.strokeStyle = key.split("|")[0];
    ctx.lineWidth = b.width / view.k;
    ctx.stroke();
  }
  drawSelectedLinks(ctx, graph, byId, view, style.selectedLinks);
  drawLongHaulLabels(ctx, graph, byId, view);

  // zoomed far out, nodes keep a minimum on-screen size
  const hostR = Math.max(HOST_RADIUS, 1.5 / view.k);
  const switchH = Math.max(SWITCH_HALF, 2.5 / view.k);
  for (const n of graph.nodes) {
    const p = byId.get(n.id)!;
    ctx.fillStyle = style.nodeFill(n);
    ctx.beginPath();
    if (n.kind === "host") ctx.arc(p.x, p.y, hostR, 0, 2 * Math.PI);
    else ctx.rect(p.x - switchH, p.y - switchH, switchH * 2, switchH * 2);
    ctx.fill();
    if (style.selected.has(n.id)) {
      ctx.lineWidth = 5 / view.k;
      ctx.strokeStyle = "#fff";
      ctx.stroke();
      ctx.lineWidth = 2.5 / view.k;
      ctx.strokeStyle = SELECTION_COLOR;
      ctx.stroke();
    }
  }

  drawBadges(ctx, byId, view, switchH, width, style.badges);
  if (style.labels || style.hovered) drawLabels(ctx, graph, view, byId, style, dpr);

  if (style.box) {
    const { x0, y0, x1, y1 } = style.box;
    ctx.setLineDash([4 / view.k, 4 / view.k]);
    ctx.strokeStyle = "#333";
    ctx.lineWidth = 1 / view.k;
    ctx.strokeRect(Math.min(x0, x1), Math.min(y0, y1), Math.abs(x1 - x0), Math.abs(y1 - y0));
    ctx.setLineDash([]);
  }
}

type Positions = Map<string, { x: number; y: number }>;

function drawSelectedLinks(ctx: CanvasRenderingContext2D, graph: LayoutGraph, byId: Positions, view: View, chosen?: Set<number>) {
  if (!chosen || chosen.size === 0) return;
  for (const [color, width] of [["#fff", 7], [SELECTION_COLOR, 3.5]] as const) {
    ctx.beginPath();
    for (const i of chosen) {
      const l = graph.links[i];
      const a = l && byId.get(l.a);
      const z = l && byId.get(l.b);
      if (!a || !z) continue;
      ctx.moveTo(a.x, a.y);
      ctx.lineTo(z.x, z.y);
    }
    ctx.strokeStyle = color;
    ctx.lineWidth = width / view.k;
    ctx.stroke();
  }
}

/** A ring around each badged node and its tag above it, in screen-sized text, kept inside the
 *  canvas (a node at the edge of a stretched layout would otherwise lose half its tag). */
function drawBadges(ctx: CanvasRenderingContext2D, byId: Positions, view: View, half: number, width: number, badges?: Map<string, string>) {
  if (!badges || badges.size === 0) return;
  ctx.font = `bold ${11 / view.k}px sans-serif`;
  ctx.textAlign = "center";
  for (const [id, text] of badges) {
    const p = byId.get(id);
    if (!p) continue;
    const r = half + 5 / view.k;
    ctx.beginPath();
    ctx.arc(p.x, p.y, r, 0, 2 * Math.PI);
    ctx.lineWidth = 2.5 / view.k;
    ctx.strokeStyle = BADGE_COLOR;
    ctx.stroke();
    const ty = p.y - r - 6 / view.k;
    const halfText = (ctx.measureText(text).width * view.k) / 2 + 2; // screen px
    const sx = Math.min(Math.max(view.x + view.k * p.x, halfText), Math.max(halfText, width - halfText));
    const tx = (sx - view.x) / view.k;
    ctx.lineWidth = 4 / view.k;
    ctx.strokeStyle = "rgba(255,255,255,0.9)";
    ctx.strokeText(text, tx, ty);
    ctx.fillStyle = BADGE_COLOR;
    ctx.fillText(text, tx, ty);
  }
}

/** Long-haul links (DCI) carry their length and delay at the middle, in screen-sized text. */
function drawLongHaulLabels(ctx: CanvasRenderingContext2D, graph: LayoutGraph, byId: Positions, view: View) {
  ctx.font = `${12 / view.k}px sans-serif`;
  ctx.textAlign = "center";
  for (const l of graph.links) {
    const text = longHaulLabel(l);
    const a = byId.get(l.a);
    const z = byId.get(l.b);
    if (!text || !a || !z) continue;
    const mx = (a.x + z.x) / 2;
    const my = (a.y + z.y) / 2 - 8 / view.k;
    ctx.lineWidth = 4 / view.k;
    ctx.strokeStyle = "rgba(255,255,255,0.9)";
    ctx.strokeText(text, mx, my);
    ctx.fillStyle = "#1d2330";
    ctx.fillText(text, mx, my);
  }
}

/** The node under a world point, topmost first. */
export function hitNode(graph: LayoutGraph, wx: number, wy: number, positions?: Map<string, { x: number; y: number }>) {
  for (let i = graph.nodes.length - 1; i >= 0; i -= 1) {
    const n = graph.nodes[i];
    const p = nodePosition(n, positions);
    const r = n.kind === "host" ? HOST_RADIUS + 2 : SWITCH_HALF + 2;
    if (Math.abs(p.x - wx) <= r && Math.abs(p.y - wy) <= r) return n;
  }
  return null;
}

/** Index of the link nearest to a world point within `tolerance`, or -1. */
export function hitLink(graph: LayoutGraph, wx: number, wy: number, tolerance: number) {
  const byId = new Map(graph.nodes.map((n) => [n.id, n]));
  let best = -1;
  let bestD = tolerance;
  graph.links.forEach((l, i) => {
    const a = byId.get(l.a);
    const b = byId.get(l.b);
    if (!a || !b) return;
    const d = pointSegmentDistance(wx, wy, a.x, a.y, b.x, b.y);
    if (d < bestD) {
      bestD = d;
      best = i;
    }
  });
  return best;
}

function pointSegmentDistance(px: number, py: number, ax: number, ay: number, bx: number, by: number) {
  const dx = bx - ax;
  const dy = by - ay;
  const len2 = dx * dx + dy * dy;
  const t = len2 === 0 ? 0 : Math.max(0, Math.min(1, ((px - ax) * dx + (py - ay) * dy) / len2));
  return Math.hypot(px - (ax + t * dx), py - (ay + t * dy));
}

/** View that fits the graph into a viewport with a margin. */
export function fitView(graph: LayoutGraph, width: number, height: number, margin = 24): View {
  if (graph.nodes.length === 0) return { x: width / 2, y: height / 2, k: 1 };
  const xs = graph.nodes.map((n) => n.x);
  const ys = graph.nodes.map((n) => n.y);
  const minX = Math.min(...xs) - SWITCH_HALF;
  const maxX = Math.max(...xs) + SWITCH_HALF;
  const minY = Math.min(...ys) - SWITCH_HALF;
  const maxY = Math.max(...ys) + SWITCH_HALF + 16;
  const k = Math.min(
    (width - 2 * margin) / Math.max(maxX - minX, 1),
    (height - 2 * margin) / Math.max(maxY - minY, 1),
    2.5,
  );
  return {
    k,
    x: (width - k * (maxX + minX)) / 2,
    y: (height - k * (maxY + minY)) / 2,
  };
}

interface Rect {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

const overlaps = (a: Rect, b: Rect) => a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1;

/**
 * Level-of-detail labels: switches first (top tier first), then hosts; a label that would overlap
 * one already placed (or a node) is left out, so names never run together ("h9h1 h1"). Zooming in
 * spreads the nodes and brings the hidden labels back; the hovered node is always labelled.
 */
export function placeLabels(
  nodes: { id: string; kind: string; tier?: number; sx: number; sy: number; below: number }[],
  measure: (text: string) => number,
  fontPx: number,
  hovered?: string | null,
): { id: string; x: number; y: number }[] {
  const order = [...nodes].sort((a, b) => Number(a.kind === "host") - Number(b.kind === "host") || (b.tier ?? 0) - (a.tier ?? 0));
  const placed: Rect[] = [];
  const out: { id: string; x: number; y: number }[] = [];
  const rectOf = (n: (typeof nodes)[number]) => {
    const w = measure(n.id) + 4;
    const y = n.sy + n.below + fontPx;
    return { rect: { x0: n.sx - w / 2, y0: y - fontPx, x1: n.sx + w / 2, y1: y + 3 }, y };
  };
  const hov = hovered ? nodes.find((n) => n.id === hovered) : undefined;
  if (hov) {
    const { rect, y } = rectOf(hov);
    placed.push(rect);
    out.push({ id: hov.id, x: hov.sx, y });
  }
  for (const n of order) {
    if (n === hov) continue;
    const { rect, y } = rectOf(n);
    if (placed.some((p) => overlaps(p, rect))) continue;
    placed.push(rect);
    out.push({ id: n.id, x: n.sx, y });
  }
  return out;
}

function drawLabels(
  ctx: CanvasRenderingContext2D,
  graph: LayoutGraph,
  view: View,
  byId: Map<string, { x: number; y: number }>,
  style: DrawStyle,
  dpr: number,
) {
  const fontPx = 11;
  // labels are laid out in screen pixels, so their size does not change with the zoom
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  ctx.font = `${fontPx}px sans-serif`;
  const hostR = Math.max(HOST_RADIUS * view.k, 1.5);
  const switchH = Math.max(SWITCH_HALF * view.k, 2.5);
  const pool = style.labels ? graph.nodes : graph.nodes.filter((n) => n.id === style.hovered);
  const nodes = pool.map((n) => {
    const p = byId.get(n.id)!;
    return { id: n.id, kind: n.kind, tier: n.tier, sx: p.x * view.k + view.x, sy: p.y * view.k + view.y, below: n.kind === "host" ? hostR : switchH };
  });
  const cache = new Map<string, number>();
  const measure = (t: string) => {
    let w = cache.get(t);
    if (w === undefined) {
      w = ctx.measureText(t).width;
      cache.set(t, w);
    }
    return w;
  };
  ctx.textAlign = "center";
  ctx.lineWidth = 3;
  for (const l of placeLabels(nodes, measure, fontPx, style.hovered)) {
    const hovered = l.id === style.hovered;
    ctx.font = `${hovered ? "bold " : ""}${fontPx}px sans-serif`;
    ctx.strokeStyle = "rgba(255,255,255,0.9)";
    ctx.fillStyle = hovered ? "#000" : "#222";
    ctx.strokeText(l.id, l.x, l.y);
    ctx.fillText(l.id, l.x, l.y);
  }
  ctx.setTransform(dpr * view.k, 0, 0, dpr * view.k, dpr * view.x, dpr * view.y);
}

/**
 * The graph with its coordinates stretched to the panel's aspect ratio, so a small fabric fills
 * the width instead of a third of it. Node sizes are unchanged (they are drawn in world units).
 */
export function stretchToAspect(graph: LayoutGraph, width: number, height: number, margin = 24): LayoutGraph {
  if (graph.nodes.length < 2 || width <= 0 || height <= 0) return graph;
  const xs = graph.nodes.map((n) => n.x);
  const ys = graph.nodes.map((n) => n.y);
  const [minX, maxX, minY, maxY] = [Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)];
  const bw = Math.max(maxX - minX, 1);
  const bh = Math.max(maxY - minY, 1);
  // room for the nodes and the labels under the bottom row
  const target = Math.max(width - 2 * margin - 2 * SWITCH_HALF, 1) / Math.max(height - 2 * margin - SWITCH_HALF - 30, 1);
  const fx = bw / bh < target ? target / (bw / bh) : 1;
  const fy = bw / bh > target && maxY > minY ? Math.min((bw / bh) / target, 3) : 1;
  if (fx === 1 && fy === 1) return graph;
  return {
    ...graph,
    nodes: graph.nodes.map((n) => ({ ...n, x: minX + (n.x - minX) * fx, y: minY + (n.y - minY) * fy })),
    width: graph.width * fx,
    height: graph.height * fy,
  };
}
