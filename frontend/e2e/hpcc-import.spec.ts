// Issue 22 §4: "the HPCC flow file import exists in the API but not in the UI". A CSV of flows
// imported over the editor's fabric replaces its traffic; a bad line is refused with its line.
import { expect, test } from "@playwright/test";
import { shot } from "./helpers";

test("import a CSV of flows over this fabric from the editor", async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto("/editor");
  await expect(page.getByRole("img", { name: /Fabric editor canvas/ })).toBeVisible();
  await page.getByText("Import / export").click();
  const form = page.locator("fieldset.hpcc-import");
  await expect(form.getByRole("button", { name: "Import flows" })).toBeDisabled();

  await form.getByLabel("HPCC flow file or CSV of flows").setInputFiles({ name: "bad.csv", mimeType: "text/csv", buffer: Buffer.from("h0,h3,12x,0\n") });
  await form.getByRole("button", { name: "Import flows" }).click();
  await expect(form.getByRole("alert")).toContainText("line 1");

  await form.getByLabel("HPCC flow file or CSV of flows").setInputFiles({
    name: "flows.csv", mimeType: "text/csv", buffer: Buffer.from("h0,h3,100000,0\nh1,h2,50000,10\nh2,h0,20000,20\n"),
  });
  await expect(page.getByTestId("hpcc-import-plan")).toContainText("Flows from flows.csv over this fabric");
  await form.getByRole("button", { name: "Import flows" }).click();
  await expect(form.getByRole("status")).toContainText("Imported.");
  await expect(page.getByText("3 flows listed (imported; edit the file to change them)")).toBeVisible();
  await expect(page.getByTestId("fabric-stats")).toContainText("4 hosts");
  await expect(page.locator(".page-bar .badge")).toHaveText("edited");
  await shot(page, "editor-hpcc-import");
});
