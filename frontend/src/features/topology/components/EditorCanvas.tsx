import { useMemo, useState } from "react";
import { TopologyCanvas } from "../../../components/TopologyCanvas";
import { defaultNodeFill } from "../../../lib/topology/draw";
import { collapsePods, expandIds } from "../../../lib/topology/groups";
import { podOf, podsOf } from "../../../lib/topology/bulk";
import type { LayoutGraph, LayoutNode } from "../../../lib/topology/types";

export type Tool = "select" | "switch" | "host" | "link";

const TOOLS: { tool: Tool; label: string; key: string }[] = [
  { tool: "select", label: "Select", key: "v" },
  { tool: "switch", label: "Add switch", key: "s" },
  { tool: "host", label: "Add host", key: "h" },
  { tool: "link", label: "Draw link", key: "l" },
];

export interface EditorCanvasProps {
  graph: LayoutGraph;
  fitKey: string;
  selected: Set<string>;
  /** Index of the selected link, highlighted on the canvas. */
  selectedLink?: number | null;
  /** Messages laid over the canvas (they never move it). */
  overlay?: React.ReactNode;
  /** node id -> role tag (the DCI WAN accelerator). */
  badges?: Map<string, string>;
  /** Hosts highlighted because a traffic generator uses them. */
  highlighted?: Set<string>;
  /** When set, clicks on hosts pick them for the traffic panel instead of selecting. */
  picking?: { label: string; onPick: (id: string) => void; onDone: () => void } | null;
  canUndo: boolean;
  canRedo: boolean;
  onSelect: (ids: string[], additive: boolean) => void;
  onSelectLink: (index: number | null) => void;
  onAddNode: (kind: "host" | "switch", x: number, y: number) => void;
  onAddLink: (a: string, b: string) => void;
  onMove: (positions: Record<string, { x: number; y: number }>) => void;
  onDelete: () => void;
  onUndo: () => void;
  onRedo: () => void;
}

