// Issue 11 end to end: every preset's results page at 1440x900 (cards agree with their charts,
// the charts show the phenomenon without any user action), Share on the run page, the comparison
// of two runs and the HTML report.
import { type APIRequestContext, type Page, expect, test } from "@playwright/test";
import { readFileSync } from "node:fs";
import { holdOwnerToken, newOwnerToken, shot } from "./helpers";

test.describe.configure({ mode: "serial" });
test.use({ viewport: { width: 1440, height: 900 } });

const API = "/api/v1";
const PRESETS = [
  "incast-2to1", "leaf-spine-permutation", "fat-tree-k4-websearch", "three-tier-podsets", "dci-100km-perftest", "pfc-alpha-incast",
  "msft-pfc-storm", "msft-pfc-storm-watchdogs", "msft-link-failure", "msft-deadlock", "msft-deadlock-cured", "msft-pingmesh",
  "ntt-dci-distance",
];
const runs: Record<string, string> = {};
const scenarios: Record<string, string> = {};
const documents: Record<string, { monitor?: { queues?: unknown } }> = {};
let forkScenarioId = ""; // the Lab 1 step 3 fork (Kmax 200000) made by the comparison test

async function presetScenario(request: APIRequestContext, key: string) {
  const r = await request.get(`${API}/presets/${key}`);
  expect(r.status(), `preset ${key}`).toBe(200);
  return (await r.json()) as { scenario_id: string; scenario: Record<string, unknown> };
}

async function startRun(request: APIRequestContext, scenarioId: string, seed = 1, headers: Record<string, string> = {}) {
  const created = await (await request.post(`${API}/runs`, { data: { scenario_id: scenarioId, seeds: [seed] }, headers })).json();
  return created.data[0].id as string;
}

async function waitSucceeded(request: APIRequestContext, id: string) {
  await expect.poll(async () => (await (await request.get(`${API}/runs/${id}`)).json()).status, { timeout: 240_000 }).toBe("SUCCEEDED");
}

/** The text of a card's value, its "where" line and its link target. */
async function card(page: Page, label: string) {
  const c = page.locator(`[data-metric="${label}"]`);
  return {
    value: (await c.locator("dd").textContent())?.trim() ?? "",
    where: (await c.locator(".card-where").count()) ? ((await c.locator(".card-where").textContent())?.trim() ?? "") : "",
    window: (await c.locator(".card-window").textContent())?.trim() ?? "",
    href: (await c.locator("a.card-link").getAttribute("href")) ?? "",
  };
}

const toBytes = (text: string) => {
  const m = text.match(/([\d.,]+)\s*(MB|KB|B)/);
  if (!m) return NaN;
  return Number(m[1].replace(/,/g, "")) * (m[2] === "MB" ? 1e6 : m[2] === "KB" ? 1e3 : 1);
};

test.beforeAll(async ({ request }) => {
  test.setTimeout(600_000);
  for (const key of PRESETS) {
    const preset = await presetScenario(request, key);
    scenarios[key] = preset.scenario_id;
    documents[key] = preset.scenario as (typeof documents)[string];
    runs[key] = await startRun(request, scenarios[key]);
  }
  for (const key of PRESETS) await waitSucceeded(request, runs[key]);
});

