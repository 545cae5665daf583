// A student opens lab 1, follows its steps, and the checklist ticks itself.
import { expect, test } from "@playwright/test";
import { shot, waitForRunEnd } from "./helpers";

test("a student follows lab 1: the checklist ticks, the prediction sits beside the result", async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto("/labs");
  const card = page.locator('[data-lab="lab1-ecn-incast"]');
  await expect(card).toContainText("Lab 1: ECN thresholds and the 2-to-1 incast");
  await card.getByRole("button", { name: "Start lab" }).click();

  // the editor opens the preset, the dock ticks "open" by itself
  await expect(page).toHaveURL(/\/editor\?preset=incast-2to1/);
  const dock = page.getByRole("complementary", { name: "Lab" });
  await expect(dock.getByRole("heading", { name: /Lab 1: ECN thresholds/ })).toBeVisible();
  const step = (name: RegExp) => dock.getByRole("checkbox", { name });
  await expect(step(/Open the 2-to-1 incast preset/)).toBeChecked();
  await expect(dock.getByTestId("lab-progress")).toHaveText("1 of 7 done");

  // predict before running
  await expect(step(/Predict before you run/)).not.toBeChecked();
  // the answer shows only once the student has predicted (issue 22 §3)
  const goodput = dock.locator("form.prediction", { has: page.getByLabel(/What goodput will h0 receive/) });
  await expect(dock.getByTestId("answer-goodput")).toHaveCount(0);
  await expect(dock.getByText(/About 20.94 Gbit\/s/)).toHaveCount(0);
  await goodput.getByLabel(/What goodput will h0 receive/).fill("22");
  await goodput.getByRole("button", { name: "Save" }).click();
  await expect(step(/Predict before you run/)).toBeChecked();
  await expect(dock.getByTestId("prediction-goodput")).toContainText("You predicted 22 Gbit/s; run the preset as it is to compare.");
  await expect(dock.getByTestId("answer-goodput")).toContainText("Answer: About 20.94 Gbit/s");
  await shot(page, "lab-editor");

  // run the preset: the run-finished step ticks and the result sits beside the prediction
  await page.getByRole("button", { name: "Run", exact: true }).click();
  await expect(page).toHaveURL(/\/runs\//);
  expect(await waitForRunEnd(page)).toBe("SUCCEEDED");
  await expect(step(/Run the preset as it is/)).toBeChecked();
  await expect(dock.getByTestId("prediction-goodput")).toContainText(/You predicted 22 Gbit\/s; the run of the preset as it is gave \d+(\.\d+)? Gbit\/s/);
  await expect(dock.getByTestId("lab-progress")).toHaveText("3 of 7 done");
  await shot(page, "lab-results");

  // change Kmax in the editor: the parameter step ticks (no run needed)
  await page.getByRole("link", { name: "Edit scenario" }).click();
  await expect(page.getByLabel("ECN Kmax (bytes)")).toHaveValue("5500");
  await page.getByLabel("ECN Kmax (bytes)").fill("200000");
  await expect(step(/Set switch.ecn.kmax_bytes/)).toBeChecked();
  await expect(dock.getByTestId("lab-progress")).toHaveText("4 of 7 done");

  // instructor notes stay hidden until asked for
  await expect(dock.getByText(/3.1 KB per us/)).toHaveCount(0);
  await dock.getByLabel("Show instructor notes").check();
  await expect(dock.getByText(/3.1 KB per us/)).toBeVisible();

  // progress survives a reload (local storage)
  page.on("dialog", (d) => void d.accept());
  await page.reload();
  await expect(page.getByRole("complementary", { name: "Lab" }).getByTestId("lab-progress")).toHaveText("4 of 7 done");
});
