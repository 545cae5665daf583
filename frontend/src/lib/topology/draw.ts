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
  /** A screen rectangle (CSS px) drawn over the canvas, such as the zoom buttons: tags keep out of it. */
  keepClear?: ScreenRect | null;
}

export interface ScreenRect {
  x: number;
  y: number;
  w: number;
  h: number;
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

/** The visible world rectangle under a view, with a margin (nodes half off-screen still drawn). */
export function visibleWorld(view: View, width: number, height: number, margin = 20) {
  return {
    x0: (-view.x - margin) / view.k, y0: (-view.y - margin) / view.k,
    x1: (width - view.x + margin) / view.k, y1: (height - view.y + margin) / view.k,
  };
}

const positionCache = new WeakMap<LayoutGraph, Map<string, { x: number; y: number }>>();

/** Node positions by id; cached per graph while nothing is being dragged (5,000 nodes every frame). */
function positionsOf(graph: LayoutGraph, positions?: Map<string, { x: number; y: number }>): Positions {
  let m = positionCache.get(graph);
  if (!m) {
    m = new Map(graph.nodes.map((n) => [n.id, n]));
    positionCache.set(graph, m);
  }
  // while dragging, the few dragged nodes are looked up first (no 5,000-entry map per frame)
  if (positions && positions.size > 0) {
    const base = m;
    return { get: (id: string) => positions.get(id) ?? base.get(id) };
  }
  return m;
}

/**
 * Draws the graph in world coordinates under the given view. Built for thousands of nodes: only
 * what is on screen is drawn, links are batched per colour and nodes per fill, and a host smaller
 * than 2.5 px on screen is a square (level of detail: arcs cost more and look the same).
 */
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

