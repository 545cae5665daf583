import type { LayoutGraph } from "../../../lib/topology/types";
import { setPath } from "../../../lib/scenario/paths";
import type { ExplicitLink, Json, JsonObject, Scenario, Topology, TrafficGenerator } from "../../../lib/scenario/types";
import { type EditorState, explicitFrom, nextNodeId } from "./model";

export type EditorAction =
  | { type: "load"; state: EditorState }
  | { type: "saved"; sourceId: string }
  | { type: "setField"; path: string; value: Json | undefined }
  | { type: "setTopology"; topology: Topology }
  | { type: "replaceDocument"; doc: Scenario }
  | { type: "addNode"; kind: "host" | "switch"; x: number; y: number; graph: LayoutGraph | null }
  | { type: "moveNodes"; positions: Record<string, { x: number; y: number }>; graph: LayoutGraph | null }
  | { type: "addLink"; a: string; b: string; graph: LayoutGraph | null }
  | { type: "updateLinks"; indices: number[]; patch: Partial<ExplicitLink>; graph: LayoutGraph | null }
  | { type: "deleteNodes"; ids: string[]; graph: LayoutGraph | null }
  | { type: "setOverride"; scope: "switch" | "nic"; ids: string[]; path: string; value: Json | undefined }
  | { type: "addTraffic"; generator: TrafficGenerator }
  | { type: "updateTraffic"; index: number; generator: TrafficGenerator }
  | { type: "removeTraffic"; index: number }
  | { type: "pickTrafficHost"; index: number; field: string; id: string; mode: "add" | "set" };

export interface History {
  past: EditorState[];
  present: EditorState;
  future: EditorState[];
}

const HISTORY_LIMIT = 100;

export function historyReducer(
  h: History,
  action: EditorAction | { type: "undo" } | { type: "redo" },
): History {
  if (action.type === "undo") {
    if (h.past.length === 0) return h;
    return { past: h.past.slice(0, -1), present: h.past[h.past.length - 1], future: [h.present, ...h.future] };
  }
  if (action.type === "redo") {
    if (h.future.length === 0) return h;
    return { past: [...h.past, h.present], present: h.future[0], future: h.future.slice(1) };
  }
  if (action.type === "load") return { past: [], present: action.state, future: [] };
  if (action.type === "saved") return { ...h, present: { ...h.present, sourceId: action.sourceId, dirty: false } };
  const doc = editDocument(h.present.doc, action);
  if (doc === h.present.doc) return h;
  return {
    past: [...h.past, h.present].slice(-HISTORY_LIMIT),
    present: { ...h.present, doc, dirty: true },
    future: [],
  };
}

function editDocument(doc: Scenario, action: EditorAction): Scenario {
  switch (action.type) {
    case "setField":
      return setPath(doc, action.path, action.value);
    case "setTopology":
      return { ...doc, topology: action.topology };
    case "replaceDocument":
      return structuredClone(action.doc);
    case "addNode": {
      const t = explicitFrom(doc.topology, action.graph);
      const id = nextNodeId(t.nodes, action.kind === "host" ? "h" : "sw");
      const node = { id, kind: action.kind, tier: action.kind === "host" ? 0 : 1, x: action.x, y: action.y };
      return { ...doc, topology: { ...t, nodes: [...t.nodes, node] } };
    }
    case "moveNodes": {
      const t = explicitFrom(doc.topology, action.graph);
      const nodes = t.nodes.map((n) => (action.positions[n.id] ? { ...n, ...action.positions[n.id] } : n));
      return { ...doc, topology: { ...t, nodes } };
    }
    case "addLink": {
      if (action.a === action.b) return doc;
      const t = explicitFrom(doc.topology, action.graph);
      const exists = t.links.some(
        (l) => (l.a === action.a && l.b === action.b) || (l.a === action.b && l.b === action.a),
      );
      if (exists) return doc;
      const link: ExplicitLink = { a: action.a, b: action.b, rate_gbps: 100, delay_us: 1 };
      return { ...doc, topology: { ...t, links: [...t.links, link] } };
    }
    case "updateLinks": {
      const t = explicitFrom(doc.topology, action.graph);
      const chosen = new Set(action.indices);
      const links = t.links.map((l, i) => {
        if (!chosen.has(i)) return l;
        const next: ExplicitLink = { ...l, ...action.patch };
        // exactly one of delay_us and length_km
        if (action.patch.length_km !== undefined) delete next.delay_us;
        if (action.patch.delay_us !== undefined) delete next.length_km;
        return next;
      });
      return { ...doc, topology: { ...t, links } };
    }
    case "deleteNodes": {
      if (action.ids.length === 0) return doc;
      const t = explicitFrom(doc.topology, action.graph);
      const gone = new Set(action.ids);
      return {
        ...doc,
        topology: {
          ...t,
          nodes: t.nodes.filter((n) => !gone.has(n.id)),
          links: t.links.filter((l) => !gone.has(l.a) && !gone.has(l.b)),
        },
        switch_overrides: dropKeys(doc.switch_overrides, gone),
        nic_overrides: dropKeys(doc.nic_overrides, gone),
      };
    }
    case "setOverride": {
      const key = action.scope === "switch" ? "switch_overrides" : "nic_overrides";
      const overrides: Record<string, JsonObject> = { ...(doc[key] ?? {}) };
      for (const id of action.ids) overrides[id] = setPath(overrides[id] ?? {}, action.path, action.value);
      return { ...doc, [key]: overrides };
    }
    case "addTraffic":
      return { ...doc, traffic: [...(doc.traffic ?? []), action.generator] };
    case "updateTraffic":
      return { ...doc, traffic: (doc.traffic ?? []).map((g, i) => (i === action.index ? action.generator : g)) };
    case "pickTrafficHost": {
      const gen = doc.traffic?.[action.index];
      if (!gen) return doc;
      const cur = gen[action.field];
      let value: Json;
      if (action.mode === "set") value = action.id;
      else {
        const list = Array.isArray(cur) ? (cur as string[]) : [];
        if (list.includes(action.id)) return doc;
        value = [...list, action.id];
      }
      return { ...doc, traffic: doc.traffic!.map((g, i) => (i === action.index ? { ...g, [action.field]: value } : g)) };
    }
    case "removeTraffic":
      return { ...doc, traffic: (doc.traffic ?? []).filter((_, i) => i !== action.index) };
    default:
      return doc;
  }
}

function dropKeys<T>(obj: Record<string, T> | undefined, gone: Set<string>) {
  if (!obj) return obj;
  return Object.fromEntries(Object.entries(obj).filter(([k]) => !gone.has(k)));
}
