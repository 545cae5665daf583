import { HOST_SPACING, ROW_GAP, tieredLayout } from "./layout";
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