/** The editing canvas: tool bar, canvas, and what a click means for each tool. */
export function EditorCanvas(p: EditorCanvasProps) {
  const [tool, setTool] = useState<Tool>("select");
  const [linkFrom, setLinkFrom] = useState<string | null>(null);
  // grouping is a view: collapsed pods are drawn as one box each; the document is unchanged
  const [collapsed, setCollapsed] = useState<Set<string>>(new Set());
  const pods = useMemo(() => podsOf(p.graph.nodes), [p.graph]);
  const shown = useMemo(() => collapsePods(p.graph, collapsed), [p.graph, collapsed]);
  const shownById = useMemo(() => new Map(shown.nodes.map((n) => [n.id, n])), [shown]);
  /** A box counts as selected when all its members are. */
  const shownSelected = useMemo(() => {
    if (collapsed.size === 0) return p.selected;
    const out = new Set(p.selected);
    for (const n of shown.nodes) if (n.members && n.members.every((m) => p.selected.has(m))) out.add(n.id);
    return out;
  }, [p.selected, shown, collapsed]);
  const toggleGroup = (id: string) => {
    const box = shownById.get(id);
    const realById = new Map(p.graph.nodes.map((n) => [n.id, n]));
    const pod = box?.members ? id : box ? podOf(box, realById) : null;
    if (!pod) return;
    setCollapsed((cur) => {
      const next = new Set(cur);
      if (next.has(pod)) next.delete(pod); else next.add(pod);
      return next;
    });
  };
  /** Dragging a box moves all its members by the same offset. */
  const onMove = (positions: Record<string, { x: number; y: number }>) => {
    const out: Record<string, { x: number; y: number }> = {};
    const realById = new Map(p.graph.nodes.map((n) => [n.id, n]));
    for (const [id, pos] of Object.entries(positions)) {
      const box = shownById.get(id);
      if (!box?.members) { out[id] = pos; continue; }
      const [dx, dy] = [pos.x - box.x, pos.y - box.y];
      for (const m of box.members) {
        const n = realById.get(m);
        if (n) out[m] = { x: n.x + dx, y: n.y + dy };
      }
    }
    p.onMove(out);
  };
  const nodeFill = useMemo(
    () => (n: LayoutNode) =>
      n.id === linkFrom ? "#0072b2" : p.highlighted?.has(n.id) ? "#E69F00" : defaultNodeFill(n),
    [linkFrom, p.highlighted],
  );

  const selectedLinks = useMemo(() => (p.selectedLink != null ? new Set([p.selectedLink]) : undefined), [p.selectedLink]);
  const onNodeClick = (id: string, e: { shiftKey: boolean }) => {
    if (p.picking) return p.picking.onPick(id);
    if (tool === "link") {
      if (shownById.get(id)?.members) return; // expand the pod to link one of its nodes
      if (!linkFrom) setLinkFrom(id);
      else {
        p.onAddLink(linkFrom, id);
        setLinkFrom(null);
      }
      return;
    }
    p.onSelectLink(null);
    // a collapsed pod selects its members (bulk edits apply to all of them)
    p.onSelect(expandIds(shown, [id]), e.shiftKey && !shownById.get(id)?.members);
  };

  const onBackgroundClick = (w: { x: number; y: number }) => {
    if (tool === "switch" || tool === "host") p.onAddNode(tool, w.x, w.y);
    else {
      setLinkFrom(null);
      p.onSelect([], false);
      p.onSelectLink(null);
    }
  };

  return (
    <div
      className="editor-canvas"
      onKeyDown={(e) => {
        const target = e.target as HTMLElement;
        if (target.tagName === "INPUT" || target.tagName === "SELECT" || target.tagName === "TEXTAREA") return;
        const mod = e.ctrlKey || e.metaKey;
        if (mod && e.key.toLowerCase() === "z") {
          e.preventDefault();
          if (e.shiftKey) p.onRedo();
          else p.onUndo();
        } else if (mod && e.key.toLowerCase() === "y") {
          e.preventDefault();
          p.onRedo();
        } else if (e.key === "Delete" || e.key === "Backspace") p.onDelete();
        else if (e.key === "Escape") {
          setLinkFrom(null);
          p.picking?.onDone();
        } else {
          const t = TOOLS.find((x) => x.key === e.key);
          if (t && !mod) setTool(t.tool);
        }
      }}
    >
      <div className="toolbar" role="toolbar" aria-label="Editor tools">
        {TOOLS.map((t) => (
          <button key={t.tool} type="button" aria-pressed={tool === t.tool} onClick={() => { setTool(t.tool); setLinkFrom(null); }} title={`${t.label} (${t.key})`}>
            {t.label}
          </button>
        ))}
        <span className="sep" />
        <button type="button" onClick={p.onDelete} disabled={p.selected.size === 0} title="Delete selection (Del)">Delete</button>
        <button type="button" onClick={p.onUndo} disabled={!p.canUndo} title="Undo (Ctrl+Z)">Undo</button>
        <button type="button" onClick={p.onRedo} disabled={!p.canRedo} title="Redo (Ctrl+Shift+Z)">Redo</button>
        {pods.length > 0 && (
          <>
            <span className="sep" />
            {collapsed.size < pods.length && (
              <button type="button" onClick={() => setCollapsed(new Set(pods))} title="Draw every pod/podset as one box (double-click a box to expand it)">
                Collapse {pods.length} {pods[0].startsWith("podset") ? "podsets" : "pods"}
              </button>
            )}
            {collapsed.size > 0 && <button type="button" onClick={() => setCollapsed(new Set())}>Expand all</button>}
          </>
        )}
      </div>
      {/* the banners lie over the canvas's top edge: choosing a tool never moves the canvas */}
      <div className="canvas-stack">
      {p.picking && (
        <div className="picking-banner canvas-banner" role="status">
          Click hosts on the canvas to {p.picking.label}. <button type="button" onClick={p.picking.onDone}>Done</button>
        </div>
      )}
      {tool === "link" && !p.picking && <div className="picking-banner canvas-banner" role="status">{linkFrom ? `Link from ${linkFrom}: click the other end` : "Click the first node of the link"}</div>}
      <TopologyCanvas
        graph={shown}
        fitKey={p.fitKey}
        height={540}
        ariaLabel={`Fabric editor canvas: ${p.graph.nodes.length} nodes, ${p.graph.links.length} links${collapsed.size ? `, ${collapsed.size} collapsed` : ""}`}
        selected={shownSelected}
        onNodeDoubleClick={pods.length > 0 ? toggleGroup : undefined}
        nodeFill={nodeFill}
        onNodeClick={onNodeClick}
        onBackgroundClick={onBackgroundClick}
        onLinkClick={tool === "select" && !p.picking ? (i) => { p.onSelect([], false); p.onSelectLink(i); } : undefined}
        onDragEnd={tool === "select" && !p.picking ? onMove : undefined}
        onBoxSelect={(ids) => p.onSelect(expandIds(shown, ids), true)}
        selectedLinks={selectedLinks}
        badges={p.badges}
      />
      {p.overlay}
      </div>
      <p className="hint">Scroll to zoom, drag the background to pan, shift-drag to select an area, shift-click to add to the selection.{pods.length > 0 && " Double-click a node to collapse its pod into one box, a box to expand it."}</p>
    </div>
  );
}
