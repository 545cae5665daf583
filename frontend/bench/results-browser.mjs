// Real-browser benchmark of the results page (100,000 flows, 16 x 10,000-point series): bundles
// results-page.html (the pieces: table mount/sort/filter, line chart, CDF) and results-view-page.html
// (the whole page, ResultsView) with Vite and opens each in Debian's Chromium at 1440x900.
// Usage: node bench/results-browser.mjs [pieces|page] (both when not given)
import { build } from "vite";
import { chromium } from "@playwright/test";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const out = mkdtempSync(join(tmpdir(), "results-bench-"));
const which = process.argv[2];
const pages = ["results-page.html", "results-view-page.html"].filter((p) => !which || (which === "page") === p.includes("view"));
await build({
  configFile: false, root: here, base: "./", logLevel: "error",
  build: { outDir: out, rollupOptions: { input: Object.fromEntries(pages.map((p) => [p.replace(".html", ""), join(here, p)])) } },
});
const browser = await chromium.launch({
  executablePath: "/usr/bin/chromium",
  args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync", "--allow-file-access-from-files"],
});
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
for (const p of pages) {
  const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
  await page.goto(`file://${join(out, p)}`);
  if (p.includes("view")) {
    // whole page: 7 mounts, the first two JIT warm-up; wall time and the renderer main thread's CPU
    // time (CDP Performance ThreadTime), which a loaded machine inflates far less than wall time
    await page.waitForFunction(() => window.__once, null, { timeout: 120_000 });
    const cdp = await page.context().newCDPSession(page);
    await cdp.send("Performance.enable");
    const cpu = async () => (await cdp.send("Performance.getMetrics")).metrics.find((m) => m.name === "ThreadTime").value * 1000;
    // The machine's share of a core for this renderer, read with a fixed busy loop between the
    // mounts: CPU time / wall time of the loop. On a quiet machine it is about 1; wall time of the
    // page divided by it is what the page would take there (docs/benchmarks.md).
    const busyShare = async () => {
      const c0 = await cpu();
      const wall = await page.evaluate(() => { const t0 = performance.now(); let x = 0; for (let i = 0; i < 5e7; i += 1) x += i % 7; return x >= 0 ? performance.now() - t0 : 0; });
      return ((await cpu()) - c0) / wall;
    };
    const runs = [];
    const shares = [];
    for (let i = 0; i < 7; i += 1) {
      shares.push(await busyShare());
      const c0 = await cpu();
      const r = await page.evaluate(() => window.__once());
      runs.push({ ...r, cpu: (await cpu()) - c0 });
    }
    const warm = runs.slice(2);
    const pick = (k) => ({ median: Math.round(median(warm.map((r) => r[k]))), worst: Math.round(Math.max(...warm.map((r) => r[k]))), first: Math.round(runs[0][k]) });
    const share = median(shares.slice(2));
    console.log(JSON.stringify({
      page: p, ...(await page.evaluate(() => window.__meta)), runs: warm.length, wall_ms: pick("page"), first_commit_ms: pick("firstCommit"),
      main_thread_cpu_ms: pick("cpu"), core_share: Number(share.toFixed(2)), wall_ms_at_full_core: Math.round(median(warm.map((r) => r.page)) * share),
      load_average: (await import("node:os")).loadavg().map((x) => Number(x.toFixed(1))),
    }));
  } else {
    const result = await page.waitForFunction(() => window.__result, null, { timeout: 300_000 });
    console.log(JSON.stringify({ page: p, ...(await result.jsonValue()) }));
  }
  await page.close();
}
await browser.close();
