// Issue 22 §5: the design loop a new user expects. Edit a preset, run it, compare with the
// original in one click, tune it, read why the pick won, find the tuning again from Home; every
// page on the way screenshotted at 1440x900 and 390x844.
import { expect, test, type Page } from "@playwright/test";
import { holdOwnerToken, newOwnerToken, shot, waitForRunEnd } from "./helpers";

const SIZES = [{ width: 1440, height: 900 }, { width: 390, height: 844 }];

/** Both screenshots of the page as it is, then back to the desktop size; and no page is wider than the phone. */
async function both(page: Page, name: string) {
  for (const size of SIZES) {
    await page.setViewportSize(size);
    await shot(page, `journey-${name}-${size.width}`);
  }
  await page.setViewportSize(SIZES[0]);
}

test("edit a preset, run, compare with the original, tune, read why, find it from Home", async ({ page, request }) => {
  test.setTimeout(600_000);
  await page.setViewportSize(SIZES[0]);
  // the original: the preset as shipped, run once by this browser (what the user "had"; a preset's
  // runs show to their owner only, and a seed no other test ran is not another browser's by cache)
  const token = newOwnerToken();
  await holdOwnerToken(page, token);
  const preset = await (await request.get("/api/v1/presets/incast-2to1")).json();
  const seed = 100_000 + Math.floor(Math.random() * 1e9);
  const original = (await (await request.post("/api/v1/runs", { data: { scenario_id: preset.scenario_id, seeds: [seed] }, headers: { "X-Owner-Token": token } })).json()).data[0];
  await expect.poll(async () => (await (await request.get(`/api/v1/runs/${original.id}`)).json()).status, { timeout: 150_000 }).toBe("SUCCEEDED");

  // 1. edit the preset and run it
  await page.goto("/");
  await page.locator('[data-preset="incast-2to1"]').getByRole("link").click();
  await expect(page.getByRole("img", { name: /Fabric editor canvas: \d+ nodes/ })).toBeVisible();
  await page.getByLabel("ECN Kmax (bytes)").fill("200000");
  await page.getByRole("button", { name: "Run", exact: true }).click();
  await expect(page).toHaveURL(/\/runs\//);
  expect(await waitForRunEnd(page)).toBe("SUCCEEDED");
  const forkRun = page.url().split("/runs/")[1].split(/[/?#]/)[0];

  // 2. compare with the original in one click
  const compare = page.getByTestId("compare-parent");
  await expect(compare).toBeVisible();
  await both(page, "run");
  await compare.click();
  await expect(page).toHaveURL(new RegExp(`/compare\\?runs=${forkRun}(%2C|,)`));
  await expect(page.getByRole("heading", { name: "Compare 2 runs" })).toBeVisible();
  await expect(page.getByTestId("scenario-diff")).toContainText("switch.ecn.kmax_bytes");
  await expect(page.getByTestId("compare-table")).toBeVisible();
  // the family's other runs can be added (the original's, by its scenario)
  await both(page, "compare");

  // 3. tune the edited scenario
  await page.goto(`/runs/${forkRun}`);
  await page.getByRole("link", { name: "Tune…" }).click();
  await expect(page).toHaveURL(/\/tunings\/new\?scenario=/);
  await expect(page.getByTestId("tuning-points")).toHaveText("6 points");
  await both(page, "tuning-new");
  await page.getByRole("button", { name: "Start tuning" }).click();
  await page.waitForURL(/\/tunings\/(?!new)[^/]+$/);
  const tuningUrl = new URL(page.url()).pathname;
  await expect(page.getByTestId("tuning-status")).toHaveText("SUCCEEDED", { timeout: 300_000 });

  // 4. read why the pick won: the formula with beta, the score's terms, what it gave up
  await expect(page.getByTestId("objective-formula")).toContainText("β = 0.5");
  const table = page.getByRole("table", { name: "Comparison of the strategies' picks" });
  await expect(table.locator('tr[data-strategy="grid"] td.terms')).toContainText("throughput part");
  await expect(table.locator('tr[data-strategy="vendor"] td.settings')).toContainText(/kmin_bytes = [\d.]+ (B|KB|MB)/);
  await both(page, "tuning");
  await page.getByRole("link", { name: "How the objectives are defined" }).click();
  await expect(page).toHaveURL(/\/guide\/tuning$/);
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  await both(page, "guide-tuning");

  // 5. find the tuning again from Home, and on the scenario's page
  await page.goto("/");
  const recent = page.getByTestId("my-recent-work");
  await expect(recent.locator(`a[href="${tuningUrl}"]`)).toBeVisible();
  await both(page, "home");
  await recent.locator(`a[href="${tuningUrl}"]`).click();
  await expect(page.getByTestId("tuning-status")).toHaveText("SUCCEEDED");
  await page.getByRole("link", { name: "Base scenario" }).click();
  const history = page.getByTestId("scenario-history");
  await expect(history.locator(`a[href="${tuningUrl}"]`)).toBeVisible();
  await expect(history.locator(`a[href="/runs/${forkRun}"]`)).toBeVisible();
  await both(page, "scenario");
  // a phone never scrolls the whole page sideways on these pages
  await page.setViewportSize(SIZES[1]);
  for (const path of [tuningUrl, `/runs/${forkRun}`]) {
    await page.goto(path);
    await page.waitForLoadState("networkidle");
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(400);
  }
});
