import type { Page } from "@playwright/test";
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