for (const key of PRESETS) {
  test(`results of the ${key} preset: cards agree with charts, charts show the action`, async ({ page, request }) => {
    const result = await (await request.get(`${API}/runs/${runs[key]}/result`)).json();
    await page.goto(`/runs/${runs[key]}`);
    await expect(page.locator('[data-metric="Throughput"] dd')).toContainText("Gbit/s");
    // every card says its window and links to a chart or table on the page
    for (const c of await page.locator(".summary-cards .card").all()) {
      await expect(c.locator(".card-window")).toHaveText(/whole run|after the/);
      const href = await c.locator("a.card-link").getAttribute("href");
      expect(href).toMatch(/^#(chart|table)-/);
      await expect(page.locator(href!)).toHaveCount(1);
    }
    const summary = result.summary;
    const series = result.series;
    // Max queue: the whole-run maximum, on a named port that the queue chart shows (auto monitor)
    const mq = await card(page, "Max queue");
    expect(toBytes(mq.value)).toBeCloseTo(summary.max_queue_bytes_whole_run, -Math.floor(Math.log10(Math.max(summary.max_queue_bytes_whole_run, 10))) + 3);
    if (summary.max_queue_bytes_whole_run > 0) {
      const port = mq.where.split(" ")[0];
      const queueChart = page.getByRole("region", { name: "Queue occupancy (bytes)" });
      if (port in series.queues && Math.max(...series.queues[port]) > 0) {
        expect(mq.href).toBe("#chart-queues");
        await expect(queueChart.locator(".legend-list")).toContainText(port);
        // the chart's peak is the card's number as the card prints it (4 significant digits), to
        // what one sample can miss. Not to the byte: the chart samples a port's data priorities
        // summed, the card is the deepest (port, priority) queue; msft-pfc-storm samples
        // 2,117,630 bytes on leaf0->spine0 against a maximum of 2,117,628 (both "2.118 MB").
        expect(Math.max(...series.queues[port])).toBeLessThanOrEqual(summary.max_queue_bytes_whole_run * 1.0005);
      } else {
        // nothing a sample caught: the chart says so instead of an empty 0..1 axis
        await expect(queueChart).toContainText(/No watched switch queue held data|not on the queue chart/);
      }
      // auto, or the list the preset names (the fault presets watch the ports of their story)
      await expect(queueChart.locator(".chart-note")).toContainText([undefined, "auto"].includes(documents[key].monitor?.queues as string | undefined) ? "Watched queues: auto" : "Watched queues: listed");
    }
    // PFC: when pause frames were sent, the pause chart shows a paused port
    if (summary.pfc_pauses_sent > 0) {
      const pauseChart = page.getByRole("region", { name: /PFC pause state/ });
      await expect(pauseChart.locator("path.series-line").first()).toBeVisible();
      expect(Object.values(series.pause as Record<string, number[]>).some((v) => v.some((x) => x > 0))).toBe(true);
    }
    // FCT cards and CDF follow the simulator's FCT statistics (pingmesh probes left out): a card
    // with no value names no flow, and the CDF is drawn exactly when a data flow completed
    const p99 = await card(page, "FCT p99");
    if (summary.fct_us.count === 0) {
      expect([p99.value, p99.where]).toEqual(["—", ""]);
      await expect(page.locator("#chart-cdf")).toContainText("No finite flow completed");
    } else {
      expect(p99.where).toMatch(/^flow \d+ /);
      await expect(page.locator("#chart-cdf path.series-line, #chart-cdf path").first()).toBeVisible();
    }
    // rate chart: labelled src->dst
    const rates = page.getByRole("region", { name: "Per-flow rate (Gbit/s)" });
    await expect(rates.locator(".legend-list li").first()).toContainText(/flow \d+ \S+->\S+/);
    await expect(page.getByRole("region", { name: "Ports", exact: true })).toBeVisible();
    await page.locator(".summary-cards").scrollIntoViewIfNeeded();
    await shot(page, `results-1440-${key}`);
    await page.getByRole("region", { name: "Fabric overlay" }).scrollIntoViewIfNeeded();
    await shot(page, `results-1440-${key}-overlay`);
  });
}

test("a card's link highlights its port in the chart and the ports table", async ({ page }) => {
  await page.goto(`/runs/${runs["leaf-spine-permutation"]}`);
  const mq = await card(page, "Max queue");
  await page.locator('[data-metric="Max queue"] a.card-link').click();
  const port = mq.where.split(" ")[0];
  await expect(page.locator("path.series-line.highlighted")).toHaveAttribute("data-series", port);
  await expect(page.locator(`#table-ports .dt-row.selected`)).toContainText(port);
  // click a flow row: its line is drawn on top
  const flowRow = page.locator("#table-flows .dt-body .dt-row").first();
  await flowRow.click();
  await expect(page.locator("#table-flows .dt-row.selected")).toHaveCount(1);
});

test("keyboard: a chart's cursor and a table's selection move with the keys", async ({ page, request }) => {
  const id = runs["incast-2to1"];
  const series = (await (await request.get(`${API}/runs/${id}/series`)).json()) as { t_us: number[] };
  const times = new Set(series.t_us.map((t) => t.toFixed(4)));
  await page.goto(`/runs/${id}`);
  // the chart is in the tab order right after its frame's buttons
  const frame = page.locator("#chart-queues");
  await frame.getByRole("button", { name: "Save PNG" }).focus();
  await page.keyboard.press("Tab");
  const chart = frame.locator(".line-chart");
  await expect(chart).toBeFocused();
  const readout = frame.getByTestId("chart-readout");
  const at = async () => Number(/^t = ([\d,.]+) us · /.exec((await readout.textContent()) ?? "")?.[1].replace(/,/g, "") ?? NaN);
  await page.keyboard.press("Home");
  await expect(readout).toHaveText(/^t = [\d,.]+ us · leaf0->h0: /);
  await expect(frame.locator("line.chart-cursor")).toHaveCount(1);
  const start = await at();
  expect(times.has(start.toFixed(4)), `t = ${start} is a sample of the run`).toBe(true);
  await page.keyboard.press("ArrowRight");
  await expect.poll(at).toBeGreaterThan(start);
  await page.keyboard.press("End");
  await expect.poll(at).toBeGreaterThan(start);
  const end = await at();
  expect(times.has(end.toFixed(4))).toBe(true);
  await page.keyboard.press("Escape");
  await expect(frame.locator("line.chart-cursor")).toHaveCount(0);
  // the flows table: arrows select rows, and the selected flow's line is drawn on top
  await page.locator("#table-flows .dt-body").focus();
  await page.keyboard.press("ArrowDown");
  const selected = page.locator("#table-flows .dt-row.selected");
  await expect(selected).toHaveCount(1);
  const first = await selected.getAttribute("data-key");
  await expect(page.locator("#chart-rates path.series-line.highlighted")).toHaveCount(1);
  await page.keyboard.press("End");
  await expect(selected).not.toHaveAttribute("data-key", first!);
  await page.keyboard.press("Home");
  await expect(selected).toHaveAttribute("data-key", first!);
  await frame.scrollIntoViewIfNeeded();
  await chart.focus();
  await page.keyboard.press("Home");
  await page.keyboard.press("Shift+ArrowRight");
  await shot(page, "results-1440-keyboard-cursor");
});

test("Share on the run page gives a link to this run", async ({ page, context }) => {
  await context.grantPermissions(["clipboard-read", "clipboard-write"]).catch(() => {});
  await page.goto(`/runs/${runs["incast-2to1"]}`);
  await page.getByRole("button", { name: "Share" }).click();
  const link = page.getByTestId("share-link");
  await expect(link).toHaveAttribute("href", new RegExp(`/runs/${runs["incast-2to1"]}$`));
});

test("compare two runs: deltas, scenario diff, overlaid charts, URL kept", async ({ page, request }) => {
  test.setTimeout(300_000);
  // Lab 1 step 3: the incast preset with Kmax 200000, as a fork
  const preset = await presetScenario(request, "incast-2to1");
  const doc = JSON.parse(JSON.stringify(preset.scenario));
  doc.switch.ecn.kmax_bytes = 200000;
  const fork = await request.post(`${API}/scenarios/${preset.scenario_id}/fork`, { data: { scenario: doc } });
  expect(fork.status(), await fork.text()).toBe(201);
  const forkId = (await fork.json()).id as string;
  forkScenarioId = forkId;
  const forkRun = await startRun(request, forkId);
  await waitSucceeded(request, forkRun);
  const a = runs["incast-2to1"];
  // the Lab 1 step 3 card: whole-run peak of the start-up overshoot, its port, and the after-warm-up figure
  await page.goto(`/runs/${forkRun}`);
  const mq = await card(page, "Max queue");
  expect(toBytes(mq.value)).toBeGreaterThan(250_000);
  expect(mq.where).toContain("leaf0->h0");
  await expect(page.locator('[data-metric="Max queue"]')).toContainText("after warm-up");
  await shot(page, "results-1440-lab1-step3-kmax200k");

  await page.goto(`/runs/${a}`);
  await page.getByRole("link", { name: "Compare…" }).click();
  await expect(page).toHaveURL(new RegExp(`/compare\\?runs=${a}`));
  await page.goto(`/compare?runs=${a},${forkRun}`);
  const table = page.getByTestId("compare-table");
  await expect(table.locator('tr[data-metric="max_queue"] td').nth(1)).toContainText("%");
  await expect(page.getByTestId("scenario-diff")).toContainText("switch.ecn.kmax_bytes");
  await expect(page.getByTestId("scenario-diff")).toContainText("200000");
  const queues = page.getByRole("region", { name: "Deepest watched queue of each run (bytes)" });
  await expect(queues.locator("path.series-line")).toHaveCount(2);
  await expect(page.getByRole("region", { name: /CDF of each run/ })).toBeVisible();
  await shot(page, "compare-1440-incast-vs-kmax200k");
  // the comparison as one self-contained HTML file: both runs' versions and hashes, tables, charts
  const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: "Download report (HTML)" }).click()]);
  expect(download.suggestedFilename()).toBe(`compare-${a}-${forkRun}-report.html`);
  const html = readFileSync((await download.path())!, "utf8");
  for (const id of [a, forkRun]) {
    const info = (await (await request.get(`${API}/runs/${id}/summary`)).json()).run_info;
    expect(html).toContain(info.scenario_sha256);
    expect(html).toContain(`${info.simulator} ${info.version}`);
  }
  expect(html).toContain("<th>switch.ecn.kmax_bytes</th><td>5500</td><td>200000</td>");
  expect(html).toContain("Max queue (whole run)");
  expect((html.match(/<svg/g) ?? []).length).toBeGreaterThanOrEqual(2);
  expect(html).toContain("data:image/png;base64,"); // the fabric difference
  // with its diverging colour legend and the metric it shows
  expect(html).toMatch(/<img alt="Fabric overlay, difference from A" src="data:image\/png;base64,[^"]+"><div class="legends"><svg[^>]*aria-label="Legend: B − A: /);
  expect(html).toContain('<p class="fig-note">Links coloured by: Utilization');
  expect(html).not.toMatch(/<script|src="http|href="http/);
  // the queue chart as a difference: one line, B's deepest queue minus A's
  await queues.getByLabel("Show as difference from A").check();
  await expect(queues.locator("path.series-line")).toHaveCount(1);
  await expect(queues.locator("path.series-line")).toHaveAttribute("data-series", "B − A");
  // removing a run keeps the URL the source of truth
  await page.getByRole("button", { name: "Remove run B" }).click();
  await expect(page).toHaveURL(new RegExp(`/compare\\?runs=${a}$`));
});

