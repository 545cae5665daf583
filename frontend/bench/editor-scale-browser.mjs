// Frame times of the editor at scale, in headless Chromium against a running server: a k = 16 fat
// tree (1,344 nodes) and a three-tier fabric of 5,040 nodes. For each: scripted zooms and pans,
// editing (select nodes, bulk select a pod, set an override on it, drag a node), and panning with
// every pod collapsed. Frame time = interval between requestAnimationFrame callbacks (60 Hz:
// 16.7 ms when no frame is late). Usage: E2E_BASE_URL=... node bench/editor-scale-browser.mjs
// Speed is measured here, never asserted in the test suite.
import { chromium } from "@playwright/test";

const base = process.env.E2E_BASE_URL ?? "http://127.0.0.1:8000";
const FABRICS = [
  { name: "fat tree k=16", nodes: 1344, kind: "fat_tree", fields: { "k (even)": 16 }, pod: "pod3" },
  {
    name: "three-tier 8 podsets x 16 ToRs x 38 hosts", nodes: 5040, kind: "three_tier", pod: "podset2",
    fields: { Podsets: 8, "ToRs per podset": 16, "Leafs per podset": 4, Spines: 16, "Hosts per ToR": 38 },
  },
];

const browser = await chromium.launch({
  executablePath: "/usr/bin/chromium",
  args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync"],
});

async function record(page, action) {
  await page.evaluate(() => {
    window.__frames = [];
    window.__recording = true;
    let last = performance.now();
    const tick = (t) => { window.__frames.push(t - last); last = t; if (window.__recording) requestAnimationFrame(tick); };
    requestAnimationFrame(tick);
  });
  await action();
  const frames = await page.evaluate(() => { window.__recording = false; return window.__frames.slice(1); });
  frames.sort((a, b) => a - b);
  const pct = (p) => Number(frames[Math.min(frames.length - 1, Math.floor(p * frames.length))].toFixed(1));
  return { frames: frames.length, p50_ms: pct(0.5), p95_ms: pct(0.95), max_ms: Number(frames[frames.length - 1].toFixed(1)) };
}

