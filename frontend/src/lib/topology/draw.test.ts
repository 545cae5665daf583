import { BADGE_COLOR, SELECTION_COLOR, drawTopology, hitNode } from "./draw";
import { tieredLayout } from "./layout";

/** A 2D context that records strokes with their colour and what was drawn. */
function recordingContext() {
  const strokes: { color: string; width: number }[] = [];
  const texts: string[] = [];
  const placed: { text: string; x: number; color: string }[] = [];
  const ctx = {
    strokeStyle: "", fillStyle: "", lineWidth: 1, font: "", textAlign: "",
    setTransform() {}, clearRect() {}, beginPath() {}, moveTo() {}, lineTo() {}, arc() {}, rect() {}, fill() {},
    setLineDash() {}, strokeRect() {}, strokeText() {},
    measureText(t: string) { return { width: t.length * 6.5 }; },
    fillText(t: string, x: number) { texts.push(t); placed.push({ text: t, x, color: String(ctx.fillStyle) }); },
    stroke() { strokes.push({ color: String(ctx.strokeStyle), width: ctx.lineWidth }); },
  };
  return { ctx: ctx as unknown as CanvasRenderingContext2D, strokes, texts, placed };
}

const graph = tieredLayout(
  [{ id: "h0", kind: "host", tier: 0, group: "leaf0" }, { id: "leaf0", kind: "switch", tier: 1 }, { id: "spine0", kind: "switch", tier: 2 }],
  [{ id: 0, a: "h0", b: "leaf0", rate_gbps: 100, delay_us: 1 }, { id: 1, a: "leaf0", b: "spine0", rate_gbps: 100, delay_us: 1 }],
);
const style = { nodeFill: () => "#4c78a8", linkStroke: () => "#9aa4b1", linkWidth: () => 1, labels: true };
const size = { width: 400, height: 300, dpr: 1 };