test("compare from a scenario's history: the fork against its parent, fabric as a difference", async ({ page, request }) => {
  // the fork of the test above: its scenario page offers its run and its parent's, both ticked.
  // The parent is a preset: of its runs the history shows only this browser's (docs/security.md),
  // so the browser holds the token of a run of it (a seed no other test ran: not shared by cache)
  expect(forkScenarioId, "the Kmax 200000 fork of the test above").not.toBe("");
  const token = newOwnerToken();
  const preset = await presetScenario(request, "incast-2to1");
  const mine = await startRun(request, preset.scenario_id, 100_000 + Math.floor(Math.random() * 1e9), { "X-Owner-Token": token });
  await waitSucceeded(request, mine);
  await holdOwnerToken(page, token);
  await page.goto(`/s/${forkScenarioId}`);
  const picker = page.getByRole("region", { name: "Runs of this scenario, its parent and its forks" });
  await expect(picker.getByRole("checkbox", { checked: true })).toHaveCount(2);
  // the browser's run of the preset is offered, another browser's (the spec's first) is not
  await expect(picker.locator(`a[href="/runs/${mine}"]`)).toHaveCount(1);
  await expect(picker.locator(`a[href="/runs/${runs["incast-2to1"]}"]`)).toHaveCount(0);
  await picker.getByTestId("compare-selected").click();
  await expect(page).toHaveURL(new RegExp(`/compare\\?runs=[\\w-]+,${mine}$`));
  await expect(page.getByTestId("scenario-diff")).toContainText("switch.ecn.kmax_bytes");
  const fabric = page.getByTestId("fabric-difference");
  await expect(fabric.getByRole("img", { name: /Legend: B − A/ })).toBeVisible();
  const region = page.getByRole("region", { name: "Fabric overlay, difference from A" });
  await region.scrollIntoViewIfNeeded();
  // hovering a link reads both runs' values and the difference: sweep the pointer across the
  // drawing between the tiers until it lands on a link
  const canvas = fabric.getByRole("img", { name: /Fabric coloured by B − A/ });
  const box = (await canvas.boundingBox())!;
  const readout = fabric.getByTestId("difference-hover");
  let found = false;
  for (const fy of [0.5, 0.3, 0.7]) {
    for (let x = box.x + 2; x < box.x + box.width - 2 && !found; x += 3) {
      await page.mouse.move(x, box.y + box.height * fy);
      found = /: A .*, B .*, B − A /.test((await readout.textContent()) ?? "");
    }
    if (found) break;
  }
  expect(found, "a link under the pointer somewhere on the drawing").toBe(true);
  await shot(page, "compare-1440-fabric-difference");
});

