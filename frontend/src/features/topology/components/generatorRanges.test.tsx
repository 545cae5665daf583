import { render, screen } from "@testing-library/react";
import { SCHEMA_DEFAULTS, SCHEMA_RANGES } from "../../../lib/scenario/contract.gen";
import { GENERATORS, GeneratorForm, estimateNodes } from "./GeneratorForm";

// Issue 39 §1: the generator form wrote its ranges by hand, two of them unlike the API's (rate
// minimum 1 against 0.01, delay maximum 1,000 against 100,000 us). They now come from the
// generated contract; these are the API's own numbers, read from docs/scenario.schema.json.
describe("the generator form's ranges are the declaration's", () => {
  it("offers the API's link rate and delay ranges", () => {
    render(<GeneratorForm topology={{ kind: "leaf_spine" }} onGenerate={() => {}} />);
    const rate = screen.getByRole("spinbutton", { name: /^Host rate/ }) as HTMLInputElement;
    const delay = screen.getByRole("spinbutton", { name: /^Link delay/ }) as HTMLInputElement;
    expect([rate.min, rate.max]).toEqual(["0.01", "1600"]);
    expect([delay.min, delay.max]).toEqual(["0", "100000"]);
  });

  it("takes every parameter's min and max from SCHEMA_RANGES", () => {
    const definition: Record<string, string> = {
      leaf_spine: "LeafSpine",
      fat_tree: "FatTree",
      three_tier: "ThreeTier",
      rail_optimized: "RailOptimized",
      multi_plane: "MultiPlane",
      dci: "Dci",
    };
    for (const [kind, g] of Object.entries(GENERATORS)) {
      for (const p of g.params) {
        const key = p.key.startsWith("site.") ? `LeafSpineSite.${p.key.slice(5)}` : `${definition[kind]}.${p.key}`;
        const r = SCHEMA_RANGES[key];
        expect(r, key).toBeDefined();
        expect([p.min, p.max], key).toEqual([r!.min, r!.max]);
      }
    }
  });

  it("starts each parameter at its declared default", () => {
    expect(GENERATORS.leaf_spine.defaults).toEqual({
      leaves: 2,
      spines: 2,
      hosts_per_leaf: 2,
      host_rate_gbps: 100,
      link_delay_us: 1,
      fabric_rate_gbps: 100,
    });
    for (const g of Object.values(GENERATORS)) {
      for (const p of g.params)
        expect(g.defaults[p.key], p.key).toBe(SCHEMA_DEFAULTS[p.schema!] ?? g.defaults.host_rate_gbps);
    }
    expect(GENERATORS.dci.defaults.length_km).toBe(SCHEMA_DEFAULTS["Dci.length_km"]);
  });

  it("counts nodes by the declared formulas (the counts fabricsim expand reports)", () => {
    expect(estimateNodes("leaf_spine", { leaves: 2, spines: 2, hosts_per_leaf: 2 })).toBe(8);
    expect(estimateNodes("fat_tree", { k: 4 })).toBe(36);
    expect(estimateNodes("dci", { "site.leaves": 2, "site.spines": 2, "site.hosts_per_leaf": 2 })).toBe(18);
    expect(
      estimateNodes("multi_plane", { planes: 4, units: 1, servers_per_unit: 4, nics_per_server: 2, spines: 2 }),
    ).toBe(24);
    expect(estimateNodes("leaf_spine", { leaves: 2 })).toBeNull();
  });
});