  const byId = positionsOf(graph, style.positions);
  const vis = visibleWorld(view, width, height);
  const batches = new Map<string, { width: number; idx: number[] }>();
  graph.links.forEach((l, i) => {
    const a = byId.get(l.a);
    const z = byId.get(l.b);
    if (!a || !z) return;
    // off screen when both ends lie beyond the same edge
    if ((a.x < vis.x0 && z.x < vis.x0) || (a.x > vis.x1 && z.x > vis.x1) || (a.y < vis.y0 && z.y < vis.y0) || (a.y > vis.y1 && z.y > vis.y1)) return;
    const key = `${style.linkStroke(i)}|${style.linkWidth(i)}`;
    const b = batches.get(key) ?? { width: style.linkWidth(i), idx: [] };
    b.idx.push(i);
    batches.set(key, b);
  });
  for (const [key, b] of batches) {
    ctx.beginPath();
    for (const i of b.idx) {
      const l = graph.links[i];
      const a = byId.get(l.a)!;
      const z = byId.get(l.b)!;
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
  const hostAsSquare = hostR * view.k < 2.5;
  const fills = new Map<string, LayoutNode[]>();
  const boxes: LayoutNode[] = [];
  const chosen: LayoutNode[] = [];
  for (const n of graph.nodes) {
    const p = byId.get(n.id)!;
    const r = n.half ? Math.max(n.half.w, n.half.h) : switchH;
    if (p.x + r < vis.x0 || p.x - r > vis.x1 || p.y + r < vis.y0 || p.y - r > vis.y1) continue;
    if (n.half) { boxes.push(n); continue; }
    const f = style.nodeFill(n);
    const list = fills.get(f);
    if (list) list.push(n); else fills.set(f, [n]);
    if (style.selected.has(n.id)) chosen.push(n);
  }
  const outline = (n: LayoutNode) => {
    const p = byId.get(n.id)!;
    if (n.kind === "host" && !hostAsSquare) {
      ctx.moveTo(p.x + hostR, p.y);
      ctx.arc(p.x, p.y, hostR, 0, 2 * Math.PI);
    } else if (n.kind === "host") ctx.rect(p.x - hostR, p.y - hostR, hostR * 2, hostR * 2);
    else ctx.rect(p.x - switchH, p.y - switchH, switchH * 2, switchH * 2);
  };
  for (const [fill, list] of fills) {
    ctx.beginPath();
    for (const n of list) outline(n);
    ctx.fillStyle = fill;
    ctx.fill();
  }
  if (chosen.length) {
    ctx.beginPath();
    for (const n of chosen) outline(n);
    ctx.lineWidth = 5 / view.k;
    ctx.strokeStyle = "#fff";
    ctx.stroke();
    ctx.lineWidth = 2.5 / view.k;
    ctx.strokeStyle = SELECTION_COLOR;
    ctx.stroke();
  }
  drawGroupBoxes(ctx, boxes, byId, view, style);

  drawBadges(ctx, byId, view, switchH, width, style.badges, style.keepClear);
  if (style.labels || style.hovered) drawLabels(ctx, graph, view, byId, style, dpr, vis);

  if (style.box) {
    const { x0, y0, x1, y1 } = style.box;
    ctx.setLineDash([4 / view.k, 4 / view.k]);
    ctx.strokeStyle = "#333";
    ctx.lineWidth = 1 / view.k;
    ctx.strokeRect(Math.min(x0, x1), Math.min(y0, y1), Math.abs(x1 - x0), Math.abs(y1 - y0));
    ctx.setLineDash([]);
  }
}

/** Collapsed pods: a tinted box over where their members were, named with the member count. */
function drawGroupBoxes(ctx: CanvasRenderingContext2D, boxes: LayoutNode[], byId: Positions, view: View, style: DrawStyle) {
  for (const n of boxes) {
    const p = byId.get(n.id)!;
    const { w, h } = n.half!;
    ctx.beginPath();
    ctx.rect(p.x - w, p.y - h, 2 * w, 2 * h);
    // nearly opaque: the links drawn under it end at its border instead of crossing it
    ctx.fillStyle = "rgba(221,236,218,0.96)";
    ctx.fill();
    ctx.lineWidth = (style.selected.has(n.id) ? 3 : 1.5) / view.k;
    ctx.strokeStyle = style.selected.has(n.id) ? SELECTION_COLOR : "#3d7a35";
    ctx.stroke();
    ctx.textAlign = "center";
    ctx.textBaseline = "middle";
    ctx.fillStyle = "#1d2330";
    // name and member count on two lines; each is left out when the box is narrower than it
    const lines: [string, string][] = [[n.id, "600"], [`${n.members?.length ?? 0} nodes`, "400"]];
    lines.forEach(([text, weight], i) => {
      ctx.font = `${weight} ${12 / view.k}px sans-serif`;
      if (ctx.measureText(text).width < 2 * w - 4 / view.k) ctx.fillText(text, p.x, p.y + (i - 0.5) * 15 / view.k);
    });
    ctx.textBaseline = "alphabetic";
  }
}

/** Where each node is drawn: only lookups by id are needed. */
type Positions = { get(id: string): { x: number; y: number } | undefined };

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
 *  canvas (a node at the edge of a stretched layout would otherwise lose half its tag) and out of
 *  `keepClear` (the zoom buttons over the canvas' top right corner): a tag that would run under
 *  them moves left of them. */
function drawBadges(ctx: CanvasRenderingContext2D, byId: Positions, view: View, half: number, width: number,
  badges?: Map<string, string>, keepClear?: ScreenRect | null) {
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
    let sx = Math.min(Math.max(view.x + view.k * p.x, halfText), Math.max(halfText, width - halfText));
    const sy = view.y + view.k * ty; // the text's baseline; it rises about 11 px above it
    if (keepClear && sy + 3 > keepClear.y && sy - 12 < keepClear.y + keepClear.h
      && sx + halfText > keepClear.x && sx - halfText < keepClear.x + keepClear.w) {
      sx = Math.max(halfText, keepClear.x - halfText - 2);
    }
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

/**
 * The node under a world point, topmost first. `k` is the view's zoom: zoomed far out, nodes are
 * drawn at a minimum on-screen size, and a click on what is drawn must hit it.
 */
export function hitNode(graph: LayoutGraph, wx: number, wy: number, positions?: Map<string, { x: number; y: number }>, k = 1) {
  const hostR = Math.max(HOST_RADIUS, 1.5 / k) + 2 / k;
  const switchR = Math.max(SWITCH_HALF, 2.5 / k) + 2 / k;
  for (let i = graph.nodes.length - 1; i >= 0; i -= 1) {
    const n = graph.nodes[i];
    const p = nodePosition(n, positions);
    if (n.half) {
      if (Math.abs(p.x - wx) <= n.half.w && Math.abs(p.y - wy) <= n.half.h) return n;
      continue;
    }
    const r = n.kind === "host" ? hostR : switchR;
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

/** More label candidates than this on screen (a fabric zoomed out) and host labels are skipped. */
export const MAX_LABEL_CANDIDATES = 3000;

/** Placed label rectangles in a grid of screen cells, so each new label checks only its neighbours. */
class RectGrid {
  private cells = new Map<number, Rect[]>();
  constructor(private size = 64) {}
  private keys(r: Rect) {
    const out: number[] = [];
    for (let gx = Math.floor(r.x0 / this.size); gx <= Math.floor(r.x1 / this.size); gx += 1) {
      for (let gy = Math.floor(r.y0 / this.size); gy <= Math.floor(r.y1 / this.size); gy += 1) out.push(gx * 100003 + gy);
    }
    return out;
  }
  hits(r: Rect) {
    return this.keys(r).some((k) => this.cells.get(k)?.some((p) => overlaps(p, r)));
  }
  add(r: Rect) {
    for (const k of this.keys(r)) {
      const list = this.cells.get(k);
      if (list) list.push(r); else this.cells.set(k, [r]);
    }
  }
}

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
  const placed = new RectGrid();
  const out: { id: string; x: number; y: number }[] = [];
  const rectOf = (n: (typeof nodes)[number]) => {
    const w = measure(n.id) + 4;
    const y = n.sy + n.below + fontPx;
    return { rect: { x0: n.sx - w / 2, y0: y - fontPx, x1: n.sx + w / 2, y1: y + 3 }, y };
  };
  const hov = hovered ? nodes.find((n) => n.id === hovered) : undefined;
  if (hov) {
    const { rect, y } = rectOf(hov);
    placed.add(rect);
    out.push({ id: hov.id, x: hov.sx, y });
  }
  for (const n of order) {
    if (n === hov) continue;
    const { rect, y } = rectOf(n);
    if (placed.hits(rect)) continue;
    placed.add(rect);
    out.push({ id: n.id, x: n.sx, y });
  }
  return out;
}

function drawLabels(
  ctx: CanvasRenderingContext2D,
  graph: LayoutGraph,
  view: View,
  byId: Positions,
  style: DrawStyle,
  dpr: number,
  vis: ReturnType<typeof visibleWorld>,
) {
  const fontPx = 11;
  // labels are laid out in screen pixels, so their size does not change with the zoom
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  ctx.font = `${fontPx}px sans-serif`;
  const hostR = Math.max(HOST_RADIUS * view.k, 1.5);
  const switchH = Math.max(SWITCH_HALF * view.k, 2.5);
  // level of detail: only nodes on screen are candidates; with thousands on screen, switches only
  const onScreen = (n: LayoutNode) => {
    const p = byId.get(n.id)!;
    return !n.half && p.x >= vis.x0 && p.x <= vis.x1 && p.y >= vis.y0 && p.y <= vis.y1;
  };
  let pool = style.labels ? graph.nodes.filter(onScreen) : graph.nodes.filter((n) => n.id === style.hovered);
  if (pool.length > MAX_LABEL_CANDIDATES) pool = pool.filter((n) => n.kind === "switch" || n.id === style.hovered);
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