test("several seeds as one result: mean ± 95% CI on every card, bands on the charts", async ({ page, request }) => {
  test.setTimeout(300_000);
  const scenario = scenarios["incast-2to1"];
  // two more seeds of the preset as the page's own (a preset's runs show to their owner only;
  // seeds no other test ran, so the cache hands out no other browser's run)
  const token = newOwnerToken();
  const seed = 100_000 + Math.floor(Math.random() * 1e9);
  const created = await (await request.post(`${API}/runs`, { data: { scenario_id: scenario, seeds: [seed, seed + 1] }, headers: { "X-Owner-Token": token } })).json();
  for (const r of created.data) await waitSucceeded(request, r.id);
  await holdOwnerToken(page, token);
  await page.goto(`/runs/${runs["incast-2to1"]}`);
  await page.getByRole("link", { name: /mean over 3 seeds/ }).click();
  await expect(page).toHaveURL(/\/seeds\?runs=/);
  const cards = page.getByTestId("group-cards");
  await expect(cards.locator('[data-metric="throughput"] dd')).toContainText("Gbit/s");
  await expect(cards.locator('[data-metric="throughput"] .card-window')).toHaveText("mean ± 95% CI over 3 seeds");
  // the card's mean is the mean of the three runs' throughputs
  const tps = await Promise.all([runs["incast-2to1"], ...created.data.map((r: { id: string }) => r.id)].map(async (id) => (await (await request.get(`${API}/runs/${id}/summary`)).json()).summary.throughput_gbps as number));
  const mean = tps.reduce((x, y) => x + y, 0) / 3;
  const shown = Number(((await cards.locator('[data-metric="throughput"] dd').textContent()) ?? "").split(" ")[0].replace(/,/g, ""));
  expect(Math.abs(shown - mean)).toBeLessThanOrEqual(Math.max(1e-3, mean * 1e-3));
  await expect(page.locator("#chart-queues path.series-band").first()).toBeVisible();
  await expect(page.locator("#table-ports .dt-body .dt-row").first()).toContainText("±");
  await shot(page, "seeds-1440-incast-3-seeds");
});

