// Draw time of the tuning page for a tuning with every ByteTuning grid point (3,300+ evaluations).
//
//   node bench/tuning_page_draw.mjs BASE_URL TUNING_ID [--repeats 5] [--png OUT.png] [--json OUT.json]
//
// BASE_URL serves the built frontend and the API (uvicorn app.main:app after `npm run build`);
// bench/tuning_page_seed.py stores such a tuning. Debian's /usr/bin/chromium, headless, 1440x900.
// Per repeat, a fresh page: the times (ms after navigation start) at which the results response
// ended, the heatmap's <svg> and the best-so-far chart were in the DOM, and the next animation
// frame after both (the frame that paints them); "draw" = that frame minus the response end, i.e.
// parsing, aggregating and rendering 3,300 evaluations in the browser. Long tasks (> 50 ms main-
// thread blocks) in that window are summed. On a shared machine wall times swell with the load, so
// the renderer main thread's CPU time for the whole page load (Chrome's Performance metrics in
// thread ticks: tasks, script, layout and style) is recorded too; run the same on a small tuning
// (bench/tuning_page_seed.py --strategies ...) and the difference is what the evaluations cost.
// The medians over the repeats are printed.
import { createRequire } from "node:module";
import { writeFileSync } from "node:fs";

const require = createRequire(new URL("../frontend/package.json", import.meta.url));
const { chromium } = require("playwright-core");

const [base, tuningId, ...rest] = process.argv.slice(2);
if (!base || !tuningId) {
  console.error("usage: node bench/tuning_page_draw.mjs BASE_URL TUNING_ID [--repeats N] [--png F] [--json F]");
  process.exit(2);
}
const opt = (name, dflt) => {
  const i = rest.indexOf(name);
  return i >= 0 ? rest[i + 1] : dflt;
};
const repeats = Number(opt("--repeats", "5"));

// Runs in the page before its scripts: records when the charts enter the DOM and the long tasks.
function probe() {
  const marks = { longTasks: [] };
  window.__drawMarks = marks;
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) marks.longTasks.push([e.startTime, e.duration]);
  }).observe({ type: "longtask", buffered: true });
  const seen = () => {
    const now = performance.now();
    if (marks.heatmap == null && document.querySelector("figure.heatmap svg[data-cells]")) marks.heatmap = now;
    if (marks.bestSoFar == null && document.querySelector('svg[aria-label^="Best "]')) marks.bestSoFar = now;
    if (marks.heatmap != null && marks.bestSoFar != null && marks.painted == null) {
      marks.painted = -1;
      requestAnimationFrame(() => { marks.painted = performance.now(); });
      observer.disconnect();
    }
  };
  const observer = new MutationObserver(seen);
  document.addEventListener("DOMContentLoaded", () => observer.observe(document.body, { childList: true, subtree: true }));
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

const browser = await chromium.launch({
  executablePath: "/usr/bin/chromium",
  args: ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking"],
});
const rows = [];
try {
  for (let i = 0; i < repeats; i++) {
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    const page = await context.newPage();
    await page.addInitScript(probe);
    const cdp = await context.newCDPSession(page);
    await cdp.send("Performance.enable", { timeDomain: "threadTicks" });
    await page.goto(`${base}/tunings/${tuningId}`);
    await page.waitForFunction(() => (window.__drawMarks?.painted ?? -1) > 0, null, { timeout: 120_000 });
    const m = await page.evaluate(() => {
      const res = performance.getEntriesByType("resource").find((e) => e.name.includes("/results"));
      const marks = window.__drawMarks;
      return { responseStart: res.responseStart, responseEnd: res.responseEnd, bytes: res.encodedBodySize,
        heatmap: marks.heatmap, bestSoFar: marks.bestSoFar, painted: marks.painted, longTasks: marks.longTasks };
    });
    const cpu = Object.fromEntries((await cdp.send("Performance.getMetrics")).metrics.map((x) => [x.name, x.value]));
    const evaluations = await page.evaluate(async (id) => (await (await fetch(`/api/v1/tunings/${id}/results`)).json()).evaluations.length, tuningId);
    const cells = await page.locator("figure.heatmap svg[data-cells]").first().getAttribute("data-cells");
    const blocked = m.longTasks.filter(([start]) => start >= m.responseEnd && start <= m.painted)
      .reduce((sum, [, d]) => sum + d, 0);
    const row = { repeat: i, evaluations, heatmap_cells: Number(cells), results_bytes: m.bytes,
      results_request_ms: +(m.responseEnd - m.responseStart).toFixed(1), response_end_ms: +m.responseEnd.toFixed(1),
      painted_ms: +m.painted.toFixed(1), draw_ms: +(m.painted - m.responseEnd).toFixed(1),
      long_tasks_in_draw_ms: +blocked.toFixed(1), main_thread_cpu_ms: +(cpu.TaskDuration * 1000).toFixed(1),
      script_cpu_ms: +(cpu.ScriptDuration * 1000).toFixed(1),
      layout_style_cpu_ms: +((cpu.LayoutDuration + cpu.RecalcStyleDuration) * 1000).toFixed(1) };
    rows.push(row);
    console.log(JSON.stringify(row));
    if (i === repeats - 1 && opt("--png")) await page.screenshot({ path: opt("--png"), fullPage: false });
    await context.close();
  }
} finally {
  await browser.close();
}
const summary = { repeats, evaluations: rows[0].evaluations, heatmap_cells: rows[0].heatmap_cells,
  results_bytes: rows[0].results_bytes,
  median_results_request_ms: median(rows.map((r) => r.results_request_ms)),
  median_draw_ms: median(rows.map((r) => r.draw_ms)), max_draw_ms: Math.max(...rows.map((r) => r.draw_ms)),
  median_painted_ms: median(rows.map((r) => r.painted_ms)),
  median_main_thread_cpu_ms: median(rows.map((r) => r.main_thread_cpu_ms)),
  median_script_cpu_ms: median(rows.map((r) => r.script_cpu_ms)),
  median_layout_style_cpu_ms: median(rows.map((r) => r.layout_style_cpu_ms)) };
console.log("summary " + JSON.stringify(summary));
if (opt("--json")) writeFileSync(opt("--json"), JSON.stringify({ summary, rows }, null, 1));
