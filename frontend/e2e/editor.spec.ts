// The editor's defects of issue 12, each checked as a user meets it, against the real backend.
import { type APIRequestContext, type Page, expect, test } from "@playwright/test";
import { ownerHeaders, shot, waitForRunEnd } from "./helpers";
import { fitView } from "../src/lib/topology/draw";
import { tieredLayout } from "../src/lib/topology/layout";

const API = "/api/v1";

async function presetScenario(request: APIRequestContext, key: string) {
  return ((await (await request.get(`${API}/presets/${key}`)).json()) as { scenario_id: string }).scenario_id;
}

async function openPreset(page: Page, request: APIRequestContext, key: string) {
  await page.goto(`/editor?preset=${key}&from=${await presetScenario(request, key)}`);
  await expect(page.getByRole("img", { name: /Fabric editor canvas/ })).toBeVisible();
}

/** Screen point of the middle of a link of a generated leaf-spine, from the same layout code the page uses. */
async function linkMidpoint(page: Page, nodes: Parameters<typeof tieredLayout>[0], a: string, b: string) {
  const canvas = page.getByRole("img", { name: /Fabric editor canvas/ });
  const box = (await canvas.boundingBox())!;
  const g = tieredLayout(nodes, []);
  const v = fitView(g, box.width, box.height);
  const pa = g.nodes.find((n) => n.id === a)!;
  const pb = g.nodes.find((n) => n.id === b)!;
  return { x: box.x + v.x + v.k * (pa.x + pb.x) / 2, y: box.y + v.y + v.k * (pa.y + pb.y) / 2 };
}

test("1. DCI: the two sites apart, long-haul link labelled", async ({ page, request }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await openPreset(page, request, "dci-100km-perftest");
  await expect(page.getByTestId("fabric-stats")).toContainText("2 hosts");
  await shot(page, "editor-dci");
});

test("2. three-tier preset: its tor_pairs are listed and editable", async ({ page, request }) => {
  await openPreset(page, request, "three-tier-podsets");
  const list = page.getByRole("list", { name: "ToR pairs" });
  await expect(list.getByRole("listitem")).toHaveCount(4);
  await expect(list).toContainText("tor0_0 → tor1_0");
  const gen = page.locator("fieldset.generator").first();
  await gen.getByLabel("Pair source").selectOption("tor0_1");
  await gen.getByLabel("Pair destination").selectOption("tor0_1");
  await gen.getByRole("button", { name: "Add pair" }).click();
  await expect(gen.getByRole("status")).toHaveText("A pair needs two different ends: tor0_1 cannot send to itself.");
  await expect(list.getByRole("listitem")).toHaveCount(4);
});

test("3. validation: Run disabled, messages in words, Kmin error stays, no layout shift", async ({ page }) => {
  await page.goto("/editor");
  const canvas = page.getByRole("img", { name: "Fabric editor canvas: 8 nodes, 8 links" });
  await expect(canvas).toBeVisible();
  const run = page.getByRole("button", { name: "Run", exact: true });
  await expect(run).toBeEnabled();
  await page.getByLabel("Duration (us)").fill("-5");
  const duration = page.locator(".field", { has: page.getByLabel("Duration (us)") });
  await expect(duration.locator(".field-error")).toHaveText("Duration must be more than 0 us (allowed: more than 0, up to 10,000,000 us)");
  await expect(run).toBeDisabled();
  // Kmin above Kmax while the duration is still wrong: the Kmin error shows and stays
  await page.getByLabel("ECN Kmin (bytes)").fill("90000");
  await page.getByLabel("ECN Kmax (bytes)").fill("80000");
  const kmin = page.locator(".field", { has: page.getByLabel("ECN Kmin (bytes)") });
  await expect(kmin.locator(".field-error")).toHaveText("ECN Kmin must not exceed ECN Kmax (80,000 bytes)");
  await expect(duration.locator(".field-error")).toBeVisible();
  await expect(page.getByText("Fix 2 fields to run")).toBeVisible();
  await page.getByLabel("Duration (us)").fill("500");
  await expect(duration.locator(".field-error")).toHaveCount(0);
  await expect(kmin.locator(".field-error")).toBeVisible();
  await expect(run).toBeDisabled();
  await page.getByLabel("ECN Kmax (bytes)").fill("200000");
  await expect(kmin.locator(".field-error")).toHaveCount(0);
  await expect(run).toBeEnabled();

  // a bad link rate: the message lies over the canvas, which does not move
  const before = (await canvas.boundingBox())!;
  const topology = { kind: "leaf_spine", leaves: 2, spines: 2, hosts_per_leaf: 2, host_rate_gbps: 100, fabric_rate_gbps: 100, link_delay_us: 1 };
  const nodes = (await (await page.request.post(`${API}/topologies/expand`, { data: { topology } })).json()).nodes;
  const mid = await linkMidpoint(page, nodes, "leaf0", "spine0");
  await page.mouse.click(mid.x, mid.y);
  await expect(page.getByRole("heading", { name: /Link leaf0 ↔ spine0|Link spine0 ↔ leaf0/ })).toBeVisible();
  await page.getByLabel("Link rate (Gbit/s)").fill("5000");
  const overlay = page.locator(".canvas-messages .canvas-error");
  await expect(overlay).toContainText("Link rate must be at most 1,600 Gbit/s");
  await expect(overlay).not.toContainText("topology.links");
  const after = (await canvas.boundingBox())!;
  expect(after.y).toBe(before.y);
  await expect(run).toBeDisabled();
  await shot(page, "editor-validation");
});

