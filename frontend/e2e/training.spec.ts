// Issue 35 §2, the product: the training generator in the editor (a preset model, the plan's
// product checked against the job's ranks as it is typed) and a training job's results (cards
// against GET /runs/{id}/jobs, the timeline's legend agreeing with them, the sentence on what
// dominates); screenshots at 1440x900 and 390x844.
// E2E_TRAINING_RUN=<run id>: check that run's page instead of running the small job below.
import { type APIRequestContext, type Page, expect, test } from "@playwright/test";
import { holdOwnerToken, newOwnerToken, shot } from "./helpers";

const API = "/api/v1";

// 2 servers x 4 NICs; a 2-layer model small enough for a packet-level run in seconds (its DP
// all-reduce is a few MB): TP 4 inside each server, DP 2 across them, 2 micro-batches, 2 iterations
const SMALL_TRAINING = {
  schema_version: 1,
  name: "e2e small training job",
  duration_us: 100000,
  topology: {
    kind: "rail_optimized",
    units: 1,
    servers_per_unit: 2,
    nics_per_server: 4,
    spines: 1,
    host_rate_gbps: 100,
    fabric_rate_gbps: 100,
    link_delay_us: 1,
  },
  traffic: [
    {
      kind: "training",
      job: "small",
      servers: 2,
      model: { layers: 2, hidden: 512, ffn_hidden: 2048, heads: 8, seq_len: 512, vocab: 1000 },
      parallel: { tp: 4, pp: 1, dp: 2, micro_batches: 2 },
      compute_us_per_layer: 50,
      iterations: 2,
    },
  ],
};

interface Training {
  iteration_us: number[];
  mean_iteration_us: number | null;
  tokens_per_s: number | null;
  compute_us: number | null;
  exposed_us: Record<"tp" | "pp" | "dp" | "ep", number> | null;
  timeline_truncated?: boolean;
}
interface Job {
  name: string;
  kind?: string;
  training?: Training;
}

const fmtUs = (us: number) => {
  const sig = (v: number) => String(Number(v.toPrecision(3)));
  const a = Math.abs(us);
  return a >= 1e6
    ? `${sig(us / 1e6)} s`
    : a >= 1e3
      ? `${sig(us / 1e3)} ms`
      : a >= 1 || a === 0
        ? `${sig(us)} us`
        : `${sig(us * 1e3)} ns`;
};

async function smallTrainingRun(page: Page, request: APIRequestContext): Promise<string> {
  const token = newOwnerToken();
  await holdOwnerToken(page, token);
  const headers = { "X-Owner-Token": token };
  const created = await request.post(`${API}/scenarios`, { data: { scenario: SMALL_TRAINING }, headers });
  expect(created.status(), await created.text()).toBe(201);
  const scenarioId = (await created.json()).id as string;
  const runs = await (
    await request.post(`${API}/runs`, { data: { scenario_id: scenarioId, seeds: [1] }, headers })
  ).json();
  const id = runs.data[0].id as string;
  await expect
    .poll(async () => (await (await request.get(`${API}/runs/${id}`)).json()).status, { timeout: 240_000 })
    .toBe("SUCCEEDED");
  return id;
}

test("the training generator's plan is checked as it is typed", async ({ page, request }) => {
  const preset = ((await (await request.get(`${API}/presets/ai-rail-allreduce`)).json()) as { scenario_id: string })
    .scenario_id;
  for (const [w, h] of [
    [1440, 900],
    [390, 844],
  ] as const) {
    await page.setViewportSize({ width: w, height: h });
    await page.goto(`/editor?from=${preset}`);
    await expect(page.getByRole("img", { name: /Fabric editor canvas/ })).toBeVisible();
    const before = await page.locator("fieldset.generator").count();
    await page.getByLabel("Traffic kind").selectOption("training");
    await page.getByRole("button", { name: "Add traffic" }).click();
    const gen = page.locator("fieldset.generator").nth(before);
    const product = gen.getByTestId(`training-${before}-product`);
    // a new job: TP inside a server, DP across the rest, so the product is the job's ranks
    await expect(product).toHaveAttribute("data-ok", "true");
    const ranks = Number((await product.textContent())!.match(/the job has ([\d,]+)/)![1].replace(/,/g, ""));
    await gen.getByLabel(/^Model/).selectOption("llama3-70b");
    await expect(gen.getByTestId(`training-${before}-dims`)).toContainText(
      "80 layers, hidden 8,192, FFN 28,672, 64 heads",
    );
    await gen.getByLabel(/^PP \(/).fill("4");
    await expect(product).toHaveAttribute("data-ok", "false");
    await expect(product).toContainText(`the job has ${ranks.toLocaleString("en-US")}`);
    await expect(product).toContainText(/= [\d,]+ ranks/);
    await gen.scrollIntoViewIfNeeded();
    await shot(page, `training-editor-${w}`);
    await gen.getByLabel(/^PP \(/).fill("1");
    await expect(product).toHaveAttribute("data-ok", "true");
  }
});

test("a training job's cards agree with its API figures and its timeline", async ({ page, request }) => {
  test.setTimeout(300_000);
  const id = process.env.E2E_TRAINING_RUN ?? (await smallTrainingRun(page, request));
  const jobs = (await (await request.get(`${API}/runs/${id}/jobs`)).json()) as Job[];
  const job = jobs.find((j) => j.kind === "training")!;
  const t = job.training!;
  for (const [w, h] of [
    [1440, 900],
    [390, 844],
  ] as const) {
    await page.setViewportSize({ width: w, height: h });
    await page.goto(`/runs/${id}`);
    const panel = page.getByRole("region", { name: `Job ${job.name}` });
    await expect(panel.locator('[data-metric="Iteration time"] dd')).toHaveText(fmtUs(t.mean_iteration_us!));
    await expect(panel.locator('[data-metric="Compute"] dd')).toHaveText(fmtUs(t.compute_us!));
    for (const k of ["tp", "pp", "dp", "ep"] as const) {
      await expect(panel.locator(`[data-metric="Exposed ${k.toUpperCase()}"] dd`)).toHaveText(fmtUs(t.exposed_us![k]));
      // the legend's exposed time, computed from the drawn spans, is the card's
      const drawn = Number(await panel.locator(`[data-legend-kind="${k}"]`).getAttribute("data-exposed-us"));
      if (!t.timeline_truncated)
        expect(Math.abs(drawn - t.exposed_us![k])).toBeLessThanOrEqual(Math.max(0.5, 0.01 * t.exposed_us![k]));
    }
    await expect(panel.getByTestId("training-disagreement")).toHaveCount(0);
    await expect(panel.getByTestId("training-dominance")).toContainText("is dominated by");
    await expect(panel.getByRole("img", { name: /One iteration of .* by kind/ })).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
    await panel.scrollIntoViewIfNeeded();
    await shot(page, `training-results-${w}`);
  }
});
