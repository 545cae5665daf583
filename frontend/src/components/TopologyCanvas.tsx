import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { select } from "d3-selection";
import { type ZoomBehavior, zoom, zoomIdentity } from "d3-zoom";
import { useParentSize } from "../lib/hooks/useParentSize";
import { type ScreenRect, type View, defaultNodeFill, drawTopology, fitView, hitLink, hitNode, stretchToAspect } from "../lib/topology/draw";
import type { LayoutGraph, LayoutNode } from "../lib/topology/types";

/** The zoom buttons' column at the right (right: 6px + 30px wide in styles.css) and a little air. */
const ZOOM_GUTTER = 40;

/** Where the zoom buttons sit over the canvas (CSS px from its top left), for the drawing to keep clear. */
function zoomButtonsRect(buttons: HTMLElement | null, box: HTMLElement | null): ScreenRect | null {
  if (!buttons || !box) return null;
  const b = buttons.getBoundingClientRect();
  const o = box.getBoundingClientRect();
  if (b.width === 0 && b.height === 0) return null;
  return { x: b.left - o.left, y: b.top - o.top, w: b.width, h: b.height };
}

export interface TopologyCanvasProps {
  graph: LayoutGraph;
  height?: number;
  ariaLabel: string;
  nodeFill?: (n: LayoutNode) => string;
  linkStroke?: (index: number) => string;
  linkWidth?: (index: number) => number;
  selected?: Set<string>;
  selectedLinks?: Set<number>;
  /** Changing this re-fits the view (a new fabric), other graph changes keep the view. */
  fitKey?: string;
  interactive?: boolean;
  /** Node labels: "auto" shows them on small fabrics or when zoomed in. */
  labels?: "auto" | "never";
  onNodeClick?: (id: string, e: { shiftKey: boolean }) => void;
  onLinkClick?: (index: number) => void;
  /** The link under the pointer (null when none), for views that show a link's values on hover. */
  onLinkHover?: (index: number | null) => void;
  /** The canvas's tooltip while a link is under the pointer. */
  linkTitle?: (index: number) => string;
  onNodeDoubleClick?: (id: string) => void;
  onBackgroundClick?: (world: { x: number; y: number }) => void;
  onDragEnd?: (positions: Record<string, { x: number; y: number }>) => void;
  onBoxSelect?: (ids: string[]) => void;
  /** Stretch the layout to the panel's shape (read-only views such as the results overlay). */
  fill?: boolean;
  /** node id -> role tag drawn with a ring (the DCI WAN accelerator at the site edges). */
  badges?: Map<string, string>;
}

type Gesture =
  | { kind: "drag"; ids: string[]; startX: number; startY: number; moved: boolean; clicked: string; shift: boolean }
  | { kind: "box"; x0: number; y0: number; x1: number; y1: number };

const greyLink = () => "#9aa4b1";
const thinLink = () => 1;

