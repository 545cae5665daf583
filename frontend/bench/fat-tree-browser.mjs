// Opens the editor against a running server, generates a k=16 fat-tree (1,344 nodes) and
// measures frame times while zooming and panning. Usage: E2E_BASE_URL=... node bench/fat-tree-browser.mjs
import { chromium } from "@playwright/test";

const base = process.env.E2E_BASE_URL ?? "http://127.0.0.1:8000";
const browser = await chromium.launch({
  executablePath: "/usr/bin/chromium",
  args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync"],
});
const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
await page.goto(`${base}/editor`);
const form = page.getByRole("form", { name: "Topology generator" });
await form.getByLabel("Generator kind").selectOption("fat_tree");
await form.getByLabel("k (even)").fill("16");
const t0 = Date.now();
await form.getByRole("button", { name: "Generate" }).click();
const canvas = page.getByRole("img", { name: /Fabric editor canvas: 1344 nodes/ });
await canvas.waitFor({ timeout: 60_000 });
const expandMs = Date.now() - t0;
await page.waitForTimeout(300);
await page.screenshot({ path: "test-results/screenshots/10-fat-tree-k16-fitted.png" });
const box = await canvas.boundingBox();
await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
// record rAF intervals while we zoom in and out and drag
await page.evaluate(() => {
  window.__frames = [];
  let last = performance.now();
  const tick = (t) => { window.__frames.push(t - last); last = t; if (window.__frames.length < 100000) requestAnimationFrame(tick); };
  requestAnimationFrame(tick);
});
for (let i = 0; i < 20; i += 1) { await page.mouse.wheel(0, -120); await page.waitForTimeout(16); }
await page.mouse.down();
for (let i = 0; i < 30; i += 1) { await page.mouse.move(box.x + box.width / 2 + i * 8, box.y + box.height / 2 + i * 3); }
await page.mouse.up();
for (let i = 0; i < 20; i += 1) { await page.mouse.wheel(0, 120); await page.waitForTimeout(16); }
const frames = await page.evaluate(() => window.__frames.slice(2));
frames.sort((a, b) => a - b);
const pct = (p) => frames[Math.min(frames.length - 1, Math.floor(p * frames.length))].toFixed(1);
console.log(JSON.stringify({ nodes: 1344, expand_and_first_draw_ms: expandMs, frames: frames.length, p50_ms: pct(0.5), p95_ms: pct(0.95), max_ms: frames[frames.length - 1].toFixed(1) }));
await page.screenshot({ path: "test-results/screenshots/10-fat-tree-k16.png" });
await browser.close();