describe("selection drawing", () => {
  it("outlines a selected node in the selection blue, never red (red means error)", () => {
    const { ctx, strokes } = recordingContext();
    drawTopology(ctx, graph, { x: 0, y: 0, k: 1 }, size, { ...style, selected: new Set(["leaf0"]) });
    const colors = strokes.map((s) => s.color.toLowerCase());
    expect(colors).toContain(SELECTION_COLOR.toLowerCase());
    expect(colors.filter((c) => /^#e4|^#b3|^#f00|red/.test(c))).toEqual([]);
  });

  it("highlights a selected link on top of the others", () => {
    const plain = recordingContext();
    drawTopology(plain.ctx, graph, { x: 0, y: 0, k: 1 }, size, { ...style, selected: new Set() });
    expect(plain.strokes.some((s) => s.color === SELECTION_COLOR)).toBe(false);
    const chosen = recordingContext();
    drawTopology(chosen.ctx, graph, { x: 0, y: 0, k: 2 }, size, { ...style, selected: new Set(), selectedLinks: new Set([1]) });
    const sel = chosen.strokes.find((s) => s.color === SELECTION_COLOR)!;
    expect(sel.width * 2).toBeGreaterThanOrEqual(3); // screen width at zoom 2, wider than a 1 px link
  });

  it("writes the long-haul label of a DCI link", () => {
    const g = tieredLayout([{ id: "x", kind: "switch", tier: 1 }, { id: "y", kind: "switch", tier: 1 }], [{ id: 0, a: "x", b: "y", rate_gbps: 100, delay_us: 500 }]);
    const { ctx, texts } = recordingContext();
    drawTopology(ctx, g, { x: 0, y: 0, k: 1 }, size, { ...style, selected: new Set() });
    expect(texts).toContain("100 km · 500 us one way · 100 Gbit/s");
  });

  it("rings a badged node and keeps its tag inside the canvas at the edge", () => {
    const { ctx, strokes, placed } = recordingContext();
    const edge = graph.nodes.find((n) => n.id === "spine0")!;
    // the view puts spine0 on the canvas' left edge (screen x 0)
    drawTopology(ctx, graph, { x: -edge.x, y: 0, k: 1 }, size, { ...style, selected: new Set(), badges: new Map([["spine0", "WAN accelerator"]]) });
    expect(strokes.some((s) => s.color === BADGE_COLOR)).toBe(true);
    const tag = placed.find((t) => t.text === "WAN accelerator")!;
    const half = ("WAN accelerator".length * 6.5) / 2;
    expect(tag.color).toBe(BADGE_COLOR);
    expect(tag.x - edge.x - half).toBeGreaterThanOrEqual(0); // screen x of the tag's left end
  });
});

describe("badge tags and the zoom buttons", () => {
  // spine0 on the canvas' right edge; the zoom buttons cover x 364..394, y 6..96 (CSS px)
  const buttons = { x: 364, y: 6, w: 30, h: 90 };
  const half = ("WAN accelerator".length * 6.5) / 2;
  const edge = graph.nodes.find((n) => n.id === "spine0")!;
  const tagRight = (screenY: number, keepClear: typeof buttons | null) => {
    const { ctx, placed } = recordingContext();
    drawTopology(ctx, graph, { x: size.width - edge.x, y: screenY - edge.y, k: 1 }, size,
      { ...style, labels: false, selected: new Set(), badges: new Map([["spine0", "WAN accelerator"]]), keepClear });
    const tag = placed.find((t) => t.text === "WAN accelerator")!;
    return tag.x + (size.width - edge.x) + half; // screen x of the tag's right end
  };

  it("moves a tag that would run under the buttons to their left", () => {
    expect(tagRight(40, null)).toBeGreaterThan(buttons.x); // without the rectangle it reaches under them
    expect(tagRight(40, buttons)).toBeLessThanOrEqual(buttons.x);
  });

  it("leaves a tag below the buttons where it is", () => {
    expect(tagRight(200, buttons)).toBe(tagRight(200, null));
    expect(tagRight(200, buttons)).toBeGreaterThan(buttons.x);
  });
});

describe("level of detail", () => {
  /** 4,000 hosts in a row under 40 switches: the shape of a large fabric's bottom rows. */
  const big = tieredLayout(
    [
      ...Array.from({ length: 4000 }, (_, i) => ({ id: `h${i}`, kind: "host" as const, tier: 0, group: `tor${Math.floor(i / 100)}` })),
      ...Array.from({ length: 40 }, (_, i) => ({ id: `tor${i}`, kind: "switch" as const, tier: 1 })),
    ],
    [],
  );
  function counting() {
    const rec = recordingContext();
    const calls = { arc: 0, rect: 0 };
    const c = rec.ctx as unknown as Record<string, unknown>;
    c.arc = () => { calls.arc += 1; };
    c.rect = () => { calls.rect += 1; };
    return { ...rec, calls };
  }

  it("draws only what is on screen and labels only on-screen nodes", () => {
    const { ctx, calls, texts } = counting();
    // zoomed in on the left end: a 400 px wide window shows about 400 / (16 x 2) hosts
    drawTopology(ctx, big, { x: 0, y: -big.height * 2 + 150, k: 2 }, size, { ...style, selected: new Set() });
    expect(calls.arc + calls.rect).toBeLessThan(60);
    expect(calls.arc + calls.rect).toBeGreaterThan(5);
    expect(texts.length).toBeGreaterThan(0);
    expect(texts.every((t) => Number(t.replace(/\D/g, "")) < 40)).toBe(true);
  });

  it("zoomed out, hosts become squares and host labels are skipped", () => {
    const { ctx, calls, texts } = counting();
    const k = 400 / big.width;
    drawTopology(ctx, big, { x: 0, y: 10, k }, size, { ...style, selected: new Set() });
    expect(calls.arc).toBe(0);
    expect(calls.rect).toBe(4040);
    expect(texts.some((t) => t.startsWith("h"))).toBe(false);
  });
});

describe("hit test zoomed out", () => {
  it("hits a switch where it is drawn at its minimum on-screen size", () => {
    const g = tieredLayout([{ id: "s", kind: "switch", tier: 1 }, { id: "h", kind: "host", tier: 0, group: "s" }], []);
    const s = g.nodes.find((n) => n.id === "s")!;
    // at zoom 0.05 the switch is drawn 2.5 px = 50 world units from its centre
    expect(hitNode(g, s.x + 45, s.y, undefined, 0.05)?.id).toBe("s");
    expect(hitNode(g, s.x + 45, s.y, undefined, 1)).toBeNull();
  });
});
