// Issue 23, optional sign-in end to end: an API that requires sign-in (OIDC_ISSUER) against the
// local OpenID Connect provider stand-in (backend/tests/oidc_provider.py, on loopback), both
// started by scripts/test.sh, which passes this API's address in E2E_OIDC_BASE_URL. Signed out the
// header offers "Sign in"; through the provider's page the header then shows the account's name,
// and a run the account started shows under "mine" in a browser that never started it.
import { type Browser, type Page, expect, test } from "@playwright/test";
import { randomBytes } from "node:crypto";
import { shot } from "./helpers";

const BASE = process.env.E2E_OIDC_BASE_URL;
test.skip(!BASE, "E2E_OIDC_BASE_URL: the sign-in API and its provider stand-in (scripts/test.sh starts both)");
test.use({ baseURL: BASE, viewport: { width: 1440, height: 900 } });

const user = `e2e-${randomBytes(4).toString("hex")}`;
const NAME = "Ada Lovelace";

/** Signs in through the header's control and the provider's page as `user`. */
async function signIn(page: Page) {
  await page.goto("/");
  const header = page.getByRole("banner");
  await header.getByRole("link", { name: "Sign in" }).click();
  await expect(page.getByRole("heading", { name: "Test provider: sign in" })).toBeVisible();
  await page.getByLabel("User").fill(user);
  await page.getByLabel("Name").fill(NAME);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(header.getByTestId("account-name")).toHaveText(NAME);
}

async function freshPage(browser: Browser, width: number, height: number) {
  const context = await browser.newContext({ baseURL: BASE, viewport: { width, height } });
  return context.newPage();
}

test("sign in, see the account's name, its runs under 'mine' in another browser, sign out", async ({ page, browser }) => {
  test.setTimeout(240_000);
  // signed out: no page loads, the header and the page offer Sign in
  await page.goto("/");
  const header = page.getByRole("banner");
  await expect(header.getByRole("link", { name: "Sign in" })).toBeVisible();
  await expect(page.getByRole("heading", { name: "Sign in to FabricTwin" })).toBeVisible();
  await expect(page.getByRole("heading", { name: "Presets" })).toHaveCount(0);
  await shot(page, "sign-in-1440-signed-out");

  await signIn(page);
  await expect(page.getByRole("heading", { name: "Presets" })).toBeVisible();
  await expect(page.locator('[data-preset="incast-2to1"]')).toBeVisible();
  await shot(page, "sign-in-1440-signed-in");

  // a run as the account (this browser's session; its local list is not involved)
  const preset = await (await page.request.get("/api/v1/presets/incast-2to1")).json();
  const created = await page.request.post("/api/v1/runs", { data: { scenario_id: preset.scenario_id, seeds: [100_000 + Math.floor(Math.random() * 1e9)] } });
  expect(created.status(), await created.text()).toBe(201);
  const runId = (await created.json()).data[0].id as string;

  // another browser (nothing in its local storage) signs in as the same account: the run is its
  const other = await freshPage(browser, 390, 844);
  await signIn(other);
  const recent = other.getByTestId("my-recent-work");
  await expect(recent.locator(`a[href="/runs/${runId}"]`)).toBeVisible();
  await shot(other, "sign-in-390-signed-in");
  // a browser signed in as someone else lists its own run there, not the account's
  const stranger = await freshPage(browser, 1440, 900);
  await stranger.goto("/");
  await stranger.getByRole("banner").getByRole("link", { name: "Sign in" }).click();
  await stranger.getByLabel("User").fill(`${user}-other`);
  await stranger.getByRole("button", { name: "Sign in" }).click();
  await expect(stranger.getByTestId("account-name")).toHaveText(`${user}-other`);
  const theirs = await stranger.request.post("/api/v1/runs", { data: { scenario_id: preset.scenario_id, seeds: [100_000 + Math.floor(Math.random() * 1e9)] } });
  expect(theirs.status(), await theirs.text()).toBe(201);
  await stranger.reload();
  await expect(stranger.getByTestId("my-recent-work").locator(`a[href="/runs/${(await theirs.json()).data[0].id}"]`)).toBeVisible();
  await expect(stranger.locator(`a[href="/runs/${runId}"]`)).toHaveCount(0);

  // signing out shows the sign-in screen again (not the provider: no instant re-sign-in)
  await header.getByRole("button", { name: "Sign out" }).click();
  await expect(header.getByRole("link", { name: "Sign in" })).toBeVisible();
  await expect(page.getByRole("heading", { name: "Sign in to FabricTwin" })).toBeVisible();
  expect((await page.request.get("/api/v1/runs")).status()).toBe(401);
  await shot(page, "sign-in-1440-signed-out-again");
  await other.context().close();
  await stranger.context().close();
});
