// Issue 22 §4, the editor's messages as a user meets them (real backend): the seeds box says
// what is wrong, a too-long name is reported at the field and its title wraps, Kmin out of range
// names the 1 GB limit (not only "must not exceed ECN Kmax"), "Draw link" leaves the canvas where
// it was, and the browser's back button asks before it drops unsaved edits.
import { expect, test } from "@playwright/test";
import { shot } from "./helpers";

test("seeds, name, long title and Kmin messages name the field and the allowed range", async ({ page }) => {
  for (const viewport of [{ width: 1440, height: 900 }, { width: 390, height: 844 }]) {
    await page.setViewportSize(viewport);
    await page.goto("/editor");
    await expect(page.getByRole("img", { name: /Fabric editor canvas/ })).toBeVisible();

    const seeds = page.getByRole("textbox", { name: /Seeds/ });
    await seeds.fill("1-100");
    await expect(page.getByRole("button", { name: "Run", exact: true })).toBeDisabled();
    await expect(page.locator(".seeds-error")).toHaveText("Seeds: 1-100 is 100 seeds; one run request takes at most 64");
    await seeds.fill("abc");
    await expect(page.locator(".seeds-error")).toContainText("use whole numbers and ranges, e.g. 1, 2, 5-7 (at most 64 seeds)");
    await seeds.fill("1");

    const name = page.getByLabel("Scenario name");
    await name.fill("A very long scenario name ".repeat(7) + "x".repeat(40)); // 222 characters
    const nameField = page.locator("label.field", { has: name });
    await expect(nameField.locator(".field-error")).toHaveText("Name must be at most 200 characters");
    const title = page.locator(".page-bar h1");
    const box = (await title.boundingBox())!;
    expect(box.x + box.width).toBeLessThanOrEqual(viewport.width);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);
    await name.fill("Short");

    const kmin = page.getByLabel("ECN Kmin (bytes)");
    const kminField = page.locator(".field", { has: kmin });
    await kmin.fill("99999999999999");
    await expect(kminField.locator(".field-error")).toHaveText("ECN Kmin must be at most 1,000,000,000 bytes (allowed: 0 to 1,000,000,000 bytes)");
    await kmin.fill("-5");
    await expect(kminField.locator(".field-error")).toHaveText("ECN Kmin must be at least 0 bytes (allowed: 0 to 1,000,000,000 bytes)");
    await expect(kminField.locator(".hint")).toHaveCount(0); // no "-0 cells, -0.005 KB"
    await shot(page, `editor-messages-${viewport.width}`);
  }
});

test("Draw link does not move the canvas", async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto("/editor");
  const canvas = page.getByRole("img", { name: /Fabric editor canvas/ });
  await expect(canvas).toBeVisible();
  const before = (await canvas.boundingBox())!;
  await page.getByRole("button", { name: "Draw link" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Click the first node of the link" })).toBeVisible();
  expect((await canvas.boundingBox())!.y).toBe(before.y);
});

test("the back button asks before it drops unsaved edits", async ({ page }) => {
  await page.goto("/");
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Editor" }).click();
  await expect(page.getByRole("img", { name: /Fabric editor canvas/ })).toBeVisible();
  await page.getByLabel("ECN Kmin (bytes)").fill("1000");
  await expect(page.locator(".page-bar .badge")).toHaveText("edited");
  const asked: string[] = [];
  page.once("dialog", (d) => { asked.push(d.message()); void d.dismiss(); });
  await page.goBack();
  await expect.poll(() => asked).toEqual(["This fabric has unsaved changes. Leave the editor and lose them?"]);
  await expect(page).toHaveURL(/\/editor$/);
  await expect(page.getByLabel("ECN Kmin (bytes)")).toHaveValue("1000");
  page.once("dialog", (d) => void d.accept());
  await page.goBack();
  await expect(page).toHaveURL(/\/$/);
});
