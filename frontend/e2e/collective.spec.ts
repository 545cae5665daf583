// Issue 20, "In the product": a collective made in the editor on a rail-optimized fabric, its
// configuration check, its run through the real backend, the job's cards and timeline (which
// agree with each other and with the result), and the comparison of ring against tree.
import { type APIRequestContext, expect, test } from "@playwright/test";
import { join } from "node:path";
import { SHOTS, shot, waitForRunEnd } from "./helpers";

test.describe.configure({ mode: "serial" });

const API = "/api/v1";
let ringRun = "";
let scenarioId = "";

async function waitSucceeded(request: APIRequestContext, id: string) {
  await expect.poll(async () => (await (await request.get(`${API}/runs/${id}`)).json()).status, { timeout: 240_000 }).toBe("SUCCEEDED");
}

test("a collective from the editor: check, run, job cards and timeline", async ({ page, request }) => {
  test.setTimeout(300_000);
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto("/editor");
  await page.getByLabel("Scenario name").fill("e2e ring all-reduce");
  // the rail-optimized form: 1 unit of 2 servers x 4 NICs, 1 spine (2 x 400 down, 1 x 400 up: 2:1)
  const form = page.getByRole("form", { name: "Topology generator" });
  await form.getByLabel("Generator kind").selectOption("rail_optimized");
  await form.getByLabel("Scalable units", { exact: true }).fill("1");
  await form.getByLabel("Servers per unit", { exact: true }).fill("2");
  await form.getByLabel("NICs (GPUs) per server = rails", { exact: true }).fill("4");
  await form.getByLabel("Spines", { exact: true }).fill("1");
  await form.getByRole("button", { name: "Generate" }).click();
  // 4 rail leaves, 8 NICs, 1 spine
  await expect(page.getByRole("img", { name: "Fabric editor canvas: 13 nodes, 12 links" })).toBeVisible();

  await page.getByLabel("Traffic kind").selectOption("collective");
  await page.getByRole("button", { name: "Add traffic" }).click();
  const gen = page.locator("fieldset.generator").last();
  await expect(gen.getByLabel("Operation")).toHaveValue("all_reduce");
  // only the algorithms that run the op
  await gen.getByLabel("Operation").selectOption("all_gather");
  await expect(gen.getByLabel(/^Algorithm/).locator("option")).toHaveText(["ring", "halving doubling"]);
  await gen.getByLabel("Operation").selectOption("all_reduce");
  await expect(gen.getByLabel(/^Algorithm/).locator("option")).toHaveText(["ring", "tree", "halving doubling", "hierarchical"]);
  await gen.getByLabel(/^Message size/).fill("8000000");
  await gen.getByLabel(/^Channels/).fill("2");
  await gen.getByLabel(/^Iterations/).fill("2");
  await gen.getByLabel(/^Job name/).fill("train");
  await gen.getByLabel("Ranks").selectOption("servers");
  await gen.getByLabel(/^Servers/).fill("2");

  // the job's two servers sit under all four rail leaves of a 2:1 fabric
  const check = page.getByTestId("config-check");
  await expect(check).toContainText("Collective across the leaves of an oversubscribed fabric", { timeout: 60_000 });
  await expect(check).toContainText("oversubscribed 2:1");
  await check.scrollIntoViewIfNeeded();
  await check.screenshot({ path: join(SHOTS, "collective-config-check-1440.png") });
  await shot(page, "collective-editor-1440");
  await page.setViewportSize({ width: 390, height: 844 });
  await gen.scrollIntoViewIfNeeded();
  await shot(page, "collective-editor-390");
  await page.setViewportSize({ width: 1440, height: 900 });

  await page.getByRole("button", { name: "Run", exact: true }).click();
  await expect(page).toHaveURL(/\/runs\//);
  expect(await waitForRunEnd(page)).toBe("SUCCEEDED");
  ringRun = page.url().split("/runs/")[1].split(/[?#]/)[0];
  scenarioId = (await (await request.get(`${API}/runs/${ringRun}`)).json()).scenario_id;
  const [job] = await (await request.get(`${API}/runs/${ringRun}/jobs`)).json();
  expect(job.name).toBe("train");
  expect(job.ranks).toBe(8);

  const panel = page.getByRole("region", { name: "Job train" });
  await expect(panel).toBeVisible();
  await expect(page.getByTestId("busbw-meaning")).toContainText("busbw = algbw × the op's factor");
  await expect(panel.locator('[data-metric="Iterations"] dd')).toHaveText("2 / 2");
  await expect(panel.locator('[data-metric="Bus bandwidth"] .card-where')).toContainText(`ideal ${job.ideal_busbw_gbps.toLocaleString("en-US", { maximumSignificantDigits: 4 })} Gbit/s`);
  // the card's slowest step is the one bar highlighted, on the channel shown first
  const slow = job.slowest_step;
  await expect(panel.locator('[data-metric="Slowest step"] .card-where')).toHaveText(`${slow.src}->${slow.dst} via ${slow.via === "nvlink" ? "NVLink" : "the network"}`);
  await expect(panel.getByLabel("Channel of train")).toHaveValue(String(slow.channel));
  const bar = panel.locator("rect.step-bar.slowest");
  await expect(bar).toHaveCount(1);
  await expect(bar).toHaveAttribute("data-step", String(slow.step));
  await expect(bar).toHaveAttribute("data-iteration", String(slow.iteration));
  const cardTime = (await panel.locator('[data-metric="Slowest step"] dd').textContent())!.trim();
  expect(await bar.locator("title").textContent()).toContain(`: ${cardTime},`);
  await expect(panel.locator("g.iteration-band")).toHaveCount(2);
  // the slowest transfer's two hosts on the fabric overlay
  await panel.getByRole("button", { name: "Show the slowest transfer's hosts" }).click();
  await expect(page.getByTestId("overlay-shown")).toContainText(`${slow.src}->${slow.dst}`);
  await panel.scrollIntoViewIfNeeded();
  await shot(page, "collective-results-1440");
  await page.setViewportSize({ width: 390, height: 844 });
  await panel.scrollIntoViewIfNeeded();
  await shot(page, "collective-results-390");
});

test("compare ring against tree: JCT and busbw per job", async ({ page, request }) => {
  test.setTimeout(300_000);
  expect(ringRun).not.toBe("");
  const doc = (await (await request.get(`${API}/scenarios/${scenarioId}`)).json()).scenario;
  doc.name = "e2e tree all-reduce";
  doc.traffic[0].algorithm = "tree";
  const fork = await (await request.post(`${API}/scenarios/${scenarioId}/fork`, { data: { scenario: doc } })).json();
  const created = await (await request.post(`${API}/runs`, { data: { scenario_id: fork.id, seeds: [1] } })).json();
  const treeRun = created.data[0].id as string;
  await waitSucceeded(request, treeRun);
  const [ring] = await (await request.get(`${API}/runs/${ringRun}/jobs`)).json();
  const [tree] = await (await request.get(`${API}/runs/${treeRun}/jobs`)).json();
  expect(tree.algorithm).toBe("tree");

  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto(`/compare?runs=${ringRun},${treeRun}`);
  const table = page.getByTestId("compare-jobs");
  await expect(table).toBeVisible({ timeout: 60_000 });
  const jct = table.locator('tr[data-job="train"][data-metric="jct_us"]');
  await expect(jct.locator("td")).toHaveCount(2);
  // the delta's sign follows the two results
  const sign = tree.jct_us > ring.jct_us ? "+" : "−";
  await expect(jct.locator(".delta")).toContainText(sign);
  await expect(table.locator('tr[data-job="train"][data-metric="busbw_gbps"] .delta')).toHaveClass(new RegExp(tree.busbw_gbps > ring.busbw_gbps ? "better" : "worse"));
  await table.scrollIntoViewIfNeeded();
  await shot(page, "collective-compare-1440");
  await page.setViewportSize({ width: 390, height: 844 });
  await table.scrollIntoViewIfNeeded();
  await shot(page, "collective-compare-390");
});
