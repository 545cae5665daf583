// Issue 12 at scale: grouping (collapse a pod into one box, expand it) and bulk edits (select by
// tier and pod, set an override on all of them) on a generated fat tree, against the real backend.
import { type Page, expect, test } from "@playwright/test";
import { shot } from "./helpers";
import { fitView } from "../src/lib/topology/draw";
import { tieredLayout } from "../src/lib/topology/layout";
import { collapsePods } from "../src/lib/topology/groups";
import type { ExpandResult } from "../src/lib/topology/types";

test.use({ viewport: { width: 1440, height: 900 } });

/** Generates a k = 8 fat tree (208 nodes) in the editor and returns its expansion. */
async function fatTree(page: Page) {
  await page.goto("/editor");
  const form = page.getByRole("form", { name: "Topology generator" });
  await form.getByLabel("Generator kind").selectOption("fat_tree");
  await form.getByLabel("k (even)").fill("8");
  const expanded = page.waitForResponse((r) => r.url().endsWith("/topologies/expand") && r.request().postData()?.includes('"k":8') === true);
  await form.getByRole("button", { name: "Generate" }).click();
  const body = (await (await expanded).json()) as ExpandResult;
  await expect(page.getByRole("img", { name: "Fabric editor canvas: 208 nodes, 384 links" })).toBeVisible();
  return body;
}

test("grouping: collapse the pods into boxes, expand one by double-click, expand all", async ({ page }) => {
  const fabric = await fatTree(page);
  await page.getByRole("button", { name: "Collapse 8 pods" }).click();
  const canvas = page.getByRole("img", { name: "Fabric editor canvas: 208 nodes, 384 links, 8 collapsed" });
  await expect(canvas).toBeVisible();
  await shot(page, "editor-fat-tree-k8-collapsed");

  // where pod3's box is drawn: the page's own layout and fit, computed here the same way
  const box = (await canvas.boundingBox())!;
  const laid = tieredLayout(fabric.nodes, fabric.links);
  const collapsed = collapsePods(laid, new Set(["pod0", "pod1", "pod2", "pod3", "pod4", "pod5", "pod6", "pod7"]));
  const v = fitView(laid, box.width, box.height);
  const pod3 = collapsed.nodes.find((n) => n.id === "pod3")!;
  expect(pod3.members).toHaveLength(16 + 4 + 4);
  // a click on the box selects its 24 members: the Selection panel edits 8 switches of pod3
  await page.mouse.click(box.x + v.x + v.k * pod3.x, box.y + v.y + v.k * pod3.y);
  const side = page.getByRole("complementary", { name: "Selection and traffic" });
  await expect(side.getByRole("heading", { level: 4 })).toContainText("8 switches");
  await page.mouse.dblclick(box.x + v.x + v.k * pod3.x, box.y + v.y + v.k * pod3.y);
  await expect(page.getByRole("img", { name: "Fabric editor canvas: 208 nodes, 384 links, 7 collapsed" })).toBeVisible();
  await page.getByRole("button", { name: "Expand all" }).click();
  await expect(page.getByRole("img", { name: "Fabric editor canvas: 208 nodes, 384 links" })).toBeVisible();

  // after a structural edit the fabric is explicit (no generator groups): pods still collapse,
  // with their hosts (a host's group is the switch it hangs off)
  await page.getByRole("button", { name: "Add switch" }).click();
  await page.mouse.click(box.x + 30, box.y + 30);
  await expect(page.getByText(/^Explicit fabric \(209 nodes\)/)).toBeVisible();
  await page.getByRole("button", { name: "Select", exact: true }).click();
  await page.getByRole("button", { name: "Collapse 8 pods" }).click();
  await expect(page.getByRole("img", { name: "Fabric editor canvas: 209 nodes, 384 links, 8 collapsed" })).toBeVisible();
  await page.mouse.click(box.x + v.x + v.k * pod3.x, box.y + v.y + v.k * pod3.y);
  await expect(side.getByRole("heading", { level: 4 })).toContainText("8 switches (16 hosts ignored");
});

test("bulk edit: the edge switches of pod2 get an ECN Kmin override, nothing else does", async ({ page }) => {
  await fatTree(page);
  const side = page.getByRole("complementary", { name: "Selection and traffic" });
  await side.getByText("Bulk select").click();
  await side.getByLabel("Bulk select tier").selectOption("1");
  await side.getByLabel("Bulk select pod").selectOption("pod2");
  await side.getByRole("button", { name: "Select 4 nodes" }).click();
  await expect(side.getByRole("heading", { level: 4 })).toHaveText("4 switches");
  // the document the editor validates after the edit carries one override per selected switch
  const validated = page.waitForRequest((r) => r.url().endsWith("/scenarios/validate") && (r.postData() ?? "").includes("switch_overrides"));
  await side.getByLabel("ECN Kmin (bytes)").fill("40000");
  const doc = JSON.parse((await validated).postData()!).scenario;
  expect(doc.switch_overrides).toEqual({
    edge2_0: { ecn: { kmin_bytes: 40000 } }, edge2_1: { ecn: { kmin_bytes: 40000 } },
    edge2_2: { ecn: { kmin_bytes: 40000 } }, edge2_3: { ecn: { kmin_bytes: 40000 } },
  });
  // a name pattern across pods: the last edge switch of every pod
  await side.getByLabel("Bulk select tier").selectOption("");
  await side.getByLabel("Bulk select pod").selectOption("");
  await side.getByLabel("Bulk select name pattern").fill("edge*_3");
  await side.getByRole("button", { name: "Select 8 nodes" }).click();
  await expect(side.getByRole("heading", { level: 4 })).toHaveText("8 switches");
  await shot(page, "editor-bulk-select");
});
