import { fitView } from "./draw";
import { MIN_SITE_GAP, splitSites, tieredLayout } from "./layout";
import { longHaulLabel } from "./linkLabels";
import type { ExpandLink, ExpandNode } from "./types";

// `fabricsim expand` of the dci-100km-perftest preset: per site 1 host, 1 leaf, 1 spine, a dci
// edge router (tier 4), joined by a 100 km long-haul link (500 us).
function dci(leaves = 1, hostsPerLeaf = 1): { nodes: ExpandNode[]; links: ExpandLink[] } {
  const nodes: ExpandNode[] = [];
  const links: ExpandLink[] = [];
  const link = (a: string, b: string, delay = 1) => links.push({ id: links.length, a, b, rate_gbps: 100, delay_us: delay });
  for (const s of ["a", "b"]) {
    for (let l = 0; l < leaves; l += 1) {
      for (let h = 0; h < hostsPerLeaf; h += 1) {
        const id = `${s}-h${l * hostsPerLeaf + h}`;
        nodes.push({ id, kind: "host", tier: 0, group: `${s}-leaf${l}`, x: null, y: null } as unknown as ExpandNode); // as the API sends them
        link(id, `${s}-leaf${l}`);
      }
      nodes.push({ id: `${s}-leaf${l}`, kind: "switch", tier: 1, group: s });
      link(`${s}-leaf${l}`, `${s}-spine0`);
    }
    nodes.push({ id: `${s}-spine0`, kind: "switch", tier: 2, group: s });
    nodes.push({ id: `${s}-dci`, kind: "switch", tier: 4, group: s });
    link(`${s}-spine0`, `${s}-dci`);
  }
  link("a-dci", "b-dci", 500);
  return { nodes, links };
}

/** Approximate on-screen label box: 11 px sans-serif is about 6.5 px per character. */
const labelWidth = (id: string) => id.length * 6.5;

describe("DCI layout", () => {
  it("draws the two sites apart, every node of site b right of every node of site a", () => {
    const { nodes, links } = dci();
    const g = tieredLayout(nodes, links);
    const a = g.nodes.filter((n) => n.id.startsWith("a-"));
    const b = g.nodes.filter((n) => n.id.startsWith("b-"));
    const gap = Math.min(...b.map((n) => n.x)) - Math.max(...a.map((n) => n.x));
    expect(gap).toBeGreaterThanOrEqual(MIN_SITE_GAP);
    // the same tier sits on the same row in both sites
    const y = (id: string) => g.nodes.find((n) => n.id === id)!.y;
    expect(y("a-h0")).toBe(y("b-h0"));
    expect(y("a-dci")).toBe(y("b-dci"));
    expect(y("a-dci")).toBeLessThan(y("a-spine0"));
  });

  it("keeps labels of one row from running together at the fitted zoom", () => {
    // denser rows hide host labels at the fitted zoom (level of detail in draw.ts)
    for (const [leaves, hosts] of [[1, 1], [2, 2], [2, 4]]) {
      const { nodes, links } = dci(leaves, hosts);
      const g = tieredLayout(nodes, links);
      const k = fitView(g, 900, 540).k;
      const rows = new Map<number, typeof g.nodes>();
      for (const n of g.nodes) rows.set(n.y, [...(rows.get(n.y) ?? []), n]);
      for (const row of rows.values()) {
        row.sort((p, q) => p.x - q.x);
        for (let i = 1; i < row.length; i += 1) {
          const room = (row[i].x - row[i - 1].x) * k;
          expect(room, `${row[i - 1].id} / ${row[i].id}`).toBeGreaterThan((labelWidth(row[i - 1].id) + labelWidth(row[i].id)) / 2);
        }
      }
    }
  });

  it("labels the long-haul link with its length and delay, not the short ones", () => {
    const { links } = dci();
    expect(longHaulLabel(links[links.length - 1])).toBe("100 km · 500 us one way · 100 Gbit/s");
    expect(longHaulLabel({ rate_gbps: 100, length_km: 1000 })).toBe("1,000 km · 5,000 us one way · 100 Gbit/s");
    expect(longHaulLabel(links[0])).toBeNull();
  });

  it("does not split single-site fabrics whose names have dashes", () => {
    expect(splitSites([
      { id: "tor-1", kind: "switch", tier: 1 }, { id: "spine-1", kind: "switch", tier: 2 },
      { id: "h-1", kind: "host", tier: 0 },
    ])).toBeNull();
    expect(splitSites(dci().nodes)?.size).toBe(2);
  });
});