test("4. a too-large fabric is refused before it replaces the canvas; undo history kept", async ({ page }) => {
  await page.goto("/editor");
  await expect(page.getByRole("img", { name: "Fabric editor canvas: 8 nodes, 8 links" })).toBeVisible();
  await page.getByLabel("Scenario name").fill("before the big one");
  const form = page.getByRole("form", { name: "Topology generator" });
  await form.getByLabel("Leaves", { exact: true }).fill("512");
  await form.getByLabel("Spines", { exact: true }).fill("64");
  await form.getByLabel("Hosts per leaf", { exact: true }).fill("512");
  // 512 x 512 hosts + 512 leaves + 64 spines, past the format's 150,000 nodes (limits.MAX_NODES)
  await expect(form.getByTestId("generator-size")).toHaveText("262,720 nodes (at most 150,000)");
  await form.getByRole("button", { name: "Generate" }).click();
  await expect(form.getByTestId("generator-error")).toContainText("The fabric would have 262,720 nodes (at most 150,000)");
  await expect(page.getByText(/262,720 nodes \(at most/)).toHaveCount(2); // the size hint and the one error
  await expect(page.getByRole("alert").filter({ hasText: "262,720" })).toHaveCount(1);
  await expect(page.getByRole("img", { name: "Fabric editor canvas: 8 nodes, 8 links" })).toBeVisible();
  await expect(page.getByRole("toolbar", { name: "Editor tools" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Undo" })).toBeEnabled();
  await page.getByRole("img", { name: /Fabric editor canvas/ }).focus();
  await page.keyboard.press("Control+z");
  await expect(page.getByLabel("Scenario name")).toHaveValue("New fabric") // the name edit, undone: the history survived the refusal;
});

test("5. placing a switch: a gentle hint, stats kept, selection not red", async ({ page }) => {
  await page.goto("/editor");
  const canvas = page.getByRole("img", { name: "Fabric editor canvas: 8 nodes, 8 links" });
  await expect(canvas).toBeVisible();
  const box = (await canvas.boundingBox())!;
  await page.getByRole("button", { name: "Add switch" }).click();
  await page.mouse.click(box.x + 40, box.y + 40);
  await expect(page.getByRole("img", { name: "Fabric editor canvas: 9 nodes, 8 links" })).toBeVisible();
  await expect(page.locator(".canvas-hint")).toContainText("sw0 has no links");
  await expect(page.getByRole("alert").filter({ hasText: /connected/ })).toHaveCount(0);
  await expect(page.getByTestId("fabric-stats")).toHaveText("4 hosts · 5 switches · 8 links");
  await expect(page.getByRole("button", { name: "Run", exact: true })).toBeEnabled();
  await page.getByRole("button", { name: "Select", exact: true }).click();
  await page.mouse.click(box.x + 40, box.y + 40);
  await expect(page.getByRole("heading", { name: "sw0" })).toBeVisible();
  await shot(page, "editor-new-switch-selected");
});

test("6. leaving with unsaved work asks first", async ({ page }) => {
  await page.goto("/editor");
  await page.getByLabel("Scenario name").fill("unsaved work");
  let asked = 0;
  page.on("dialog", (d) => { asked += 1; void (asked === 1 ? d.dismiss() : d.accept()); });
  await page.getByRole("link", { name: "Home" }).click();
  await expect.poll(() => asked).toBe(1);
  await expect(page).toHaveURL(/\/editor$/);
  await expect(page.getByLabel("Scenario name")).toHaveValue("unsaved work");
  await page.getByRole("link", { name: "Home" }).click();
  await expect(page).toHaveURL(/\/$/);
  expect(asked).toBe(2);
});

test("7. share page: parameter table with the diff, Run a copy when nothing ran", async ({ page, request, browser, baseURL }) => {
  const preset = await presetScenario(request, "incast-2to1");
  const doc = (await (await request.get(`${API}/scenarios/${preset}`)).json()).scenario;
  doc.name = "e2e share diff";
  doc.duration_us = 2000;
  doc.switch.ecn.kmax_bytes = 200000;
  const fork = await (await request.post(`${API}/scenarios/${preset}/fork`, { data: { scenario: doc } })).json();
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto(`/s/${fork.id}`);
  await expect(page.getByTestId("scenario-name")).toHaveText("e2e share diff");
  const changed = page.locator(".param-table tr.changed");
  await expect(changed).toHaveCount(2);
  await expect(page.locator('.param-table tr[data-path="switch.ecn.kmax_bytes"]')).toContainText("200,000");
  await expect(page.locator('.param-table tr[data-path="switch.ecn.kmax_bytes"]')).toContainText("5,500");
  await expect(page.getByText("no finished run yet")).toBeVisible();
  await shot(page, "share-page-diff");
  await page.getByRole("button", { name: "Run a copy" }).click();
  await expect(page).toHaveURL(/\/runs\//);
  expect(await waitForRunEnd(page)).toBe("SUCCEEDED");

  // 4. "my scenarios": the copy is listed in this browser, and in no other
  await page.goto("/");
  await expect(page.getByTestId("my-scenarios")).toContainText("e2e share diff");
  const other = await browser.newContext({ baseURL });
  const stranger = await other.newPage();
  await stranger.goto("/");
  await expect(stranger.getByText("No saved scenarios in this browser yet")).toBeVisible();
  await other.close();
});

test("import: an HPCC topology file and a dropped scenario JSON; export the scenario", async ({ page }) => {
  await page.goto("/editor");
  await expect(page.getByRole("img", { name: "Fabric editor canvas: 8 nodes, 8 links" })).toBeVisible();
  await page.getByText("Import / export").click();
  await page.getByLabel("Import a scenario or topology file").setInputFiles({
    name: "topology.txt", mimeType: "text/plain", buffer: Buffer.from("3 1 2\n2\n0 2 100Gbps 0.001ms 0\n1 2 100Gbps 0.001ms 0\n"),
  });
  await expect(page.getByRole("img", { name: "Fabric editor canvas: 3 nodes, 2 links" })).toBeVisible();
  await expect(page.getByText("Explicit fabric (3 nodes)")).toBeVisible();
  // the export is the document itself
  const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: "Export scenario JSON" }).click()]);
  const exported = JSON.parse(await (await download.createReadStream()).toArray().then((c) => Buffer.concat(c).toString()));
  expect(exported.topology.nodes.map((n: { id: string }) => n.id)).toEqual(["h0", "h1", "sw2"]);
  // drop a scenario file on the editor
  exported.name = "dropped scenario";
  await page.evaluate((text) => {
    const dt = new DataTransfer();
    dt.items.add(new File([text], "dropped.json", { type: "application/json" }));
    document.querySelector(".editor-page")!.dispatchEvent(new DragEvent("drop", { dataTransfer: dt, bubbles: true, cancelable: true }));
  }, JSON.stringify(exported));
  await expect(page.getByLabel("Scenario name")).toHaveValue("dropped scenario");
  await page.getByRole("button", { name: "Undo" }).click();
  await expect(page.getByLabel("Scenario name")).toHaveValue("New fabric");
});

test("DCI accelerator: ticked in the generator, drawn at both site edges, reported by the run", async ({ page, request }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await openPreset(page, request, "ntt-dci-distance");
  const form = page.getByRole("form", { name: "Topology generator" });
  const toggle = form.getByRole("checkbox", { name: "RDMA WAN accelerator at the site edges" });
  await expect(toggle).not.toBeChecked();
  await toggle.check();
  // its settings appear once it is on; 1 MB is below the long link's 12.5 MB BDP: the
  // configuration check says so
  const buffer = form.getByRole("spinbutton", { name: /^Accelerator buffer/ });
  const check = page.getByTestId("config-check");
  await buffer.fill("1000000");
  await form.getByRole("button", { name: "Generate" }).click();
  await expect(check).toContainText("WAN accelerator buffer below the long link's BDP");
  await expect(check).toContainText("12,500,000");
  // 20 MB per edge and a 3 ms timeout: no finding at all (nor a QP depth one: with the
  // accelerator the window of 92 x 4 KB turns over in the 7 us RTT to a-dci)
  await buffer.fill("20000000");
  await form.getByRole("spinbutton", { name: /^Resend timeout/ }).fill("3000");
  await form.getByRole("button", { name: "Generate" }).click();
  await expect(form.getByRole("button", { name: "Generate" })).toBeEnabled();
  await expect(check.locator("summary")).toHaveText("Configuration check (no findings)", { timeout: 60_000 });
  await expect(page.getByRole("img", { name: /Fabric editor canvas: 8 nodes, 7 links/ })).toBeVisible();
  await expect(toggle).toBeChecked();
  await expect(buffer).toHaveValue("20000000");
  await shot(page, "editor-dci-accelerator");
  await page.getByRole("button", { name: "Run", exact: true }).click();
  await expect(page).toHaveURL(/\/runs\//);
  expect(await waitForRunEnd(page)).toBe("SUCCEEDED");
  const runId = page.url().split("/runs/")[1].split(/[/?#]/)[0];
  const diagnostics = await (await request.get(`${API}/runs/${runId}/diagnostics`)).json();
  expect(diagnostics.dci_accelerator.edges["a-dci"].pseudo_acks).toBeGreaterThan(0);
  expect([diagnostics.dci_accelerator.buffer_bytes, diagnostics.dci_accelerator.retransmit_timeout_us]).toEqual([20_000_000, 3000]);
  await page.getByRole("region", { name: /Fabric overlay/ }).or(page.locator("#overlay")).first().scrollIntoViewIfNeeded();
  // nothing of the drawing (the b-dci node, its label, its "WAN accelerator" tag) lies under the
  // zoom buttons: the canvas pixels behind them are blank while the rest of the canvas is drawn
  const canvas = page.getByRole("img", { name: /Topology coloured by/ });
  await expect.poll(() => canvas.evaluate((c: HTMLCanvasElement) => {
    const inked = (x: number, y: number, w: number, h: number) => {
      const d = c.getContext("2d")!.getImageData(x, y, Math.max(w, 1), Math.max(h, 1)).data;
      let n = 0;
      for (let i = 0; i < d.length; i += 4) if (d[i + 3] > 0 && Math.min(d[i], d[i + 1], d[i + 2]) < 235) n++;
      return n;
    };
    const r = c.getBoundingClientRect();
    const b = c.parentElement!.querySelector(".canvas-zoom-buttons")!.getBoundingClientRect();
    const dpr = c.width / r.width;
    return {
      drawn: inked(0, 0, c.width, c.height) > 1000,
      underButtons: inked(Math.floor((b.left - r.left) * dpr), Math.floor((b.top - r.top) * dpr), Math.ceil(b.width * dpr), Math.ceil(b.height * dpr)),
    };
  })).toEqual({ drawn: true, underButtons: 0 });
  await shot(page, "results-dci-accelerator");
});

test("transports: sprayed + per_packet chosen in the panels, the run reports QPs per NIC", async ({ page, request }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await openPreset(page, request, "leaf-spine-permutation");
  const panel = page.locator(".params-panel");
  await panel.getByLabel("Load balancing", { exact: true }).selectOption("per_packet");
  await panel.getByText(/^NIC defaults \(DCQCN/).click();
  await panel.getByLabel("Transport", { exact: true }).selectOption("sprayed");
  await panel.getByLabel("Processes per host", { exact: true }).fill("4");
  await shot(page, "editor-transport");
  await page.getByRole("button", { name: "Run", exact: true }).click();
  await expect(page).toHaveURL(/\/runs\//);
  expect(await waitForRunEnd(page)).toBe("SUCCEEDED");
  const runId = page.url().split("/runs/")[1].split(/[/?#]/)[0];
  const diagnostics = await (await request.get(`${API}/runs/${runId}/diagnostics`)).json();
  // 16 hosts, 4 processes: (16 - 1) x 4^2 = 240 QPs per NIC
  expect(diagnostics.transport.max_qps_per_nic).toBe(240);
  const section = page.getByRole("region", { name: "Transport and QP accounting" });
  await expect(section).toContainText("needs up to 240 QPs");
  await expect(section).toContainText("sprayed");
  await section.scrollIntoViewIfNeeded();
  await shot(page, "results-transport");
});

test("ERD preset: erd and its fields in the NIC panel, the run reports 2 QPs per NIC and ERD counters", async ({ page, request }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await openPreset(page, request, "erd-vs-rc");
  const panel = page.locator(".params-panel");
  await panel.getByText(/^NIC defaults \(DCQCN/).click();
  await expect(panel.getByLabel("Transport", { exact: true })).toHaveValue("erd");
  await expect(panel.getByLabel("Paths per QP (erd) (source ports)", { exact: true })).toHaveValue("4");
  await panel.getByLabel("Paths per QP (erd) (source ports)", { exact: true }).scrollIntoViewIfNeeded();
  await shot(page, "editor-erd");
  await page.getByRole("button", { name: "Run", exact: true }).click();
  await expect(page).toHaveURL(/\/runs\//);
  expect(await waitForRunEnd(page)).toBe("SUCCEEDED");
  const runId = page.url().split("/runs/")[1].split(/[/?#]/)[0];
  const diagnostics = await (await request.get(`${API}/runs/${runId}/diagnostics`)).json();
  // ERD: one QP per process, p = 2, whatever the number of hosts
  expect(diagnostics.transport.max_qps_per_nic).toBe(2);
  const section = page.getByRole("region", { name: "Transport and QP accounting" });
  await expect(section).toContainText("needs up to 2 QPs");
  await section.scrollIntoViewIfNeeded();
  await shot(page, "results-erd-transport");
  const flows = page.getByRole("region", { name: "Flows" }).or(page.locator("#table-flows")).first();
  await expect(flows).toContainText("NACKs (erd)");
  await flows.scrollIntoViewIfNeeded();
  await shot(page, "results-erd-flows");
});

test("ERD preset: the home page offers the paper's comparison (24 runs)", async ({ page, request }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto("/");
  const card = page.locator('[data-preset="erd-vs-rc"]');
  const button = card.getByRole("button", { name: /^Run the comparison of / });
  // 4 transports x 3 path counts x k = 4 and 6
  await expect(button).toHaveText("Run the paper's comparison (24 runs)");
  await button.click();
  await expect(page).toHaveURL(/\/sweeps\/[^/]+$/);
  const sweepId = page.url().split("/sweeps/")[1];
  const sweep = await (await request.get(`${API}/sweeps/${sweepId}`)).json();
  expect(sweep.parameters.map((p: { path: string }) => p.path)).toEqual(["nic.transport", "nic.erd.paths", "topology.k"]);
  // the other tests need the worker: the 24 points are not run here
  // the page's browser owns the sweep: the cancel sends its token (issue 23)
  expect((await request.post(`${API}/sweeps/${sweepId}/cancel`, { headers: await ownerHeaders(page) })).ok()).toBe(true);
});

test("NTT preset: the home page runs the paper's comparison as a sweep", async ({ page, request }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto("/");
  const card = page.locator('[data-preset="ntt-dci-distance"]');
  const button = card.getByRole("button", { name: /^Run the comparison of / });
  // QD 92 or "bdp" x accelerator off or on x 3 distances x 9 message sizes
  await expect(button).toHaveText("Run the paper's comparison (108 runs)");
  await expect(page.locator('[data-preset="incast-2to1"]').getByRole("button")).toHaveCount(0);
  await card.scrollIntoViewIfNeeded();
  await shot(page, "home-ntt-comparison");
  await button.click();
  await expect(page).toHaveURL(/\/sweeps\/[^/]+$/);
  const sweepId = page.url().split("/sweeps/")[1];
  await expect(page.getByText(/of 108 points finished/)).toBeVisible();
  const sweep = await (await request.get(`${API}/sweeps/${sweepId}`)).json();
  expect(sweep.parameters.map((p: { path: string }) => p.path)).toEqual([
    "nic.qp_depth", "topology.accelerator.enabled", "topology.length_km", "traffic.0.message_bytes"]);
  await shot(page, "sweep-ntt-comparison");
  // the other tests need the worker: 108 points are not run here
  // the page's browser owns the sweep: the cancel sends its token (issue 23)
  expect((await request.post(`${API}/sweeps/${sweepId}/cancel`, { headers: await ownerHeaders(page) })).ok()).toBe(true);
});