test("report: one self-contained HTML file with scenario, cards, charts, version and hash", async ({ page, request }) => {
  const id = runs["incast-2to1"];
  const result = await (await request.get(`${API}/runs/${id}/result`)).json();
  await page.goto(`/runs/${id}`);
  await expect(page.getByRole("region", { name: "Queue occupancy (bytes)" }).locator("path.series-line").first()).toBeVisible();
  // the overlay draws once the expanded topology has come back (a request of its own): the report
  // takes what the page shows, so wait for it too
  await expect(page.getByRole("region", { name: "Fabric overlay" }).locator("svg, canvas").first()).toBeVisible();
  const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: "Download report (HTML)" }).click()]);
  expect(download.suggestedFilename()).toBe(`run-${id}-report.html`);
  const html = readFileSync((await download.path())!, "utf8");
  expect(html).toContain(`${result.run_info.simulator} ${result.run_info.version}`);
  expect(html).toContain(result.run_info.scenario_sha256);
  expect(html).toContain("switch.ecn.kmax_bytes");
  expect(html).toContain("Max queue");
  expect((html.match(/<svg/g) ?? []).length).toBeGreaterThanOrEqual(3);
  expect(html).toContain('class="series-line');
  // the fabric picture comes with its colour legend and says what the colours are
  expect(html).toMatch(/<img alt="Fabric overlay" src="data:image\/png;base64,[^"]+"><div class="legends"><svg[^>]*aria-label="Legend: /);
  expect(html).toContain('<p class="fig-note">Colour links by: ');
  expect(html).not.toMatch(/<script|src="http|href="http/);
  // it opens and prints on its own, with the network cut off
  const offline = await page.context().browser()!.newContext({ offline: true });
  const requests: string[] = [];
  offline.on("request", (r) => { if (!r.url().startsWith("data:")) requests.push(r.url()); });
  const report = await offline.newPage();
  await report.setContent(html, { waitUntil: "load" });
  await expect(report.locator("h1")).toContainText("incast");
  expect(await report.locator('img[alt="Fabric overlay"]').evaluate((i: HTMLImageElement) => i.naturalWidth)).toBeGreaterThan(100);
  expect(requests).toEqual([]);
  await report.emulateMedia({ media: "print" });
  await report.screenshot({ path: "test-results/screenshots/report-incast.png", fullPage: true });
  await offline.close();

  // a run with findings: the deadlock preset's report says what the page's panel says
  const ring = runs["msft-deadlock"];
  await page.goto(`/runs/${ring}`);
  await expect(page.getByRole("region", { name: "Faults and deadlocks" }).getByRole("alert")).toContainText("PFC deadlock");
  const [ringDownload] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: "Download report (HTML)" }).click()]);
  const ringHtml = readFileSync((await ringDownload.path())!, "utf8");
  expect(ringHtml).toContain("<h2>Findings</h2>");
  expect(ringHtml).toMatch(/PFC deadlock on priority 3: s0-&gt;s1 → s1-&gt;s2 → s2-&gt;s3 → s3-&gt;s4 → s4-&gt;s0 → s0 \(formed at [\d.]+ us/);
});
