import { collapsePods, expandIds } from "./groups";
import { hitNode } from "./draw";
import { tieredLayout } from "./layout";
import type { ExpandLink, ExpandNode } from "./types";

/** A k = 4 fat tree as `fabricsim expand` gives it (ids, tiers, groups, links). */
function fatTreeK4() {
  const nodes: ExpandNode[] = [];
  const links: ExpandLink[] = [];
  const link = (a: string, b: string) => links.push({ id: links.length, a, b, rate_gbps: 100, delay_us: 1 });
  for (let i = 0; i < 16; i += 1) nodes.push({ id: `h${i}`, kind: "host", tier: 0, group: `edge${Math.floor(i / 4)}_${Math.floor(i / 2) % 2}` });
  for (let p = 0; p < 4; p += 1) for (let i = 0; i < 2; i += 1) nodes.push({ id: `edge${p}_${i}`, kind: "switch", tier: 1, group: `pod${p}` });
  for (let p = 0; p < 4; p += 1) for (let i = 0; i < 2; i += 1) nodes.push({ id: `agg${p}_${i}`, kind: "switch", tier: 2, group: `pod${p}` });
  for (let i = 0; i < 4; i += 1) nodes.push({ id: `core${i}`, kind: "switch", tier: 3, group: "core" });
  for (let i = 0; i < 16; i += 1) link(`h${i}`, `edge${Math.floor(i / 4)}_${Math.floor(i / 2) % 2}`);
  for (let p = 0; p < 4; p += 1) for (let e = 0; e < 2; e += 1) for (let a = 0; a < 2; a += 1) link(`edge${p}_${e}`, `agg${p}_${a}`);
  for (let p = 0; p < 4; p += 1) for (let a = 0; a < 2; a += 1) for (let c = 0; c < 2; c += 1) link(`agg${p}_${a}`, `core${a * 2 + c}`);
  return tieredLayout(nodes, links);
}

describe("collapsing pods", () => {
  const g = fatTreeK4();

  it("replaces a pod's 8 nodes by one box covering them, keeping every link at its index", () => {
    const c = collapsePods(g, new Set(["pod1"]));
    expect(c.nodes).toHaveLength(g.nodes.length - 8 + 1);
    const box = c.nodes.find((n) => n.id === "pod1")!;
    expect(box.members).toEqual(["h4", "h5", "h6", "h7", "edge1_0", "edge1_1", "agg1_0", "agg1_1"]);
    for (const id of box.members!) {
      const m = g.nodes.find((n) => n.id === id)!;
      expect(Math.abs(m.x - box.x)).toBeLessThanOrEqual(box.half!.w);
      expect(Math.abs(m.y - box.y)).toBeLessThanOrEqual(box.half!.h);
    }
    expect(c.links).toHaveLength(g.links.length);
    // agg1_0 -> core0 now leaves the box; a link of another pod is the same object
    const i = g.links.findIndex((l) => l.a === "agg1_0" && l.b === "core0");
    expect(c.links[i]).toMatchObject({ a: "pod1", b: "core0" });
    const j = g.links.findIndex((l) => l.a === "agg0_0" && l.b === "core0");
    expect(c.links[j]).toBe(g.links[j]);
    // a host inside the box hits the box
    const h5 = g.nodes.find((n) => n.id === "h5")!;
    expect(hitNode(c, h5.x, h5.y)?.id).toBe("pod1");
  });

  it("expands again to the same graph, and a box's id stands for its members", () => {
    expect(collapsePods(g, new Set())).toBe(g);
    const all = collapsePods(g, new Set(["pod0", "pod1", "pod2", "pod3"]));
    expect(all.nodes.map((n) => n.id).sort()).toEqual(["core0", "core1", "core2", "core3", "pod0", "pod1", "pod2", "pod3"]);
    expect(expandIds(all, ["pod2", "core1"])).toEqual(["h8", "h9", "h10", "h11", "edge2_0", "edge2_1", "agg2_0", "agg2_1", "core1"]);
  });
});
