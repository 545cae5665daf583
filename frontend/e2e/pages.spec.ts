import { type APIRequestContext, type Page, expect, test } from "@playwright/test";
import { shot, waitForRunEnd } from "./helpers";

test.describe.configure({ mode: "serial" });

const API = "/api/v1";
const ids = { incast: "", websearch: "", incastRun: "", websearchRun: "", sweep: "" };

async function presetScenario(request: APIRequestContext, key: string) {
  return ((await (await request.get(`${API}/presets/${key}`)).json()) as { scenario_id: string }).scenario_id;
}

async function succeededRun(request: APIRequestContext, scenarioId: string) {
  const created = await (await request.post(`${API}/runs`, { data: { scenario_id: scenarioId, seeds: [1] } })).json();
  const id = created.data[0].id as string;
  await expect.poll(async () => (await (await request.get(`${API}/runs/${id}`)).json()).status, { timeout: 150_000 }).toBe("SUCCEEDED");
  return id;
}

test.beforeAll(async ({ request }) => {
  test.setTimeout(300_000);
  ids.incast = await presetScenario(request, "incast-2to1");
  ids.websearch = await presetScenario(request, "fat-tree-k4-websearch");
  ids.incastRun = await succeededRun(request, ids.incast);
  ids.websearchRun = await succeededRun(request, ids.websearch);
  const response = await request.post(`${API}/sweeps`, {
    data: {
      scenario_id: ids.incast, seed: 1,
      parameters: [{ path: "switch.ecn.kmin_bytes", values: [1000, 5000] }, { path: "switch.ecn.pmax", values: [0.01, 0.2] }],
    },
  });
  expect(response.status(), await response.text()).toBe(201);
  ids.sweep = (await response.json()).id;
  await expect.poll(async () => (await (await request.get(`${API}/sweeps/${ids.sweep}`)).json()).status, { timeout: 200_000 }).toBe("SUCCEEDED");
});

/** Fails when the page is wider than the viewport (horizontal overflow). */
async function noHorizontalOverflow(page: Page) {
  const [scroll, client] = await page.evaluate(() => [document.documentElement.scrollWidth, document.documentElement.clientWidth]);
  expect(scroll, "page scrolls sideways").toBeLessThanOrEqual(client + 1);
}

for (const [w, h] of [[1280, 800], [1920, 1080]] as const) {
  test(`every page at ${w}x${h}`, async ({ page }) => {
    test.setTimeout(240_000);
    await page.setViewportSize({ width: w, height: h });
    const tag = `${w}x${h}`;
    const visit = async (path: string, name: string, ready: () => Promise<void>) => {
      await page.goto(path);
      await ready();
      await noHorizontalOverflow(page);
      await shot(page, `page-${tag}-${name}`);
    };
    await visit("/", "home", async () => {
      await expect(page.locator('[data-preset="incast-2to1"] canvas')).toBeVisible();
      await expect(page.getByRole("heading", { name: "My scenarios" })).toBeVisible();
      // the sweep's per-point snapshots ("<base> [kmin_bytes=1000, pmax=0.01]") and presets stay off the list
      await expect(page.locator("ul.recent").getByText(/\[kmin_bytes=/)).toHaveCount(0);
      await expect(page.locator("ul.recent").getByText("2-to-1 incast (ByteTuning testbed)", { exact: true })).toHaveCount(0);
    });
    await visit("/editor", "editor-new", async () => {
      await expect(page.getByRole("img", { name: /Fabric editor canvas/ })).toBeVisible();
    });
    await visit(`/editor?from=${ids.websearch}`, "editor-fat-tree", async () => {
      await expect(page.getByRole("img", { name: /Fabric editor canvas: 36 nodes/ })).toBeVisible();
    });
    await visit(`/runs/${ids.incastRun}`, "run-incast", async () => {
      await expect(page.getByRole("region", { name: "Queue occupancy (bytes)" }).locator("path.series-line").first()).toBeVisible();
    });
    await visit(`/runs/${ids.websearchRun}`, "run-websearch", async () => {
      await expect(page.getByRole("region", { name: /CDF by flow size/ }).locator("path.series-line").first()).toBeVisible();
      await expect(page.getByRole("region", { name: "Fabric overlay" }).getByRole("img", { name: /^Legend:/ })).toBeVisible();
    });
    await visit(`/sweeps/new?scenario=${ids.incast}`, "sweep-new", async () => {
      await expect(page.getByLabel("Parameter 1", { exact: true })).toBeVisible();
    });
    await visit(`/sweeps/${ids.sweep}`, "sweep-heatmap", async () => {
      await expect(page.locator("rect.heatmap-cell")).toHaveCount(4);
    });
    await visit(`/s/${ids.incast}`, "share", async () => {
      await expect(page.getByTestId("scenario-name")).toBeVisible();
    });
    await visit("/runs/doesnotexist", "run-404", async () => {
      await expect(page.getByRole("alert")).toContainText(/not found/i);
    });
    await visit("/no/such/page", "not-found", async () => {
      await expect(page.getByText("Page not found.")).toBeVisible();
    });
  });
}

test("keyboard: New fabric, a preset card and Run work without a mouse", async ({ page }) => {
  await page.goto("/");
  await expect(page.locator('[data-preset="incast-2to1"]')).toBeVisible();
  // Tab from the top: skip link, brand, Home, Editor, then the hero's New fabric
  let reached = false;
  for (let i = 0; i < 8 && !reached; i += 1) {
    await page.keyboard.press("Tab");
    reached = (await page.evaluate(() => document.activeElement?.textContent?.trim())) === "New fabric";
  }
  expect(reached, "New fabric reached with Tab").toBe(true);
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/editor$/);
  // every preset card link is focusable and opens the editor with Enter
  await page.goto("/");
  await page.locator('[data-preset="incast-2to1"]').getByRole("link").focus();
  await page.keyboard.press("Enter");
  await expect(page.getByLabel("Scenario name")).toHaveValue(/incast/i);
  // the seeds field submits the run with Enter, once the scenario has validated (Run is
  // disabled while validation is pending)
  await expect(page.getByRole("button", { name: "Run", exact: true })).toBeEnabled();
  await page.getByLabel("Seeds (e.g. 1, 2, 5-7)").focus();
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/runs\//);
  expect(await waitForRunEnd(page)).toBe("SUCCEEDED");
  await expect(page.locator('[data-metric="Throughput"] dd')).toContainText("Gbit/s");
  await shot(page, "25-keyboard-run");
});
