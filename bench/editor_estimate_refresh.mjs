// The editor's estimate panel refreshed after an edit on a 1,024-host fabric (issue 36: "within 1 s
// of an edit", measured in the browser; not asserted in a test).
//
//   node bench/editor_estimate_refresh.mjs BASE_URL [--repeats 5] [--png OUT.png] [--json OUT.json]
//
// BASE_URL serves the built frontend and the API (uvicorn app.main:app after `npm run build`), with
// a worker for nothing: the estimate is synchronous. The scenario: a leaf-spine of 32 leaves of 32
// hosts (1,024 hosts, 16 spines) with a permutation of 1 MB flows, stored through the API and
// opened in the editor (/editor?from=ID) in Debian's headless Chromium at 1440x900. Per repeat:
// the duration field is changed, and the time from the edit to the panel showing the new estimate
// (aria-busy false again) is taken; it includes the editor's 600 ms pause before it asks (the
// debounce shared with validation and the configuration check) and the POST /estimate round trip,
// whose server time is recorded too. Medians printed with the load average.
import { createRequire } from "node:module";
import { writeFileSync } from "node:fs";
import { loadavg, cpus } from "node:os";

const require = createRequire(new URL("../frontend/package.json", import.meta.url));
const { chromium } = require("playwright-core");

const [base, ...rest] = process.argv.slice(2);
if (!base) {
  console.error("usage: node bench/editor_estimate_refresh.mjs BASE_URL [--repeats N] [--png F] [--json F]");
  process.exit(2);
}
const opt = (name, dflt) => {
  const i = rest.indexOf(name);
  return i >= 0 ? rest[i + 1] : dflt;
};
const repeats = Number(opt("--repeats", "5"));
const SCENARIO = {
  schema_version: 1, name: "1,024 hosts: permutation of 1 MB flows", duration_us: 2000,
  nic: { cc: { algorithm: "none" } },
  topology: { kind: "leaf_spine", leaves: 32, spines: 16, hosts_per_leaf: 32, host_rate_gbps: 100, fabric_rate_gbps: 400 },
  traffic: [{ kind: "permutation", size_bytes: 1000000 }],
};

const created = await fetch(`${base}/api/v1/scenarios`, {
  method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ scenario: SCENARIO }),
});
if (created.status !== 201) throw new Error(`POST /scenarios: ${created.status} ${await created.text()}`);
const { id } = await created.json();

const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--no-sandbox"] });
const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
const serverMs = [];
page.on("response", async (r) => {
  if (r.url().endsWith("/api/v1/estimate") && r.status() === 200) {
    try { serverMs.push(1000 * (await r.json()).wall_s); } catch { /* navigated away */ }
  }
});
await page.goto(`${base}/editor?from=${id}`);
const panel = page.getByTestId("estimate-panel");
await panel.waitFor({ timeout: 60000 });
await page.locator('[data-testid=estimate-panel][aria-busy=false]').waitFor({ timeout: 60000 });
const refresh = [];
for (let i = 0; i < repeats; i++) {
  const duration = String(2000 + 100 * (i + 1));
  const t0 = Date.now();
  await page.getByLabel("Duration (us)").fill(duration);
  await page.locator('[data-testid=estimate-panel][aria-busy=true]').waitFor({ timeout: 10000 });
  await page.locator('[data-testid=estimate-panel][aria-busy=false]').waitFor({ timeout: 30000 });
  refresh.push(Date.now() - t0);
}
const png = opt("--png", null);
if (png) await page.screenshot({ path: png });
await browser.close();
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const out = {
  hosts: 1024, repeats, refresh_ms: refresh, median_refresh_ms: median(refresh),
  estimate_server_ms: serverMs.slice(-repeats).map((x) => Math.round(x)), median_estimate_server_ms: Math.round(median(serverMs.slice(-repeats))),
  debounce_ms: 600, load_average: loadavg(), cores: cpus().length,
};
console.log(JSON.stringify(out));
const json = opt("--json", null);
if (json) writeFileSync(json, JSON.stringify(out, null, 1));
