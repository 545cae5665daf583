import { readFileSync } from "node:fs";
import { join } from "node:path";
import { NIC_DEFAULTS, NIC_FIELDS, SWITCH_DEFAULTS, SWITCH_FIELDS } from "./fields";

// vitest runs in frontend/: the JSON Schema exported from the Pydantic models.
const schema = JSON.parse(readFileSync(join(process.cwd(), "..", "docs", "scenario.schema.json"), "utf8"));

/** The schema node of a dotted path under the root property `scope`, following $refs. */
function node(scope: string, path: string): Record<string, unknown> {
  let n = schema.properties[scope];
  for (const key of path.split(".")) {
    while (n.$ref) n = schema.$defs[n.$ref.split("/").pop()];
    n = n.properties[key];
    expect(n, `${scope}.${path}`).toBeDefined();
  }
  return n;
}

describe("panel fields against the scenario schema", () => {
  it("every switch and NIC default is the schema's default", () => {
    for (const [scope, defaults] of [["switch", SWITCH_DEFAULTS], ["nic", NIC_DEFAULTS]] as const) {
      for (const [path, value] of Object.entries(defaults)) {
        expect([scope, path, value]).toEqual([scope, path, node(scope, path).default]);
      }
    }
    expect(SWITCH_DEFAULTS["ecn.kmin_bytes"]).toBe(100_000);
    expect(NIC_DEFAULTS.transport).toBe("rc");
  });

  it("offers packet trimming (issue 20) as a switch checkbox, off by default", () => {
    const f = SWITCH_FIELDS.find((x) => x.path === "trimming");
    expect(f?.type).toBe("bool");
    expect(SWITCH_DEFAULTS.trimming).toBe(false);
    expect(node("switch", "trimming").type).toBe("boolean");
  });

  it("every select offers exactly the schema's enumeration", () => {
    for (const [scope, fields] of [["switch", SWITCH_FIELDS], ["nic", NIC_FIELDS]] as const) {
      for (const f of fields.filter((x) => x.type === "select")) {
        const n = node(scope, f.path);
        const options = (n.enum ?? (n.anyOf as { enum?: string[] }[]).find((a) => a.enum)?.enum) as string[];
        expect([f.path, f.options]).toEqual([f.path, options]);
      }
    }
  });
});
