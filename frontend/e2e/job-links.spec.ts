// Issue 20 §6, the remaining parts: on the results page of the ai-rail-allreduce and ai-two-jobs
// presets, each job's busbw card against its ideal (the percentage the result gives, the reason in
// words), and the fabric overlay of a job's links (its bytes per link, the links it shared with
// the other job), checked against GET /runs/{id}/jobs; screenshots at 1440x900 and 390x844.
import { type APIRequestContext, type Page, expect, test } from "@playwright/test";
import { join } from "node:path";
import { SHOTS, shot } from "./helpers";

const API = "/api/v1";

interface JobLink { link: string; bytes: number; frames: number }
interface Job { name: string; busbw_gbps: number; ideal_busbw_gbps: number; channels: number; links: JobLink[] }

async function runPreset(request: APIRequestContext, key: string) {
  const preset = await (await request.get(`${API}/presets/${key}`)).json();
  const created = await (await request.post(`${API}/runs`, { data: { scenario_id: preset.scenario_id, seeds: [1] } })).json();
  const id = created.data[0].id as string;
  await expect.poll(async () => (await (await request.get(`${API}/runs/${id}`)).json()).status, { timeout: 240_000 }).toBe("SUCCEEDED");
  const jobs = (await (await request.get(`${API}/runs/${id}/jobs`)).json()) as Job[];
  return { id, jobs };
}

const pct = (v: number) => `${(v * 100).toFixed(1)} %`;

/** The busbw card says busbw / ideal as the result gives them, and why the ideal is what it is. */
async function checkBusbwCard(page: Page, job: Job) {
  const panel = page.getByRole("region", { name: `Job ${job.name}` });
  const card = panel.locator('[data-metric="Bus bandwidth"]');
  await expect(card.locator(".card-where")).toContainText(`${pct(job.busbw_gbps / job.ideal_busbw_gbps)} of ideal`);
  await expect(card).toContainText("ideal = ");
  await expect(card).toContainText(`${job.channels} channel${job.channels === 1 ? "" : "s"}`);
  return panel;
}

/** Switch-to-switch link directions of a job, and those two jobs both crossed. */
const between = (j: Job) => j.links.filter((l) => l.link.split("->").every((n) => !/^h\d+$/.test(n)));
const shared = (a: Job, b: Job) => a.links.filter((l) => b.links.some((m) => m.link === l.link));

test("ring against tree: each card against its own ideal, the ring's links on the fabric", async ({ page, request }) => {
  test.setTimeout(300_000);
  const { id, jobs } = await runPreset(request, "ai-rail-allreduce");
  const ring = jobs.find((j) => j.name === "ring")!;
  const tree = jobs.find((j) => j.name === "tree")!;
  // 4 channels, each through its own NIC: the ideal is 4 NICs' payload rate, and the ring gets most of it
  expect(ring.ideal_busbw_gbps / ring.busbw_gbps).toBeLessThan(1.1);
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto(`/runs/${id}`);
  const ringPanel = await checkBusbwCard(page, ring);
  await checkBusbwCard(page, tree);
  await expect(ringPanel.getByTestId("job-sharing")).toHaveCount(0); // the tree runs after the ring
  await expect(page.getByTestId("busbw-meaning")).toContainText("a 4-channel ring's ideal is 4 NICs' rate");
  await ringPanel.getByRole("button", { name: "Show its links on the fabric" }).click();
  const overlay = page.locator("#overlay");
  await expect(overlay.getByRole("combobox", { name: /Colour links by/ })).toHaveValue("job_bytes");
  await expect(overlay.getByLabel("Job shown on the fabric")).toHaveValue("0");
  const note = overlay.getByTestId("job-links");
  await expect(note).toContainText(`crossed ${ring.links.length} link directions, ${between(ring).length} of them between switches`);
  // the tree starts after the ring has finished: they shared links, one after the other
  await expect(note).toContainText(`It shared ${shared(ring, tree).length} with job tree: job tree ran at another time, so they did not compete.`);
  await overlay.scrollIntoViewIfNeeded();
  await overlay.screenshot({ path: join(SHOTS, "job-links-rail-overlay-1440.png") });
  await ringPanel.screenshot({ path: join(SHOTS, "job-cards-rail-panel-1440.png") });
  await shot(page, "job-links-rail-1440");
  await ringPanel.scrollIntoViewIfNeeded();
  await shot(page, "job-cards-rail-1440");
  await page.setViewportSize({ width: 390, height: 844 });
  await ringPanel.locator('[data-metric="Bus bandwidth"]').scrollIntoViewIfNeeded();
  await shot(page, "job-cards-rail-390");
  await ringPanel.screenshot({ path: join(SHOTS, "job-cards-rail-panel-390.png") });
  await overlay.scrollIntoViewIfNeeded();
  await shot(page, "job-links-rail-390");
});

test("two jobs spread over two units: where their links are shared", async ({ page, request }) => {
  test.setTimeout(300_000);
  const { id, jobs } = await runPreset(request, "ai-two-jobs");
  const [a, b] = jobs;
  const both = shared(a, b);
  // spread placement: both rings cross between the units through the spine
  expect(between(a).length).toBeGreaterThan(0);
  expect(both.length).toBeGreaterThan(0);
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto(`/runs/${id}`);
  const panel = await checkBusbwCard(page, a);
  await checkBusbwCard(page, b);
  // why busbw is half the ideal: the other job's frames on the same links at the same time
  await expect(panel.getByTestId("job-sharing")).toContainText(`While it ran, job ${b.name} crossed ${both.length} of the same link directions`);
  await panel.getByRole("button", { name: "Show its links on the fabric" }).click();
  const overlay = page.locator("#overlay");
  const note = overlay.getByTestId("job-links");
  await expect(note).toContainText(`Job ${a.name}:`);
  await expect(note).toContainText(`It shared ${both.length} with job ${b.name}: job ${b.name} ran at the same time, so their frames queued together there.`);
  await expect(note.locator("li")).toHaveCount(Math.min(both.length, 20));
  const top = [...both].sort((x, y) => y.bytes - x.bytes || x.link.localeCompare(y.link))[0];
  await expect(note.locator("li").first()).toContainText(top.link.replace("->", " → "));
  await overlay.scrollIntoViewIfNeeded();
  await shot(page, "job-links-two-jobs-1440");
  await overlay.screenshot({ path: join(SHOTS, "job-links-two-jobs-overlay-1440.png") });
  await panel.screenshot({ path: join(SHOTS, "job-cards-two-jobs-panel-1440.png") });
  await overlay.getByLabel("Job shown on the fabric").selectOption("1");
  await expect(note).toContainText(`Job ${b.name}:`);
  await page.setViewportSize({ width: 390, height: 844 });
  await overlay.scrollIntoViewIfNeeded();
  await shot(page, "job-links-two-jobs-390");
  await overlay.screenshot({ path: join(SHOTS, "job-links-two-jobs-overlay-390.png") });
  await panel.scrollIntoViewIfNeeded();
  await shot(page, "job-cards-two-jobs-390");
  await panel.screenshot({ path: join(SHOTS, "job-cards-two-jobs-panel-390.png") });
});
