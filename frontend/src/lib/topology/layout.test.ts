import { HOST_SPACING, ROW_GAP, switchRing, tieredLayout } from "./layout";
import type { ExpandNode } from "./types";

// expand output of leaf_spine {leaves: 2, spines: 2, hosts_per_leaf: 2}
const nodes: ExpandNode[] = [
  { id: "h0", kind: "host", tier: 0, group: "leaf0" },
  { id: "h1", kind: "host", tier: 0, group: "leaf0" },
  { id: "h2", kind: "host", tier: 0, group: "leaf1" },
  { id: "h3", kind: "host", tier: 0, group: "leaf1" },
  { id: "leaf1", kind: "switch", tier: 1, group: "pod0" },
  { id: "leaf0", kind: "switch", tier: 1, group: "pod0" },
  { id: "spine0", kind: "switch", tier: 2 },
  { id: "spine1", kind: "switch", tier: 2 },
];

describe("tieredLayout", () => {
  it("puts tiers on rows, highest on top, hosts under their leaf", () => {
    const g = tieredLayout(nodes, []);
    const at = Object.fromEntries(g.nodes.map((n) => [n.id, n]));
    expect(g.nodes).toHaveLength(8);
    expect(at.spine0.y).toBe(0);
    expect(at.leaf0.y).toBe(ROW_GAP);
    expect(at.h0.y).toBe(2 * ROW_GAP);
    expect(at.leaf0.x).toBeLessThan(at.leaf1.x);
    expect(at.h0.x).toBeLessThan(at.h1.x);
    expect(at.h1.x).toBeLessThan(at.h2.x);
    // hosts of leaf0 sit left of the middle, hosts of leaf1 right of it
    expect(at.h1.x).toBeLessThan(g.width / 2);
    expect(at.h2.x).toBeGreaterThan(g.width / 2);
  });

  it("orders hosts by their switch's position, not by name", () => {
    const g = tieredLayout(
      [
        { id: "h9", kind: "host", tier: 0, group: "leaf0" },
        { id: "h1", kind: "host", tier: 0, group: "leaf2" },
        { id: "leaf2", kind: "switch", tier: 1 },
        { id: "leaf0", kind: "switch", tier: 1 },
      ],
      [],
    );
    const at = Object.fromEntries(g.nodes.map((n) => [n.id, n]));
    expect(at.h9.x).toBeLessThan(at.h1.x);
  });

  it("lays out a k=16 fat-tree (1,344 nodes) in four rows", () => {
    const k = 16;
    const ns: ExpandNode[] = [];
    for (let i = 0; i < (k ** 3) / 4; i += 1) ns.push({ id: `h${i}`, kind: "host", tier: 0, group: `edge${Math.floor(i / 64)}_${Math.floor(i / 8) % 8}` });
    for (let p = 0; p < k; p += 1)
      for (let i = 0; i < k / 2; i += 1) {
        ns.push({ id: `edge${p}_${i}`, kind: "switch", tier: 1, group: `pod${p}` });
        ns.push({ id: `agg${p}_${i}`, kind: "switch", tier: 2, group: `pod${p}` });
      }
    for (let i = 0; i < (k / 2) ** 2; i += 1) ns.push({ id: `core${i}`, kind: "switch", tier: 3 });
    const g = tieredLayout(ns, []);
    expect(g.nodes).toHaveLength(1344);
    expect(new Set(g.nodes.map((n) => n.y)).size).toBe(4);
    expect(g.width).toBe(1024 * HOST_SPACING);
    const at = Object.fromEntries(g.nodes.map((n) => [n.id, n]));
    expect(at.h0.x).toBeLessThan(at.h8.x);
    expect(at.edge0_7.x).toBeLessThan(at.edge1_0.x);
  });

  it("keeps positions drawn in the editor", () => {
    const g = tieredLayout([{ id: "s", kind: "switch", tier: 1, x: 5, y: 7 }], []);
    expect(g.nodes[0]).toMatchObject({ x: 5, y: 7 });
  });
});

// Issue 22 §3: msft-deadlock's 5-switch ring was drawn as a straight row, its closing link lying on
// top of the others, so the cycle the lesson is about was invisible.
describe("rings drawn as rings", () => {
  const ringNodes: ExpandNode[] = [
    ...[0, 1, 2, 3, 4].map((i) => ({ id: `h${i}`, kind: "host" as const, tier: 0 })),
    ...[0, 1, 2, 3, 4].map((i) => ({ id: `s${i}`, kind: "switch" as const, tier: 1 })),
  ];
  const pairs = [["h0", "s0"], ["h1", "s1"], ["h2", "s2"], ["h3", "s3"], ["h4", "s4"], ["s0", "s1"], ["s1", "s2"], ["s2", "s3"], ["s3", "s4"], ["s4", "s0"]];
  const ringLinks = pairs.map(([a, b], id) => ({ id, a, b, rate_gbps: 100 }));

  it("finds the ring of msft-deadlock in order, and no ring in a leaf-spine or a chain", () => {
    expect(switchRing(ringNodes, ringLinks)).toEqual(["s0", "s1", "s2", "s3", "s4"]);
    expect(switchRing(nodes, [])).toBeNull();
    expect(switchRing(ringNodes, ringLinks.filter((l) => !(l.a === "s4" && l.b === "s0")))).toBeNull();
    expect(switchRing(ringNodes.map((n) => ({ ...n, x: 1, y: 1 })), ringLinks)).toBeNull(); // drawn positions win
  });

  it("puts the switches on a circle and each host outside its switch, so every link is visible", () => {
    const g = tieredLayout(ringNodes, ringLinks);
    expect(g.shape).toBe("ring");
    const at = Object.fromEntries(g.nodes.map((n) => [n.id, n]));
    const sw = ["s0", "s1", "s2", "s3", "s4"].map((id) => at[id]);
    const cx = sw.reduce((s, n) => s + n.x, 0) / 5;
    const cy = sw.reduce((s, n) => s + n.y, 0) / 5;
    const radius = sw.map((n) => Math.hypot(n.x - cx, n.y - cy));
    for (const d of radius) expect(d).toBeCloseTo(radius[0], 6);
    // not a row: the switches span both directions
    expect(Math.max(...sw.map((n) => n.y)) - Math.min(...sw.map((n) => n.y))).toBeGreaterThan(radius[0]);
    for (let i = 0; i < 5; i += 1) {
      const h = at[`h${i}`];
      expect(Math.hypot(h.x - cx, h.y - cy)).toBeGreaterThan(radius[0] + 50);
    }
    // no link passes over a switch it does not join (the row layout drew s4-s0 over s1..s3)
    for (const l of ringLinks) {
      for (const n of sw) {
        if (n.id === l.a || n.id === l.b) continue;
        expect(distanceToSegment(n, at[l.a], at[l.b]), `${l.a}-${l.b} over ${n.id}`).toBeGreaterThan(20);
      }
    }
    expect(Math.min(...g.nodes.map((n) => n.x))).toBe(0);
    expect(Math.min(...g.nodes.map((n) => n.y))).toBe(0);
  });
});

function distanceToSegment(p: { x: number; y: number }, a: { x: number; y: number }, b: { x: number; y: number }) {
  const dx = b.x - a.x;
  const dy = b.y - a.y;
  const t = Math.max(0, Math.min(1, ((p.x - a.x) * dx + (p.y - a.y) * dy) / (dx * dx + dy * dy)));
  return Math.hypot(p.x - (a.x + t * dx), p.y - (a.y + t * dy));
}