/** Canvas drawing of a fabric with d3-zoom pan/zoom; scales to thousands of nodes. */
export function TopologyCanvas(props: TopologyCanvasProps) {
  const { height = 480, interactive = true, selected } = props;
  const { ref: boxRef, width } = useParentSize<HTMLDivElement>();
  // A filled drawing (the results overlays) is fitted left of the zoom buttons' column, so no node,
  // label or tag sits under them; the editor keeps the whole width (its buttons float over it).
  const fitWidth = props.fill && interactive ? Math.max(width - ZOOM_GUTTER, 1) : width;
  const graph = useMemo(() => (props.fill ? stretchToAspect(props.graph, fitWidth, height) : props.graph), [props.fill, props.graph, fitWidth, height]);
  const graphRef = useRef(graph);
  graphRef.current = graph;
  const [hovered, setHovered] = useState<string | null>(null);
  const [hoveredLink, setHoveredLink] = useState<number | null>(null);
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const buttonsRef = useRef<HTMLDivElement>(null);
  const viewRef = useRef<View>({ x: 0, y: 0, k: 1 });
  const zoomRef = useRef<ZoomBehavior<HTMLCanvasElement, unknown> | null>(null);
  const gestureRef = useRef<Gesture | null>(null);
  const [positions, setPositions] = useState<Map<string, { x: number; y: number }>>(new Map());
  const frame = useRef(0);
  const propsRef = useRef(props);
  propsRef.current = props;

  // Labels by level of detail: drawTopology labels only what is on screen, switches first, and
  // placeLabels hides the ones that would overlap; zooming in brings them back.
  const labels = props.labels !== "never";
  const draw = useCallback(() => {
    cancelAnimationFrame(frame.current);
    frame.current = requestAnimationFrame(() => {
      const ctx = canvasRef.current?.getContext("2d");
      if (!ctx) return;
      const p = propsRef.current;
      const g = gestureRef.current;
      drawTopology(ctx, graphRef.current, viewRef.current, { width, height, dpr: window.devicePixelRatio || 1 }, {
        nodeFill: p.nodeFill ?? defaultNodeFill,
        linkStroke: p.linkStroke ?? greyLink,
        linkWidth: p.linkWidth ?? thinLink,
        selected: p.selected ?? new Set(),
        selectedLinks: p.selectedLinks,
        positions,
        box: g?.kind === "box" ? g : null,
        labels,
        hovered,
        badges: p.badges,
        keepClear: zoomButtonsRect(buttonsRef.current, boxRef.current),
      });
    });
  }, [width, height, positions, labels, hovered, props.labels]);

  const toWorld = useCallback((e: { clientX: number; clientY: number }) => {
    const rect = canvasRef.current!.getBoundingClientRect();
    const v = viewRef.current;
    return { x: (e.clientX - rect.left - v.x) / v.k, y: (e.clientY - rect.top - v.y) / v.k };
  }, []);

  useEffect(() => {
    const canvas = canvasRef.current;
    if (!canvas) return;
    const z = zoom<HTMLCanvasElement, unknown>()
      .scaleExtent([0.02, 20])
      .filter((event: MouseEvent & WheelEvent) => {
        if (!propsRef.current.interactive && propsRef.current.interactive !== undefined) return false;
        if (event.type === "wheel") return true;
        if (event.shiftKey || event.button) return false;
        const w = toWorld(event);
        return !(propsRef.current.onDragEnd && hitNode(graphRef.current, w.x, w.y, undefined, viewRef.current.k));
      })
      .on("zoom", (event) => {
        viewRef.current = { x: event.transform.x, y: event.transform.y, k: event.transform.k };
        draw();
      });
    zoomRef.current = z;
    select(canvas).call(z);
    return () => {
      select(canvas).on(".zoom", null);
    };
  }, [draw, toWorld]);

  const setView = useCallback((v: View) => {
    const canvas = canvasRef.current;
    if (canvas && zoomRef.current) {
      select(canvas).call(zoomRef.current.transform, zoomIdentity.translate(v.x, v.y).scale(v.k));
    }
    viewRef.current = v;
    draw();
  }, [draw]);

  const fitKey = props.fitKey ?? `${graph.nodes.length}${props.fill ? `:${graph.width}` : ""}`;
  useEffect(() => {
    setView(fitView(graph, fitWidth, height));
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [fitKey, width, height]);

  useEffect(() => draw(), [draw, graph, selected, props.selectedLinks, props.nodeFill, props.linkStroke]);

  const onPointerDown = (e: React.PointerEvent<HTMLCanvasElement>) => {
    if (!interactive || e.button !== 0) return;
    const w = toWorld(e);
    const node = hitNode(graph, w.x, w.y, positions, viewRef.current.k);
    if (node && props.onDragEnd) {
      const ids = selected?.has(node.id) ? [...selected] : [node.id];
      gestureRef.current = { kind: "drag", ids, startX: w.x, startY: w.y, moved: false, clicked: node.id, shift: e.shiftKey };
      e.currentTarget.setPointerCapture?.(e.pointerId);
    } else if (!node && e.shiftKey && props.onBoxSelect) {
      gestureRef.current = { kind: "box", x0: w.x, y0: w.y, x1: w.x, y1: w.y };
      e.currentTarget.setPointerCapture?.(e.pointerId);
    }
  };

  const onPointerMove = (e: React.PointerEvent<HTMLCanvasElement>) => {
    const g = gestureRef.current;
    if (!g) {
      const w = toWorld(e);
      const n = hitNode(graph, w.x, w.y, positions, viewRef.current.k);
      if ((n?.id ?? null) !== hovered) setHovered(n?.id ?? null);
      if (props.onLinkHover || props.linkTitle) {
        const link = n ? -1 : hitLink(graph, w.x, w.y, 6 / viewRef.current.k);
        const next = link >= 0 ? link : null;
        if (next !== hoveredLink) {
          setHoveredLink(next);
          props.onLinkHover?.(next);
        }
      }
      return;
    }
    const w = toWorld(e);
    if (g.kind === "box") {
      g.x1 = w.x;
      g.y1 = w.y;
      draw();
      return;
    }
    const dx = w.x - g.startX;
    const dy = w.y - g.startY;
    if (!g.moved && Math.hypot(dx, dy) * viewRef.current.k < 3) return;
    g.moved = true;
    const byId = new Map(graph.nodes.map((n) => [n.id, n]));
    const next = new Map<string, { x: number; y: number }>();
    for (const id of g.ids) {
      const n = byId.get(id);
      if (n) next.set(id, { x: n.x + dx, y: n.y + dy });
    }
    setPositions(next);
  };

  const onPointerUp = () => {
    const g = gestureRef.current;
    gestureRef.current = null;
    if (!g) return;
    if (g.kind === "box") {
      const [xa, xb] = [Math.min(g.x0, g.x1), Math.max(g.x0, g.x1)];
      const [ya, yb] = [Math.min(g.y0, g.y1), Math.max(g.y0, g.y1)];
      props.onBoxSelect?.(graph.nodes.filter((n) => n.x >= xa && n.x <= xb && n.y >= ya && n.y <= yb).map((n) => n.id));
      draw();
    } else if (g.moved) {
      props.onDragEnd?.(Object.fromEntries(positions));
      setPositions(new Map());
    } else {
      props.onNodeClick?.(g.clicked, { shiftKey: g.shift });
    }
  };

  const onClick = (e: React.MouseEvent<HTMLCanvasElement>) => {
    if (!interactive || e.shiftKey) return;
    const w = toWorld(e);
    const node = hitNode(graph, w.x, w.y, undefined, viewRef.current.k);
    if (node) {
      if (!props.onDragEnd) props.onNodeClick?.(node.id, { shiftKey: e.shiftKey });
      return;
    }
    const link = props.onLinkClick ? hitLink(graph, w.x, w.y, 6 / viewRef.current.k) : -1;
    if (link >= 0) props.onLinkClick?.(link);
    else props.onBackgroundClick?.(w);
  };

  const zoomBy = (factor: number) => {
    const canvas = canvasRef.current;
    if (canvas && zoomRef.current) select(canvas).call(zoomRef.current.scaleBy, factor);
  };

  const memoStyle = useMemo(() => ({ height }), [height]);
  return (
    <div ref={boxRef} className="topology-canvas" style={memoStyle}>
      <canvas
        ref={canvasRef}
        width={Math.floor(width * (window.devicePixelRatio || 1))}
        height={Math.floor(height * (window.devicePixelRatio || 1))}
        style={{ width, height }}
        role="img"
        aria-label={props.ariaLabel}
        tabIndex={interactive ? 0 : -1}
        onPointerDown={onPointerDown}
        onPointerMove={onPointerMove}
        onPointerUp={onPointerUp}
        onPointerLeave={() => {
          setHovered(null);
          if (hoveredLink != null) {
            setHoveredLink(null);
            props.onLinkHover?.(null);
          }
        }}
        title={hovered ?? (hoveredLink != null && props.linkTitle ? props.linkTitle(hoveredLink) : undefined)}
        onClick={onClick}
        onDoubleClick={(e) => {
          const w = toWorld(e);
          const node = hitNode(graph, w.x, w.y, undefined, viewRef.current.k);
          if (node) props.onNodeDoubleClick?.(node.id);
        }}
        onKeyDown={(e) => {
          if (e.key === "+" || e.key === "=") zoomBy(1.25);
          else if (e.key === "-") zoomBy(0.8);
          else if (e.key === "0") setView(fitView(graph, fitWidth, height));
        }}
        data-nodes={graph.nodes.length}
        data-links={graph.links.length}
      />
      {interactive && (
        <div className="canvas-zoom-buttons" ref={buttonsRef}>
          <button type="button" onClick={() => zoomBy(1.25)} aria-label="Zoom in">+</button>
          <button type="button" onClick={() => zoomBy(0.8)} aria-label="Zoom out">−</button>
          <button type="button" onClick={() => setView(fitView(graph, fitWidth, height))} aria-label="Fit to view">⤢</button>
        </div>
      )}
    </div>
  );
}
