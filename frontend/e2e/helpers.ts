import type { Page } from "@playwright/test";
import { randomBytes } from "node:crypto";
import { mkdirSync } from "node:fs";
import { join } from "node:path";

export const SHOTS = join(process.cwd(), "test-results", "screenshots");
mkdirSync(SHOTS, { recursive: true });

export async function shot(page: Page, name: string) {
  await page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });
}

/** Waits until the run page shows a final status and returns it. */
export async function waitForRunEnd(page: Page, timeout = 150_000) {
  const status = page.getByTestId("run-status");
  await status.filter({ hasText: /SUCCEEDED|FAILED|CANCELLED/ }).waitFor({ timeout });
  return (await status.textContent())?.trim();
}

/** The owner tokens this page's browser keeps ("My scenarios", src/lib/localWork) as the X-Owner-Token
 * header, for a test's own API calls on the work the page created (cancel, delete). */
export async function ownerHeaders(page: Page): Promise<Record<string, string>> {
  const raw = await page.evaluate(() => window.localStorage.getItem("fabrictwin.mine.v1"));
  const mine = raw ? (JSON.parse(raw) as { tokens?: string[]; scenarios?: { owner_token?: string }[] }) : {};
  const tokens = [...new Set([...(mine.tokens ?? []), ...(mine.scenarios ?? []).map((s) => s.owner_token ?? "")])].filter(Boolean);
  return tokens.length ? { "X-Owner-Token": tokens.join(",") } : {};
}

/** A fresh owner token (32 URL-safe characters, like the server's, app/core/owners.py). */
export function newOwnerToken(): string {
  return randomBytes(24).toString("base64url");
}

/** Makes the page's browser hold `token` ("My scenarios" in local storage, src/lib/localWork) from
 * its next navigation on, as if it had created work with it: what a test creates through the API
 * with this token is then the page's own (lists and a scenario's history show it). */
export async function holdOwnerToken(page: Page, token: string) {
  await page.addInitScript((t) => {
    const key = "fabrictwin.mine.v1";
    const raw = window.localStorage.getItem(key);
    const mine = raw ? JSON.parse(raw) : { format: "fabrictwin-mine", version: 1, scenarios: [], runs: [], tokens: [] };
    mine.tokens = [t, ...(mine.tokens ?? []).filter((x: string) => x !== t)];
    window.localStorage.setItem(key, JSON.stringify(mine));
  }, token);
}
