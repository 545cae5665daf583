// Issue 38: the twin meets the real fabric. An NCCL-tests output imported into a scenario from
// the editor, the matching sweep run through the real backend and workers, and the measured
// against simulated chart read in Chromium; SONiC and NIC settings imported with their field
// report, and the scenario's settings exported.
import { expect, test } from "@playwright/test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { holdOwnerToken, newOwnerToken, shot } from "./helpers";

const API = "/api/v1";
const DATA = join(process.cwd(), "..", "backend", "tests", "data", "fabric");
const EIGHT_RANKS = {
  schema_version: 1, name: "e2e 8-rank all-reduce", duration_us: 200,
  topology: { kind: "leaf_spine", leaves: 2, spines: 2, hosts_per_leaf: 4, host_rate_gbps: 100, fabric_rate_gbps: 100, link_delay_us: 1 },
  traffic: [{ kind: "collective", name: "ar", op: "all_reduce", algorithm: "ring", hosts: ["h0", "h1", "h2", "h3", "h4", "h5", "h6", "h7"], message_bytes: 65536 }],
};

async function ownScenario(page: import("@playwright/test").Page, request: import("@playwright/test").APIRequestContext) {
  const token = newOwnerToken();
  await holdOwnerToken(page, token);
  const created = await request.post(`${API}/scenarios`, { data: { scenario: EIGHT_RANKS }, headers: { "X-Owner-Token": token } });
  expect(created.status()).toBe(201);
  return (await created.json()).id as string;
}

test("an NCCL-tests output against its matching sweep", async ({ page, request }) => {
  test.setTimeout(300_000);
  await page.setViewportSize({ width: 1440, height: 900 });
  const id = await ownScenario(page, request);
  await page.goto(`/editor?from=${id}`);
  await expect(page.getByRole("img", { name: /Fabric editor canvas/ })).toBeVisible();
  await page.getByText("Real fabric").click();
  const form = page.locator("fieldset.measurement-import");
  await form.getByLabel("NCCL-tests or perftest output").setInputFiles({
    name: "all_reduce_8ranks.txt", mimeType: "text/plain",
    buffer: readFileSync(join(DATA, "nccl-tests", "small_allreduce_8ranks.txt")),
  });
  await expect(page.getByTestId("measurement-import-plan")).toContainText("all_reduce_8ranks.txt as NCCL-tests output");
  await form.getByRole("button", { name: "Import measurement" }).click();
  await expect(page).toHaveURL(/\/measurements\/[A-Za-z0-9_-]+$/);
  await expect(page.getByTestId("measurement-facts")).toContainText("all_reduce_perf: 8 ranks on 8 hosts");
  await expect(page.getByTestId("comparison-table").locator("tbody tr")).toHaveCount(4);

  await page.getByRole("button", { name: "Run the matching simulation" }).click();
  await expect(page.getByTestId("simulation-status")).toHaveText("SUCCEEDED", { timeout: 240_000 });
  const chart = page.getByRole("img", { name: "bus bandwidth against message size, measured and simulated, log-log" });
  await expect(chart).toBeVisible();
  await expect(chart.locator("[data-size]")).toHaveCount(4);
  await expect(chart.locator("rect")).toHaveCount(4);            // every size simulated
  await expect(chart.locator('[data-size="16384"]')).toHaveAttribute("data-differs", "true");
  await expect(chart.locator(".differs-mark").first()).toBeVisible();
  const first = page.getByTestId("comparison-table").locator("tbody tr").first();
  await expect(first).toHaveAttribute("data-differs", "true");
  await expect(first).toContainText("small_message");
  await expect(page.getByRole("definition").first()).toBeVisible();
  // the page's numbers are the API's
  const mid = page.url().split("/").pop();
  const c = await (await request.get(`${API}/measurements/${mid}/comparison`)).json();
  expect(c.points.map((p: { size_bytes: number }) => p.size_bytes)).toEqual([16384, 65536, 262144, 1048576]);
  for (const p of c.points) expect(p.simulated).toBeGreaterThan(0);
  await shot(page, "measurement-1440");
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(chart).toBeVisible();
  await shot(page, "measurement-390");
});

test("SONiC and NIC settings in with their report, and out", async ({ page, request }) => {
  test.setTimeout(180_000);
  await page.setViewportSize({ width: 1440, height: 900 });
  const id = await ownScenario(page, request);
  await page.goto(`/editor?from=${id}`);
  await page.getByText("Real fabric").click();
  const form = page.locator("fieldset.settings-import");
  await form.getByLabel("SONiC config_db.json files").setInputFiles({
    name: "tor1.config_db.json", mimeType: "application/json", buffer: readFileSync(join(DATA, "sonic", "tor1.config_db.json")),
  });
  await form.getByLabel("ConnectX sysfs dump").setInputFiles({
    name: "eth2.txt", mimeType: "text/plain", buffer: readFileSync(join(DATA, "nic-sysfs", "cx6dx_eth2_defaults.txt")),
  });
  await form.getByRole("button", { name: "Preview the import" }).click();
  const report = page.getByTestId("import-report");
  await expect(report.locator('tr[data-status="mapped"]').filter({ hasText: "switch.pfc.alpha_by_rate" })).toBeVisible();
  await expect(report.locator("tr").filter({ hasText: "alpha = 2^dynamic_th = 2^-3" })).toBeVisible();
  await expect(report.locator('tr[data-status="ignored"]').filter({ hasText: "LOOPBACK_INTERFACE" })).toBeVisible();
  await shot(page, "settings-import-1440");
  await page.setViewportSize({ width: 390, height: 844 });
  await shot(page, "settings-import-390");
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.getByRole("dialog", { name: "Import report" }).getByRole("button", { name: "Apply to the editor" }).click();
  await expect(page.getByRole("dialog")).toHaveCount(0);
  await expect(page.locator(".page-bar .badge")).toHaveText("edited");

  const exporter = page.getByRole("region", { name: "Export settings" });
  await exporter.getByRole("button", { name: "NIC sysfs" }).click();
  await expect(page.getByTestId("export-content")).toContainText("echo 1019 > $RP/dce_tcp_g");
  await exporter.getByRole("button", { name: "SONiC config_db" }).click();
  await expect(page.getByTestId("export-content")).toContainText('"dynamic_th": "-3"');
  await expect(page.getByTestId("export-content")).toContainText('"FABRICTWIN_EXPORT"');
  await shot(page, "settings-export-1440");
});