const results = [];
for (const f of FABRICS) {
  const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
  await page.goto(`${base}/editor`);
  const form = page.getByRole("form", { name: "Topology generator" });
  await form.getByLabel("Generator kind").selectOption(f.kind);
  for (const [label, value] of Object.entries(f.fields)) await form.getByLabel(label, { exact: true }).fill(String(value));
  const t0 = Date.now();
  await form.getByRole("button", { name: "Generate" }).click();
  const canvas = page.getByRole("img", { name: new RegExp(`Fabric editor canvas: ${f.nodes} nodes`) });
  await canvas.waitFor({ timeout: 120_000 });
  const firstDrawMs = Date.now() - t0;
  const box = await canvas.boundingBox();
  const mid = { x: box.x + box.width / 2, y: box.y + box.height / 2 };
  await page.mouse.move(mid.x, mid.y);
  const pan = await record(page, async () => {
    for (let i = 0; i < 25; i += 1) { await page.mouse.wheel(0, -120); await page.waitForTimeout(16); }
    await page.mouse.down();
    for (let i = 0; i < 40; i += 1) await page.mouse.move(mid.x + i * 10, mid.y + i * 3);
    await page.mouse.up();
    for (let i = 0; i < 25; i += 1) { await page.mouse.wheel(0, 120); await page.waitForTimeout(16); }
  });
  await page.screenshot({ path: `test-results/screenshots/bench-${f.kind}-after-pan.png` });
  const side = page.getByRole("complementary", { name: "Selection and traffic" });
  const edit = await record(page, async () => {
    // click ten points across the canvas (nodes or background), as a user picking nodes
    for (let i = 0; i < 10; i += 1) await page.mouse.click(box.x + 30 + i * (box.width - 60) / 9, box.y + box.height * 0.45);
    await side.getByText("Bulk select").click();
    await side.getByLabel("Bulk select pod").selectOption(f.pod);
    await side.getByRole("button", { name: /^Select \d/ }).click();
    await side.getByLabel("ECN Kmin (bytes)").fill("40000");
    await page.waitForTimeout(1500); // the validation and configuration check round trips
  });
  // the fitted fabric is a wide strip through the middle: zoom in at its left end
  await page.getByRole("button", { name: "Fit to view" }).click();
  await page.waitForTimeout(300);
  // the leftmost host (host blue #4c78a8) on the canvas, read from its pixels
  const host = await page.evaluate(() => {
    const c = document.querySelector("canvas[aria-label^='Fabric editor canvas']");
    const { data, width, height } = c.getContext("2d").getImageData(0, 0, c.width, c.height);
    for (let x = 0; x < width; x += 1) for (let y = height - 1; y >= 0; y -= 1) {
      const i = (y * width + x) * 4;
      if (Math.abs(data[i] - 0x4c) < 8 && Math.abs(data[i + 1] - 0x78) < 8 && Math.abs(data[i + 2] - 0xa8) < 8) {
        const r = c.getBoundingClientRect();
        return { x: r.left + (x + 2) * r.width / width, y: r.top + y * r.height / height };
      }
    }
    return null;
  });
  await page.mouse.move(host.x, host.y);
  const zoomed = await record(page, async () => {
    // to about 2x: host labels wherever they have room
    for (let i = 0; i < 26; i += 1) { await page.mouse.wheel(0, -120); await page.waitForTimeout(16); }
    // pan along the hosts (drag on the empty band above them)
    await page.mouse.move(box.x + box.width - 40, box.y + 20);
    await page.mouse.down();
    for (let i = 0; i < 30; i += 1) await page.mouse.move(box.x + box.width - 40 - i * 20, box.y + 20);
    await page.mouse.up();
  });
  await page.screenshot({ path: `test-results/screenshots/bench-${f.kind}-zoomed.png` });
  // a structural edit: drag a switch (turns the generated fabric explicit, one undoable edit)
  await page.getByRole("button", { name: "Fit to view" }).click();
  await page.waitForTimeout(300);
  const sw = await page.evaluate(() => {
    const c = document.querySelector("canvas[aria-label^='Fabric editor canvas']");
    const { data, width, height } = c.getContext("2d").getImageData(0, 0, c.width, c.height);
    for (let y = 0; y < height; y += 1) for (let x = 0; x < width; x += 1) {
      const i = (y * width + x) * 4;
      if (Math.abs(data[i] - 0x54) < 6 && Math.abs(data[i + 1] - 0xa2) < 6 && Math.abs(data[i + 2] - 0x4b) < 6) {
        const r = c.getBoundingClientRect();
        return { x: r.left + (x + 2) * r.width / width, y: r.top + (y + 2) * r.height / height };
      }
    }
    return null;
  });
  const drag = await record(page, async () => {
    await page.mouse.move(sw.x, sw.y);
    await page.mouse.down();
    for (let i = 0; i < 30; i += 1) await page.mouse.move(sw.x + i * 4, sw.y + i * 2);
    await page.mouse.up();
    await page.waitForTimeout(1500); // the explicit fabric is expanded, validated and checked
  });
  drag.became_explicit = await page.getByText(/^Explicit fabric \(\d+ nodes\)/).isVisible();
  await page.getByRole("button", { name: "Fit to view" }).click();
  await page.getByRole("button", { name: /^Collapse \d+ pod/ }).click();
  await page.screenshot({ path: `test-results/screenshots/bench-${f.kind}-collapsed.png` });
  const collapsed = await record(page, async () => {
    await page.mouse.move(mid.x, mid.y);
    for (let i = 0; i < 15; i += 1) { await page.mouse.wheel(0, -120); await page.waitForTimeout(16); }
    // drag on the background (top of the canvas, above the fabric): a pan
    await page.mouse.move(mid.x, box.y + 20);
    await page.mouse.down();
    for (let i = 0; i < 30; i += 1) await page.mouse.move(mid.x - i * 10, box.y + 20);
    await page.mouse.up();
  });
  results.push({ fabric: f.name, nodes: f.nodes, generate_and_first_draw_ms: firstDrawMs, pan_zoom: pan, edit, drag_switch: drag, zoomed_in_labels: zoomed, collapsed_pan: collapsed });
  await page.close();
}
console.log(JSON.stringify(results, null, 1));
await browser.close();
