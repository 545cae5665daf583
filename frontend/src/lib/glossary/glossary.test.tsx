import { readFileSync } from "node:fs";
import { join } from "node:path";
import { render } from "@testing-library/react";
import { GLOSSARY, glossaryEntry, glossaryKey } from "./glossary";
import { NIC_FIELDS, RUN_FIELDS, SWITCH_FIELDS } from "../scenario/fields";
import { ACCELERATOR_PARAMS, GENERATORS } from "../../features/topology/components/GeneratorForm";
import { NUM_FIELDS } from "../../features/scenarios/components/GeneratorEditor";
import { ParamsPanel } from "../../features/scenarios/components/ParamsPanel";
import { NEW_SCENARIO } from "../../features/scenarios/editor/model";

// vitest runs in frontend/: the generated JSON schema of the scenario format
const schema = JSON.parse(readFileSync(join(process.cwd(), "..", "docs", "scenario.schema.json"), "utf8"));

/** Every parameter a panel shows, as its glossary key. */
function panelTerms(): string[] {
  return [
    ...RUN_FIELDS.map((f) => f.path),
    ...SWITCH_FIELDS.map((f) => `switch.${f.path}`),
    ...NIC_FIELDS.map((f) => `nic.${f.path}`),
    ...Object.values(GENERATORS).flatMap((g) => g.params.map((p) => `topology.${p.key}`)),
    "topology.length_km",
    ...ACCELERATOR_PARAMS.map((p) => `topology.${p.key}`), "topology.accelerator.enabled",
    ...Object.keys(NUM_FIELDS).map((k) => `traffic.${k}`),
    "traffic.senders", "traffic.receiver", "traffic.src", "traffic.dst", "traffic.hosts", "traffic.tor_pairs", "traffic.distribution",
    "topology.links.rate_gbps", "topology.links.delay_us", "topology.links.length_km",
  ];
}

function schemaProperty(ref: string): Record<string, unknown> {
  const [def, prop] = ref.split(".");
  const node = def === "#" ? schema.properties[prop] : schema.$defs[def]?.properties?.[prop];
  expect(node, ref).toBeDefined();
  const merged: Record<string, unknown> = { ...node };
  for (const alt of (node.anyOf ?? []) as Record<string, unknown>[]) Object.assign(merged, alt);
  return merged;
}

describe("glossary", () => {
  it("has an entry with meaning, typical values and a source for every panel field", () => {
    const missing = panelTerms().filter((t) => !GLOSSARY[t]);
    expect(missing).toEqual([]);
    for (const t of panelTerms()) {
      const e = GLOSSARY[t];
      expect(e.meaning.length, t).toBeGreaterThan(10);
      expect(e.typical.length, t).toBeGreaterThan(0);
      expect(e.source.length, t).toBeGreaterThan(5);
    }
  });

  it("covers the DCQCN and buffer terms by name", () => {
    for (const label of ["DCQCN g", "Rai", "Rhai", "ECN Kmin", "ECN Kmax", "ECN Pmax", "PFC dynamic threshold alpha", "PFC headroom", "Pause quanta", "QP depth"]) {
      expect(Object.values(GLOSSARY).some((e) => e.label === label), label).toBe(true);
    }
  });

  it("states the allowed range exactly as docs/scenario.schema.json does", () => {
    for (const [term, e] of Object.entries(GLOSSARY)) {
      if (!e.schema) continue;
      const p = schemaProperty(e.schema);
      const min = (p.exclusiveMinimum ?? p.minimum) as number | undefined;
      expect([term, e.min], term).toEqual([term, min]);
      expect([term, e.max], term).toEqual([term, p.maximum as number | undefined]);
      expect([term, !!e.exclusiveMin], term).toEqual([term, p.exclusiveMinimum !== undefined]);
    }
  });

  it("maps document paths, overrides and list items to their entry", () => {
    expect(glossaryKey("switch_overrides.leaf0.ecn.pmax")).toBe("switch.ecn.pmax");
    expect(glossaryKey("traffic.3.tx_depth")).toBe("traffic.tx_depth");
    expect(glossaryEntry("topology.links.7.rate_gbps")?.label).toBe("Link rate");
  });

  it("puts a tooltip next to every field of the parameter panel", () => {
    const { container } = render(<ParamsPanel doc={NEW_SCENARIO} errors={{}} onSet={() => {}} />);
    const fields = [...container.querySelectorAll(".field")].filter((f) => f.querySelector("input, select"));
    const withoutTip = fields.filter((f) => !f.querySelector("[data-term]")).map((f) => f.textContent);
    expect(withoutTip).toEqual(["Name"]);
  }, 60_000);
});
