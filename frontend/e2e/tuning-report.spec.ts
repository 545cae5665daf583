// Issue 11: the tuning's report. A small tuning of the 2-to-1 incast preset (6 grid points, two
// seeds so the table has 95% intervals) is run through the app; the tuning page's "Download report
// (HTML)" gives one self-contained file with the scenario, space, objective, the strategy table with
// its intervals, the best-so-far chart, the heatmap and the picks with simulator version and scenario
// hash, and that file opens and draws with the network cut off.
import { expect, test } from "@playwright/test";
import { readFileSync } from "node:fs";
import { shot } from "./helpers";

const API = "/api/v1";

test("tuning report: one self-contained HTML file that opens with no network", async ({ page, request, browser }) => {
  test.setTimeout(420_000);
  await page.setViewportSize({ width: 1440, height: 900 });
  const preset = await (await request.get(`${API}/presets/incast-2to1`)).json();
  const created = await request.post(`${API}/tunings`, {
    data: {
      name: "incast ECN report", scenario_ids: [preset.scenario_id], seeds: [1, 2],
      space: {
        parameters: [
          { name: "kmin", path: "switch.ecn.kmin_bytes", values: [0, 2500, 5000], unit: "cells" },
          { name: "pmax", path: "switch.ecn.pmax", values: [1, 50], unit: "percent" },
        ],
        linked: [{ name: "kmax", path: "switch.ecn.kmax_bytes", from: "kmin", offset: 500, unit: "cells" }],
      },
      objectives: [{ kind: "bytetuning_throughput", beta: 0.5 }],
      strategies: [{ name: "vendor" }, { name: "grid" }, { name: "random", budget: 3, seed: 3 }],
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  const tuning = await created.json();
  await expect.poll(async () => (await (await request.get(`${API}/tunings/${tuning.id}`)).json()).status, { timeout: 360_000 }).toBe("SUCCEEDED");
  const results = await (await request.get(`${API}/tunings/${tuning.id}/results`)).json();
  const scenario = await (await request.get(`${API}/scenarios/${preset.scenario_id}`)).json();

  await page.goto(`/tunings/${tuning.id}`);
  await expect(page.getByTestId("tuning-status")).toHaveText("SUCCEEDED");
  await expect(page.locator(".best-so-far path[data-strategy]")).toHaveCount(3);
  await expect(page.locator('.heatmap-mark[data-strategy="grid"]')).toBeVisible();
  const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: "Download report (HTML)" }).click()]);
  expect(download.suggestedFilename()).toBe(`tuning-${tuning.id}-report.html`);
  const html = readFileSync((await download.path())!, "utf8");

  // the set-up: scenario with its hash and parameters, the space, the objective
  expect(html).toContain("Tuning: incast ECN report");
  expect(html).toContain(scenario.content_hash);
  expect(html).toContain('<td class="p">switch.ecn.kmin_bytes</td>');
  expect(html).toContain("<th>kmin</th><td>switch.ecn.kmin_bytes</td><td>cells</td><td>0, 2500, 5000</td>");
  expect(html).toContain("switch.ecn.kmax_bytes = 1 × kmin + 500 cells");
  expect(html).toContain(`maximise ${results.objectives[0]}`);
  // the strategy table as the page shows it, with 95% intervals over the two seeds, no button column
  const pageRow = (await page.locator('table.comparison-table tr[data-strategy="grid"] td').nth(2).textContent())!.trim();
  expect(pageRow).toContain("±");
  expect(html).toContain(`<td>${pageRow.replace(/&/g, "&amp;").replace(/</g, "&lt;")}</td>`);
  expect(html).not.toContain(">Select<");
  // each pick with its runs' simulator version and scenario hash, as the runs' results record them
  const byId = new Map(results.evaluations.map((e: { id: number; run_ids: string[] }) => [e.id, e]));
  const gridPick = results.picks.find((p: { strategy: string }) => p.strategy === "grid");
  const gridRuns = (byId.get(gridPick.evaluation_id) as { run_ids: string[] }).run_ids;
  expect(gridRuns).toHaveLength(2);
  for (const id of gridRuns) {
    const info = (await (await request.get(`${API}/runs/${id}/summary`)).json()).run_info;
    expect(html).toContain(id);
    expect(html).toContain(info.scenario_sha256);
    expect(html).toContain(`<span data-field="simulator-version">${info.simulator} ${info.version}</span>`);
  }
  // the charts: best-so-far (one line per strategy), the heatmap with the picks and its colour legend
  expect(html).toMatch(/<figure aria-label="Best [^"]+ so far">/);
  expect((html.match(/<path [^>]*data-strategy=/g) ?? []).length).toBeGreaterThanOrEqual(3);
  expect(html).toContain('class="heatmap-mark"');
  expect(html).toContain("Legend: Objective");
  expect(html).not.toMatch(/<script|<link |src="http|href="http|url\(http/);

  // it opens, draws and prints on its own, with the network cut off
  const offline = await browser.newContext({ offline: true, viewport: { width: 1100, height: 900 } });
  const requests: string[] = [];
  offline.on("request", (r) => { if (!r.url().startsWith("data:")) requests.push(r.url()); });
  const report = await offline.newPage();
  await report.setContent(html, { waitUntil: "load" });
  await expect(report.locator("h1")).toHaveText("Tuning: incast ECN report");
  await expect(report.getByRole("table", { name: "Comparison of the strategies' picks" })).toBeVisible();
  const heatmap = report.locator("figure svg .heatmap-cell");
  expect(await heatmap.count()).toBe(6);
  expect(requests).toEqual([]);
  await report.emulateMedia({ media: "print" });
  await report.screenshot({ path: "test-results/screenshots/report-tuning.png", fullPage: true });
  await offline.close();
  await shot(page, "tuning-page-report");

  // the picks' runs compared (issue 11: a comparison is reachable from a tuning): two ticked at first
  const picker = page.getByRole("region", { name: "Compare the picks' runs" });
  await expect(picker.getByRole("checkbox", { checked: true })).toHaveCount(2);
  await picker.getByTestId("compare-selected").click();
  await expect(page).toHaveURL(/\/compare\?runs=[^,]+,[^,]+$/);
  await expect(page.getByTestId("compare-table").locator('tr[data-metric="max_queue"] td')).toHaveCount(2);
  await expect(page.getByTestId("scenario-diff")).toContainText("switch.ecn");
});
