import { expect, test } from "@playwright/test";
import { shot, waitForRunEnd } from "./helpers";

test.describe.configure({ mode: "serial" });

// A k=4 fat tree (16 hosts, 20 switches) with a long-lived permutation at line rate for 1 s of simulated
// time: minutes of wall time on any machine (about 2 simulated ms per wall second on the dev machine), so the
// cancel below never races the run's end, however fast the machine.
test("cancel: a long fat-tree permutation run ends CANCELLED", async ({ page }) => {
  await page.goto("/editor");
  const form = page.getByRole("form", { name: "Topology generator" });
  await form.getByLabel("Generator kind").selectOption("fat_tree");
  await form.getByLabel("k (even)").fill("4");
  await form.getByRole("button", { name: "Generate" }).click();
  await expect(page.getByRole("img", { name: /Fabric editor canvas: 36 nodes, 48 links/ })).toBeVisible();
  await page.getByLabel("Scenario name").fill("e2e cancel fat-tree permutation");
  await page.getByLabel("Duration (us)").fill("1000000");
  await page.getByLabel("Traffic kind").selectOption("permutation");
  await page.getByRole("button", { name: "Add traffic" }).click();
  const traffic = page.getByRole("group", { name: /permutation/ });
  await expect(traffic).toBeVisible();
  await traffic.getByLabel(/^Size/).fill("0"); // long-lived: the flows send until the end
  await page.getByRole("button", { name: "Run", exact: true }).click();
  await expect(page).toHaveURL(/\/runs\//);
  const status = page.getByTestId("run-status");
  await expect(status).toHaveText("RUNNING", { timeout: 60_000 });
  // wait for the first progress report so the simulator is really under way
  await expect(page.getByRole("progressbar", { name: "Simulated time" })).not.toHaveAttribute("aria-valuenow", "0", { timeout: 30_000 });
  await shot(page, "20-run-in-progress");
  await page.getByRole("button", { name: "Cancel run" }).click();
  expect(await waitForRunEnd(page, 30_000)).toBe("CANCELLED");
  await expect(page.getByRole("button", { name: "Cancel run" })).toHaveCount(0);
  const pct = Number(await page.getByRole("progressbar", { name: "Simulated time" }).getAttribute("aria-valuenow"));
  expect(pct).toBeLessThan(100);
  await expect(page.getByText(/cancelled at/i)).toBeVisible();
  await shot(page, "21-run-cancelled");
});

test("many flows: fat-tree WebSearch results show the CDF and real summary values", async ({ page }) => {
  await page.goto("/");
  await page.locator('[data-preset="fat-tree-k4-websearch"]').getByRole("link").click();
  await expect(page.getByLabel("Scenario name")).toHaveValue(/WebSearch/);
  await page.getByRole("button", { name: "Run", exact: true }).click();
  await expect(page).toHaveURL(/\/runs\//);
  expect(await waitForRunEnd(page)).toBe("SUCCEEDED");
  for (const metric of ["Throughput", "FCT p50", "FCT p99", "Slowdown p99", "Max queue", "ECN marks", "PFC pauses", "Drops", "Flows completed"]) {
    const value = page.locator(`[data-metric="${metric}"] dd`);
    await expect(value, metric).toHaveText(/\d/);
  }
  // under the default nvidia-default preset the WebSearch tail is about a millisecond
  await expect(page.locator('[data-metric="FCT p99"] dd')).toHaveText(/\d (us|ms)\b/);
  await expect(page.locator('[data-metric="Flows completed"] dd')).toHaveText(/^\d+ \/ \d+$/);
  const cdf = page.getByRole("region", { name: /CDF by flow size/ });
  const lines = cdf.locator("path.series-line");
  expect(await lines.count()).toBeGreaterThanOrEqual(2);
  await expect(cdf.getByText(/\(\d+ flows\)/).first()).toBeVisible();
  await cdf.scrollIntoViewIfNeeded();
  await shot(page, "22-websearch-results");
  await cdf.getByLabel("CDF metric").selectOption("slowdown");
  await expect(page.getByRole("img", { name: "Slowdown CDF by flow size" })).toBeVisible();
  const overlay = page.getByRole("region", { name: "Fabric overlay" });
  await overlay.scrollIntoViewIfNeeded();
  await expect(overlay.getByRole("img", { name: /^Legend: Link utilization/ })).toBeVisible();
  await shot(page, "23-websearch-slowdown-overlay");
  // per-link ECN marks and pauses received (summary.link_utilization) colour the fabric
  const picker = overlay.getByLabel("Colour links by");
  await picker.selectOption("ecn");
  await expect(overlay.getByRole("img", { name: /^Legend: ECN-marked packets, both directions \(packets\) from 0 to [1-9]/ })).toBeVisible();
  await overlay.getByText(/^Top \d links:/).click();
  await expect(overlay.locator(".overlay-top li").first()).toHaveText(/ – .*: [\d,.]+k?$/);
  await overlay.scrollIntoViewIfNeeded();
  await shot(page, "24-websearch-overlay-ecn");
  await picker.selectOption("pauses_received");
  await expect(overlay.getByRole("img", { name: /^Legend: PFC pause frames received/ })).toBeVisible();
});
