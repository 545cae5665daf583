import { describe, expect, it } from "vitest";
import { readWholeSweep, type SweepPublic } from "./sweeps";

type Point = SweepPublic["points"][number];

function point(index: number): Point {
  return { index, params: { seed: index }, scenario_id: `s${index}`, run_id: `r${index}`, status: "SUCCEEDED", metrics: null, engine: "packet" };
}

/** A server holding `count` points, answering pages of `size` like GET /sweeps/{id}. */
function server(count: number, size: number, done: (call: number) => number) {
  const offsets: number[] = [];
  const readPage = async (offset: number): Promise<SweepPublic> => {
    offsets.push(offset);
    const points = Array.from({ length: Math.max(0, Math.min(size, count - offset)) }, (_, i) => point(offset + i));
    const after = offset + points.length;
    return {
      id: "sw", status: "RUNNING", total: count, done: done(offsets.length), failed: 0, scenario_id: "base", seed: 1,
      created_at: "2026-11-23T00:00:00Z", parameters: [], linked: [], points, points_count: count, offset,
      next_offset: points.length && after < count ? after : null,
    };
  };
  return { readPage, offsets };
}

describe("readWholeSweep", () => {
  it("follows next_offset and joins the pages in index order", async () => {
    const { readPage, offsets } = server(2500, 1000, (call) => 10 * call);
    const sweep = await readWholeSweep(readPage);
    expect(offsets).toEqual([0, 1000, 2000]);
    expect(sweep.points.map((p) => p.index)).toEqual(Array.from({ length: 2500 }, (_, i) => i));
    expect(sweep.done).toBe(30); // the counts of the newest page
    expect(sweep.next_offset).toBeNull();
  });

  it("reads one page when it holds every point", async () => {
    const { readPage, offsets } = server(4, 1000, () => 4);
    const sweep = await readWholeSweep(readPage);
    expect(offsets).toEqual([0]);
    expect(sweep.points).toHaveLength(4);
  });

  it("stops when a server does not move forward", async () => {
    let calls = 0;
    const stuck = async (): Promise<SweepPublic> => {
      calls += 1;
      const { readPage } = server(10, 5, () => 0);
      return { ...(await readPage(0)), next_offset: 0 };
    };
    const sweep = await readWholeSweep(stuck);
    expect(calls).toBe(1);
    expect(sweep.points).toHaveLength(5);
  });
});
