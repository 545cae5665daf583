// Issue 37: a sweep of collective jobs opens on each job's JCT and busbw, as lines against the
// swept size and a table, ring against tree in one view; its points are named without repeats.
import { fireEvent, render, screen, within } from "@testing-library/react";
import { type SweepPoint, flattenJobMetrics } from "../../../lib/charts/grid";
import { JobSweep } from "./JobSweep";
import { HeatmapExplorer } from "./HeatmapExplorer";
import { jobKey, lineAxis, paramText, pointLabel, sweepJobPair, sweepJobs } from "../utils/jobSweep";
import sweep from "../utils/testdata/rail-sweep.json";

const points = sweep.points.map((p) => ({ ...p, metrics: flattenJobMetrics(p.metrics) })) as unknown as SweepPoint[];
const dims = sweep.parameters.map((p) => p.path);

describe("a sweep of collective jobs", () => {
  it("finds the jobs and the size axis, and names a point by its swept value once", () => {
    expect(sweepJobs(points)).toEqual(["ring", "tree"]);
    expect(dims).toEqual(["traffic.0.message_bytes"]);
    expect(lineAxis(points, dims)).toBe("traffic.0.message_bytes");
    // the linked traffic.1.message_bytes follows it: not repeated (was "message_bytes=1048576, message_bytes=1048576")
    expect(pointLabel(points[0].params, dims)).toBe("message_bytes 1 MiB");
    expect(paramText("traffic.0.message_bytes", 33554432)).toBe("32 MiB");
    expect(paramText("traffic.0.message_bytes", 1000)).toBe("1 KB"); // not a whole KiB: decimal, as the app prints bytes
    expect(pointLabel({ "traffic.0.message_bytes": 1, "traffic.1.message_bytes": 2 }, ["traffic.0.message_bytes", "traffic.1.message_bytes"]))
      .toBe("traffic[0].message_bytes 1 B, traffic[1].message_bytes 2 B");
  });

  it("draws a line per job for busbw and for JCT, each point at the sweep's value", () => {
    const onOpen = vi.fn();
    render(<JobSweep points={points} dims={dims} onOpenRun={onOpen} />);
    const busbw = screen.getByRole("img", { name: "Bus bandwidth (Gbit/s) of each job against traffic.0.message_bytes" });
    for (const job of ["ring", "tree"]) {
      const values = [...busbw.querySelectorAll(`g.job-line[data-job="${job}"] circle`)].map((c) => Number(c.getAttribute("data-value")));
      expect(values).toEqual(points.map((p) => p.metrics![jobKey("busbw_gbps", job)]));
    }
    expect(screen.getByRole("img", { name: "Job completion time (us) of each job against traffic.0.message_bytes" }).querySelectorAll("g.job-line")).toHaveLength(2);
    // the table: one row per size, each job's JCT and busbw; "open" opens the point's run
    const table = screen.getByRole("table");
    const rows = within(table).getAllByRole("row").slice(1);
    expect(rows.map((r) => r.querySelector("td")?.textContent)).toEqual(["1 MiB", "8 MiB", "32 MiB"]);
    const ring32 = points.find((p) => p.params["traffic.0.message_bytes"] === 33554432)!;
    expect(rows[2].querySelector('[data-job="ring"][data-metric="busbw_gbps"]')?.textContent).toBe("1,482 Gbit/s");
    expect(ring32.metrics!["busbw_gbps of ring"]).toBeCloseTo(1481.9, 0);
    fireEvent.click(within(rows[2]).getByRole("button", { name: "open" }));
    expect(onOpen).toHaveBeenCalledWith(ring32.run_id);
  });

  it("shows nothing for a sweep without jobs; the heatmap opens on the first job's busbw", () => {
    const plain = points.map((p) => ({ ...p, metrics: { throughput_gbps: p.metrics!.throughput_gbps } }));
    const { container } = render(<JobSweep points={plain} dims={dims} onOpenRun={() => {}} />);
    expect(container).toBeEmptyDOMElement();
    render(<HeatmapExplorer points={points} paths={dims} onOpenRun={() => {}} initialMetric={jobKey("busbw_gbps", "ring")} />);
    expect(screen.getByLabelText("Metric")).toHaveValue("busbw_gbps of ring");
  });
});

describe("a sweep of training jobs", () => {
  // two points of a DP-bucket sweep over one training job "llama" next to a collective "ring"
  const point = (index: number, bucket: number, tokens: number, iteration: number): SweepPoint => ({
    index, run_id: `r${index}`, status: "SUCCEEDED", params: { "traffic.0.parallel.bucket_bytes": bucket },
    metrics: flattenJobMetrics({ jct_us: 3 * iteration, tokens_per_s: tokens, iteration_us: iteration,
      jobs: { llama: { jct_us: 3 * iteration, iteration_us: iteration, tokens_per_s: tokens, exposed_dp_us: 1, exposed_tp_us: 2 },
        ring: { jct_us: 50, busbw_gbps: 300 } } }),
  });
  const tpoints = [point(0, 25_000_000, 5e6, 400_000), point(1, 100_000_000, 6e6, 350_000)];
  const tdims = ["traffic.0.parallel.bucket_bytes"];

  it("shows each training job's tokens/s and iteration time, not a collective's busbw", () => {
    expect(sweepJobs(tpoints, sweepJobPair(tpoints))).toEqual(["llama"]);
    expect(sweepJobs(tpoints)).toEqual(["llama", "ring"]); // the collective pair: every job with a JCT, as before
    render(<JobSweep points={tpoints} dims={tdims} onOpenRun={vi.fn()} />);
    const view = screen.getByRole("region", { name: "Training jobs per point" });
    const tokens = within(view).getByRole("img", { name: "Tokens per second (tokens/s) of each job against traffic.0.parallel.bucket_bytes" });
    expect([...tokens.querySelectorAll("circle")].map((c) => Number(c.getAttribute("data-value")))).toEqual([5e6, 6e6]);
    expect(within(view).getAllByRole("columnheader").map((h) => h.textContent)).toEqual(["bucket_bytes", "iteration llama", "tokens/s llama", "run"]);
    expect(view.querySelector('td[data-metric="iteration_us"]')!.textContent).toBe("400 ms");
  });
});
