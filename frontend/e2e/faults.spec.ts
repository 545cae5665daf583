// Issue 9 in the browser: the pause-storm presets (victims' throughput with and without the
// watchdogs), the Pingmesh matrix, and the configuration check in the editor before a run.
import { type APIRequestContext, type Page, expect, test } from "@playwright/test";
import { shot } from "./helpers";

test.use({ viewport: { width: 1440, height: 900 } });
const API = "/api/v1";

async function runPreset(request: APIRequestContext, key: string) {
  const preset = await (await request.get(`${API}/presets/${key}`)).json();
  const created = await (await request.post(`${API}/runs`, { data: { scenario_id: preset.scenario_id, seeds: [1] } })).json();
  const id = created.data[0].id as string;
  await expect.poll(async () => (await (await request.get(`${API}/runs/${id}`)).json()).status, { timeout: 240_000 }).toBe("SUCCEEDED");
  return id;
}

/** Goodput (Gbit/s) of the flow src->dst, read from the flows table as a user reads it. */
async function goodput(page: Page, pair: string) {
  const table = page.getByRole("region", { name: "Flows" });
  await table.getByRole("searchbox").fill(pair);
  const row = table.getByRole("row").filter({ hasText: pair });
  await expect(row).toHaveCount(1);
  const text = (await row.getByRole("cell").filter({ hasText: "Gbit/s" }).textContent()) ?? "";
  return Number(text.replace(/[^\d.]/g, ""));
}

/** Watchdog triggers as the Faults panel prints them. */
async function triggers(page: Page) {
  const panel = page.getByRole("region", { name: "Faults and deadlocks" });
  await expect(panel).toBeVisible();
  const text = (await panel.textContent()) ?? "";
  const sw = Number(/Switch watchdog triggers:\s*(\d+)/.exec(text)?.[1]);
  const nic = Number(/NIC watchdog triggers:\s*(\d+)/.exec(text)?.[1]);
  return { sw, nic, text };
}

test("PFC storm: victims stop without watchdogs and keep most of their throughput with them", async ({ page, request }) => {
  test.setTimeout(420_000);
  const plain = await runPreset(request, "msft-pfc-storm");
  const guarded = await runPreset(request, "msft-pfc-storm-watchdogs");

  await page.goto(`/runs/${plain}`);
  const before = await triggers(page);
  expect(before.sw).toBe(0);
  expect(before.nic).toBe(0);
  expect(before.text).toContain("No PFC deadlock");
  const victimsPlain = [await goodput(page, "h0->h4"), await goodput(page, "h1->h5"), await goodput(page, "h2->h6")];
  await shot(page, "faults-storm-no-watchdog");

  await page.goto(`/runs/${guarded}`);
  const after = await triggers(page);
  expect(after.sw).toBeGreaterThanOrEqual(1);
  expect(after.nic).toBeGreaterThanOrEqual(1);
  // the events table lists the watchdogs with where they fired
  const events = page.getByRole("region", { name: "Faults and deadlocks" }).getByRole("table");
  await expect(events).toContainText("switch_watchdog");
  await expect(events).toContainText("nic_watchdog");
  const victimsGuarded = [await goodput(page, "h0->h4"), await goodput(page, "h1->h5"), await goodput(page, "h2->h6")];
  await shot(page, "faults-storm-watchdogs");

  // A victim never touches h7. Stopped at ~300 us of 2,000 us without watchdogs it averages
  // below a third of line rate; with both watchdogs it is stopped for ~150 us at most, so it
  // keeps more than 3/4 of the 92.4 Gbit/s it gets without the fault (preset description).
  for (let i = 0; i < 3; i += 1) {
    expect(victimsPlain[i]).toBeLessThan(92.4 / 3);
    expect(victimsGuarded[i]).toBeGreaterThan(0.75 * 92.4);
  }
});

test("Pingmesh: the ToR matrix and the RTT percentiles idle vs under load", async ({ page, request }) => {
  test.setTimeout(420_000);
  const id = await runPreset(request, "msft-pingmesh");
  await page.goto(`/runs/${id}`);
  const panel = page.getByRole("region", { name: "Pingmesh" });
  await expect(panel).toBeVisible();
  const matrix = panel.getByRole("table", { name: "p99 RTT by source and destination ToR" });
  await expect(matrix.getByRole("columnheader")).toHaveCount(3); // corner + leaf0 + leaf1
  const cell = Number(((await panel.getByTestId("pm-leaf0-leaf1").textContent()) ?? "").replace(/,/g, ""));
  expect(cell).toBeGreaterThan(0);
  const perc = panel.getByRole("table", { name: "RTT percentiles" });
  const p99 = async (name: string) => Number(((await perc.getByRole("row").filter({ hasText: name }).first().getByRole("cell").nth(2).textContent()) ?? "").replace(/,/g, ""));
  const idle = await p99("idle");
  const loaded = await p99("under load");
  // Guo et al. 2016, Figure 8: p99 RTT rises several-fold under the ToR-to-ToR load
  expect(idle).toBeGreaterThan(0);
  expect(loaded).toBeGreaterThan(3 * idle);
  // both directions between the two ToRs and within each ToR were probed
  for (const id of ["pm-leaf0-leaf0", "pm-leaf1-leaf0", "pm-leaf1-leaf1"]) {
    expect(Number(((await panel.getByTestId(id).textContent()) ?? "").replace(/,/g, ""))).toBeGreaterThan(0);
  }
  await panel.scrollIntoViewIfNeeded();
  await shot(page, "faults-pingmesh");
});

test("configuration check: a too-small headroom shows a finding that points at its ports", async ({ page }) => {
  await page.goto("/editor");
  await expect(page.getByRole("img", { name: /Fabric editor canvas/ })).toBeVisible();
  const check = page.getByTestId("config-check");
  await expect(check.getByTestId("config-check-summary")).toBeVisible();
  await expect(check.getByRole("listitem").filter({ hasText: "PFC headroom below" })).toHaveCount(0);

  await page.getByLabel("PFC headroom (bytes)").fill("20000");
  const finding = check.getByRole("listitem").filter({ hasText: "PFC headroom below what the cable needs" }).first();
  await expect(finding).toBeVisible();
  await expect(check.locator("summary")).toContainText(/\d+ errors?/);
  await expect(finding).toContainText("headroom bytes 20,000");
  await expect(finding).toContainText("Fix: set switch.pfc.headroom_bytes to at least");
  // one item for every port the fabric-wide value is short at, naming them all
  const where = ((await finding.locator(".finding-where").textContent()) ?? "").trim();
  expect(where).toContain("h0->leaf0");
  expect(where).toMatch(/spine\d->leaf\d/);
  await shot(page, "editor-config-check");

  // clicking the finding selects the switches whose ports are short of headroom
  await finding.getByRole("button").click();
  const selection = page.getByRole("complementary", { name: "Selection and traffic" });
  await expect(selection.getByRole("heading", { level: 4 })).toHaveText("4 switches");
  // the fix the finding names clears it
  await page.getByRole("complementary", { name: "Fabric" }).getByLabel("PFC headroom (bytes)").fill("auto");
  await expect(check.getByRole("listitem").filter({ hasText: "PFC headroom below" })).toHaveCount(0);
  await expect(check.getByTestId("config-check-summary")).toHaveText("no findings");
});
