import { FORMATS, detectFormat } from "./index";
import { parseYaml } from "./clab";
import { fromDot } from "./dot";
import { fromHpcc } from "./hpcc";
import type { ExplicitTopology } from "../../scenario/types";

// a small leaf-spine plus one long-haul link (rates and delays differ per link)
const fabric: ExplicitTopology = {
  kind: "explicit",
  nodes: [
    { id: "h0", kind: "host", tier: 0 }, { id: "h1", kind: "host", tier: 0 },
    { id: "leaf0", kind: "switch", tier: 1 }, { id: "leaf1", kind: "switch", tier: 1 },
    { id: "spine0", kind: "switch", tier: 2 }, { id: "dci0", kind: "switch", tier: 3 },
  ],
  links: [
    { a: "h0", b: "leaf0", rate_gbps: 25, delay_us: 1 }, { a: "h1", b: "leaf1", rate_gbps: 25, delay_us: 1 },
    { a: "leaf0", b: "spine0", rate_gbps: 100, delay_us: 0.5 }, { a: "leaf1", b: "spine0", rate_gbps: 100, delay_us: 0.5 },
    { a: "spine0", b: "dci0", rate_gbps: 400, delay_us: 500 },
  ],
};

describe("topology import/export round trips", () => {
  it("DOT and containerlab keep ids, kinds, tiers, rates and delays", () => {
    for (const f of ["dot", "clab"] as const) {
      const text = FORMATS[f].write(fabric, "rt");
      expect(FORMATS[f].read(text), f).toEqual(fabric);
    }
  });

  it("containerlab keeps a length in km", () => {
    const t: ExplicitTopology = { ...fabric, links: [...fabric.links.slice(0, 4), { a: "spine0", b: "dci0", rate_gbps: 100, length_km: 100 }] };
    expect(FORMATS.clab.read(FORMATS.clab.write(t))).toEqual(t);
    expect(FORMATS.dot.read(FORMATS.dot.write(t))).toEqual(t);
  });

  it("HPCC keeps node order, kinds, tiers (hops from a host), rates and delays; names follow h<i>/sw<i>", () => {
    const numbered: ExplicitTopology = {
      kind: "explicit",
      nodes: fabric.nodes.map((n, i) => ({ ...n, id: n.kind === "host" ? `h${i}` : `sw${i}` })),
      links: fabric.links.map((l) => {
        const id = (x: string) => { const i = fabric.nodes.findIndex((n) => n.id === x); return fabric.nodes[i].kind === "host" ? `h${i}` : `sw${i}`; };
        return { ...l, a: id(l.a), b: id(l.b) };
      }),
    };
    const text = FORMATS.hpcc.write(numbered);
    expect(text.split("\n").slice(0, 3)).toEqual(["6 4 5", "2 3 4 5", "0 2 25Gbps 0.001ms 0"]);
    expect(FORMATS.hpcc.read(text)).toEqual(numbered);
  });

  it("reads HPCC's own example style and refuses a wrong header", () => {
    const t = fromHpcc("3 1 2\n2\n0 2 100Gbps 0.001ms 0\n1 2 100Gbps 0.001ms 0\n");
    expect(t.nodes.map((n) => [n.id, n.kind, n.tier])).toEqual([["h0", "host", 0], ["h1", "host", 0], ["sw2", "switch", 1]]);
    expect(t.links[0]).toEqual({ a: "h0", b: "sw2", rate_gbps: 100, delay_us: 1 });
    expect(() => fromHpcc("3 2 2\n2\n0 2 100Gbps 0.001ms 0\n1 2 100Gbps 0.001ms 0\n")).toThrow(/line 2 lists 1 switch ids/);
  });

  it("reads NVIDIA Air style DOT with ports and a function attribute", () => {
    const t = fromDot('graph "air" {\n "leaf01" [function="leaf"]\n "server01" [function="server"]\n "leaf01":"swp1" -- "server01":"eth0"\n}\n');
    expect(t.nodes).toEqual([{ id: "leaf01", kind: "switch", tier: 1 }, { id: "server01", kind: "host", tier: 0 }]);
    expect(t.links).toEqual([{ a: "leaf01", b: "server01", rate_gbps: 100, delay_us: 1 }]);
  });

  it("parses the YAML subset of containerlab files and picks formats from names", () => {
    expect(parseYaml("name: x # c\ntopology:\n  nodes:\n    a: {}\n  links:\n    - endpoints: [\"a:e1\", \"b:e1\"]\n      mtu: 9000\n")).toEqual({
      name: "x", topology: { nodes: { a: "{}" }, links: [{ endpoints: ["a:e1", "b:e1"], mtu: 9000 }] },
    });
    expect(detectFormat("lab.clab.yml", "")).toBe("clab");
    expect(detectFormat("x.dot", "")).toBe("dot");
    expect(detectFormat("topology.txt", "3 1 2")).toBe("hpcc");
  });
});
