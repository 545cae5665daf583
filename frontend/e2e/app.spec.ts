import { expect, test } from "@playwright/test";
import { shot, waitForRunEnd } from "./helpers";

test.describe.configure({ mode: "serial" });

let sharedScenarioUrl = "";
let sharedRunScenarioName = "";

test("incast preset: run it, progress reaches 100%, queue chart shows data", async ({ page }) => {
  await page.goto("/");
  await expect(page.getByRole("heading", { name: "Presets" })).toBeVisible();
  const card = page.locator('[data-preset="incast-2to1"]');
  await expect(card).toBeVisible();
  await expect(card.locator("canvas")).toBeVisible(); // the thumbnail
  await shot(page, "01-home");
  await card.getByRole("link").click();
  await expect(page.getByRole("img", { name: /Fabric editor canvas: \d+ nodes/ })).toBeVisible();
  await shot(page, "02-editor-incast-preset");
  await page.getByRole("button", { name: "Run", exact: true }).click();
  await expect(page).toHaveURL(/\/runs\//);
  expect(await waitForRunEnd(page)).toBe("SUCCEEDED");
  await expect(page.getByRole("progressbar", { name: "Simulated time" })).toHaveAttribute("aria-valuenow", "100");
  const queueChart = page.getByRole("region", { name: "Queue occupancy (bytes)" });
  await expect(queueChart.locator("path.series-line").first()).toBeVisible();
  const d = await queueChart.locator("path.series-line").first().getAttribute("d");
  expect(d && d.split("L").length).toBeGreaterThan(10);
  await expect(page.locator('[data-metric="Throughput"] dd')).toContainText("Gbit/s");
  await shot(page, "03-incast-results");
});

test("generator: small leaf-spine, change Kmin, run", async ({ page }) => {
  await page.goto("/editor");
  const form = page.getByRole("form", { name: "Topology generator" });
  await form.getByLabel("Generator kind").selectOption("leaf_spine");
  await form.getByLabel("Leaves", { exact: true }).fill("2");
  await form.getByLabel("Spines", { exact: true }).fill("1");
  await form.getByLabel("Hosts per leaf", { exact: true }).fill("2");
  await form.getByRole("button", { name: "Generate" }).click();
  const canvas = page.getByRole("img", { name: "Fabric editor canvas: 7 nodes, 6 links" });
  await expect(canvas).toBeVisible();
  // add a switch on the canvas (converts to an explicit fabric), then undo back to the generator
  const box = (await canvas.boundingBox())!;
  await page.getByRole("button", { name: "Add switch" }).click();
  await page.mouse.click(box.x + 40, box.y + 40);
  await expect(page.getByRole("img", { name: "Fabric editor canvas: 8 nodes, 6 links" })).toBeVisible();
  await expect(page.getByText(/Explicit fabric \(8 nodes\)/)).toBeVisible();
  await page.getByRole("button", { name: "Undo" }).click();
  await expect(canvas).toBeVisible();
  await page.getByRole("button", { name: "Select", exact: true }).click();
  await page.getByLabel("Scenario name").fill("e2e leaf-spine kmin");
  // an invalid value shows the API's 422 message next to the field
  await page.getByLabel("ECN Kmin (bytes)").fill("500000");
  const kminField = page.locator(".field", { has: page.getByLabel("ECN Kmin (bytes)") });
  await expect(kminField.locator(".field-error")).toContainText("must not exceed ECN Kmax (400,000 bytes)");
  await kminField.scrollIntoViewIfNeeded();
  await shot(page, "04a-editor-inline-422");
  await page.getByLabel("ECN Kmin (bytes)").fill("20000");
  await expect(kminField.locator(".field-error")).toHaveCount(0);
  await page.getByLabel("Duration (us)").fill("500");
  // traffic: incast h1,h2 -> h0 (the defaults of a new incast on this fabric)
  await page.getByLabel("Traffic kind").selectOption("incast");
  await page.getByRole("button", { name: "Add traffic" }).click();
  await expect(page.getByRole("group", { name: /incast/ })).toBeVisible();
  await shot(page, "04-editor-generated-leaf-spine");
  await page.getByRole("button", { name: "Run", exact: true }).click();
  await expect(page).toHaveURL(/\/runs\//);
  expect(await waitForRunEnd(page)).toBe("SUCCEEDED");
  await expect(page.getByRole("region", { name: "Queue occupancy (bytes)" })).toBeVisible();
  await shot(page, "05-leaf-spine-results");
  // the run's scenario carries the edited Kmin
  await page.getByRole("link", { name: "e2e leaf-spine kmin" }).click();
  await expect(page.getByTestId("scenario-name")).toHaveText("e2e leaf-spine kmin");
  await page.getByText("Scenario JSON").click();
  await expect(page.locator("pre.json")).toContainText('"kmin_bytes": 20000');
});

test("sweep: 4 points give a 2x2 heatmap", async ({ page }) => {
  await page.goto("/");
  await page.locator('[data-preset="incast-2to1"]').getByRole("link").click();
  await page.getByRole("button", { name: "Sweep…" }).click();
  await expect(page).toHaveURL(/\/sweeps\/new\?scenario=/);
  await page.getByLabel("Parameter 1", { exact: true }).selectOption("switch.ecn.kmin_bytes");
  await page.getByLabel("Parameter 1 values").fill("5000, 50000");
  await page.getByLabel("Parameter 2", { exact: true }).selectOption("switch.ecn.pmax");
  await page.getByLabel("Parameter 2 values").fill("0.01, 0.2");
  await expect(page.getByTestId("sweep-points")).toHaveText("4 points");
  await shot(page, "06-sweep-form");
  await page.getByRole("button", { name: "Start sweep" }).click();
  await expect(page).toHaveURL(/\/sweeps\/(?!new\b)[^/?]+$/);
  await expect(page.getByTestId("sweep-status")).toHaveText("SUCCEEDED", { timeout: 170_000 });
  const cells = page.locator("rect.heatmap-cell");
  await expect(cells).toHaveCount(4);
  const xs = new Set(await cells.evaluateAll((els) => els.map((e) => e.getAttribute("data-x"))));
  const ys = new Set(await cells.evaluateAll((els) => els.map((e) => e.getAttribute("data-y"))));
  expect(xs.size).toBe(2);
  expect(ys.size).toBe(2);
  await cells.first().hover();
  await expect(page.getByRole("tooltip")).toContainText("switch.ecn.kmin_bytes");
  await shot(page, "07-sweep-heatmap");
  // two sweep points compared (issue 11: a comparison is reachable from a sweep point)
  const picker = page.getByRole("region", { name: "Compare sweep points" });
  const boxes = picker.getByRole("checkbox");
  await expect(boxes).toHaveCount(4);
  await boxes.nth(0).check();
  await boxes.nth(3).check();
  await picker.getByTestId("compare-selected").click();
  await expect(page).toHaveURL(/\/compare\?runs=[^,]+,[^,]+$/);
  await expect(page.getByTestId("compare-table").locator('tr[data-metric="max_queue"] td')).toHaveCount(2);
  await expect(page.getByTestId("scenario-diff")).toContainText("switch.ecn");
});

test("share: the link opens the same scenario and results in a fresh context", async ({ page, browser, baseURL }) => {
  await page.goto("/");
  await page.locator('[data-preset="incast-2to1"]').getByRole("link").click();
  // wait for the preset to load into the editor before editing it
  await expect(page.getByLabel("Scenario name")).toHaveValue(/incast/i);
  await page.getByLabel("Scenario name").fill("e2e shared incast");
  await page.getByRole("button", { name: "Run", exact: true }).click();
  await expect(page).toHaveURL(/\/runs\//);
  expect(await waitForRunEnd(page)).toBe("SUCCEEDED");
  await page.getByRole("link", { name: "Edit scenario" }).click();
  await page.getByRole("button", { name: "Share" }).click();
  const link = page.getByTestId("share-link");
  await expect(link).toBeVisible();
  sharedScenarioUrl = (await link.getAttribute("href"))!;
  sharedRunScenarioName = "e2e shared incast";
  expect(sharedScenarioUrl).toMatch(/\/s\/[A-Za-z0-9_-]+$/);
  await shot(page, "08-share-button");

  const fresh = await browser.newContext({ baseURL, viewport: { width: 1280, height: 800 } });
  const other = await fresh.newPage();
  await other.goto(new URL(sharedScenarioUrl).pathname);
  await expect(other.getByTestId("scenario-name")).toHaveText(sharedRunScenarioName);
  await expect(other.getByText("read-only")).toBeVisible();
  await expect(other.getByRole("link", { name: "Fork to edit" })).toBeVisible();
  await expect(other.getByRole("region", { name: "Queue occupancy (bytes)" }).locator("path.series-line").first()).toBeVisible();
  await shot(other, "09-shared-view");
  await fresh.close();
});
