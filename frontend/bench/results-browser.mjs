// Real-browser benchmark of the results page pieces (100,000 flows, 16 x 10,000-point series): bundles results-page.html with Vite and
// opens it in Debian's Chromium. Usage: node bench/results-browser.mjs
import { build } from "vite";
import { chromium } from "@playwright/test";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const out = mkdtempSync(join(tmpdir(), "results-bench-"));
await build({
  configFile: false, root: here, base: "./", logLevel: "error",
  build: { outDir: out, rollupOptions: { input: join(here, "results-page.html") } },
});
const browser = await chromium.launch({
  executablePath: "/usr/bin/chromium",
  args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync", "--allow-file-access-from-files"],
});
const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
await page.goto(`file://${join(out, "results-page.html")}`);
const result = await page.waitForFunction(() => window.__result, null, { timeout: 300_000 });
console.log(JSON.stringify(await result.jsonValue()));
await browser.close();
