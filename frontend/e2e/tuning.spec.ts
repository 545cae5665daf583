import { expect, test } from "@playwright/test";
import { shot } from "./helpers";

test("create a tuning from the incast preset, watch it finish, read the table, pick on the heatmap, apply it", async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  const preset = await (await page.request.get("/api/v1/presets/incast-2to1")).json();
  await page.goto(`/tunings/new?scenario=${preset.scenario_id}`);
  await expect(page.getByTestId("tuning-points")).toHaveText("6 points");
  // a range with a zero step says why it gives no values
  const values = page.getByLabel("Parameter 1 values");
  await values.fill("0:5000:0");
  await expect(page.getByText(/step must be > 0/)).toBeVisible();
  await expect(page.getByRole("button", { name: "Start tuning" })).toBeDisabled();
  await values.fill("0, 2500, 5000");
  await page.getByRole("button", { name: "Start tuning" }).click();

  await page.waitForURL(/\/tunings\/[^/]+$/);
  await expect(page.getByTestId("tuning-status")).toHaveText("SUCCEEDED", { timeout: 150_000 });
  const table = page.getByRole("table", { name: "Comparison of the strategies' picks" });
  for (const name of ["vendor", "experience", "grid", "random", "annealing"]) {
    await expect(table.locator(`tr[data-strategy="${name}"]`)).toBeVisible();
  }
  // every pick has a throughput with a value (a number, not a dash)
  const throughput = await table.locator(`tr[data-strategy="grid"] td`).nth(4).textContent();
  expect(Number.parseFloat(throughput ?? "")).toBeGreaterThan(0);
  await expect(page.locator(".best-so-far path[data-strategy]")).toHaveCount(5);

  const mark = page.locator('.heatmap-mark[data-strategy="annealing"]');
  await expect(mark).toBeVisible();
  await shot(page, "tuning-page");
  await mark.click();
  await expect(page.getByRole("heading", { name: "Selected: annealing's pick" })).toBeVisible();
  await page.getByRole("button", { name: "Apply this pick" }).click();
  await page.waitForURL(/\/s\/[^/]+$/);
  await expect(page.getByText(/annealing pick/).first()).toBeVisible();
});
