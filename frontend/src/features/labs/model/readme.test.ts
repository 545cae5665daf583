// Issue 22 §4: a newcomer reading the README finds every lab, every preset, the tuning and the
// operations docs, and every link there points at a file of the repository.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { resolve } from "node:path";

const ROOT = resolve(__dirname, "../../../../..");
const readme = readFileSync(resolve(ROOT, "README.md"), "utf8");

describe("the README's lists", () => {
  it("links all the labs, the tuning, operations and presets docs", () => {
    const labs = readdirSync(resolve(ROOT, "docs/labs")).filter((f) => /^lab\d+.*\.md$/.test(f));
    expect(labs.length).toBeGreaterThanOrEqual(8);
    for (const lab of labs) expect(readme).toContain(`(docs/labs/${lab})`);
    for (const doc of ["docs/tuning.md", "docs/operations.md", "docs/presets.md"]) expect(readme).toContain(`(${doc})`);
  });
  it("names every preset", () => {
    const dir = resolve(ROOT, "backend/app/presets/data");
    for (const f of readdirSync(dir).filter((x) => x.endsWith(".json"))) {
      const key = (JSON.parse(readFileSync(resolve(dir, f), "utf8")) as { key: string }).key;
      expect(readme).toContain(`\`${key}\``);
    }
  });
  it("links only files that exist", () => {
    for (const [, path] of readme.matchAll(/\]\(((?:docs|simcore|backend|frontend|scripts)\/[^)#\s]+)\)/g)) {
      expect(existsSync(resolve(ROOT, path)), path).toBe(true);
    }
  });
});
