import { fireEvent, render, screen, within } from "@testing-library/react";
import { MemoryRouter } from "react-router";
import type { Job, ResultSummary } from "../../../lib/api/resultTypes";
import type { ComparedRun } from "../api/compare";
import { jobCompareRows } from "../utils/compare";
import { CompareView } from "./CompareView";
import fixture from "../utils/testdata/job-ring-8.json";
import treeStuck from "../utils/testdata/jobs-tree-stuck.json";
import { busFactorText, channelsText, idealBusbw, idealText, iterationOverlap, jobCards, slowestStepOf, stepBars, stepTimeUs } from "../utils/jobs";
import { JobPanel } from "./JobsSection";
import { STEP_COLORS, labelPlacement } from "./JobTimeline";

// jobs[0] of a real run: ring all-reduce of 8 MB over 8 ranks (2 servers x 4 NICs), 2 channels, 2 iterations
const job = fixture.job as unknown as Job;

describe("a collective job's cards and timeline", () => {
  it("the cards read the job: JCT, busbw against its ideal, and the slowest step with its link", () => {
    const cards = Object.fromEntries(jobCards(job, "t").map((c) => [c.label, c]));
    expect(cards.JCT.value).toBe("344 us");
    expect(cards["Bus bandwidth"].value).toBe(`${job.busbw_gbps!.toLocaleString("en-US", { maximumSignificantDigits: 4 })} Gbit/s`);
    // 647.551 / 739.371: 2 channels, each leaving a server through its own NIC at 369.686 Gbit/s
    // (before, the ideal was one NIC's rate and the card read 175.2 %)
    expect(job.ideal_busbw_gbps).toBeCloseTo(2 * job.nic_payload_gbps, 2);
    expect(cards["Bus bandwidth"].where).toBe("87.6 % of ideal 739.4 Gbit/s");
    expect(cards["Bus bandwidth"].note).toBe("ideal = 2 channels × the slowest hop (NIC payload rate 369.7 Gbit/s; each channel leaves a server through its own NIC) · busbw = algbw × 2(n−1)/n = 1.75 for n = 8");
    expect(busFactorText(job)).toBe("2(n−1)/n = 1.75 for n = 8");
    expect(cards.Iterations.value).toBe("2 / 2");
    expect(cards["Slowest step"].value).toBe("58.7 us");
    expect(cards["Slowest step"].where).toBe("h6->h0 via the network");
    expect(cards["Slowest step"].note).toBe("step 9 of channel 0, iteration 1: its slowest transfer");
  });

  it("the slowest step named by the result is the longest step, and the only highlighted bar", () => {
    const longest = Math.max(...job.steps.map((s) => stepTimeUs(s) ?? 0));
    const slow = slowestStepOf(job)!;
    expect(stepTimeUs(slow)).toBeCloseTo(job.slowest_step!.time_us, 3);
    expect(stepTimeUs(slow)).toBeCloseTo(longest, 3);
    const bars = stepBars(job, 0, job.jct_us!);
    expect(bars).toHaveLength(2 * 14); // 2(n-1) steps per iteration, 2 iterations
    expect(bars.filter((b) => b.slowest).map((b) => [b.iteration, b.step])).toEqual([[1, 9]]);
    expect(stepBars(job, 1, job.jct_us!).some((b) => b.slowest)).toBe(false);
  });

  it("draws the slowest step's channel first, that step highlighted, and the iterations where the cards say", () => {
    render(<JobPanel job={job} index={0} runId="r1" />);
    const panel = screen.getByRole("region", { name: "Job ar8" });
    expect(within(panel).getByLabelText("Channel of ar8")).toHaveValue("0");
    const svg = within(panel).getByRole("img", { name: "Steps of ar8, channel 0, over time" });
    const highlighted = svg.querySelectorAll("rect.step-bar.slowest");
    expect(highlighted).toHaveLength(1);
    expect(highlighted[0].getAttribute("data-step")).toBe("9");
    expect(highlighted[0].getAttribute("fill")).toBe(STEP_COLORS.slowest);
    expect(highlighted[0].querySelector("title")?.textContent).toContain("58.7 us");
    expect(svg.querySelectorAll("rect.step-bar")).toHaveLength(28);
    // the legend names the same step and time as the card
    expect(panel.querySelector("[data-slowest-legend]")?.textContent).toBe("the job's slowest step: step 9, iteration 1, 58.7 us");
    const bands = svg.querySelectorAll("g.iteration-band");
    expect([...bands].map((b) => b.textContent)).toEqual(["iteration 0: 169 us", "iteration 1: 177 us"]);
    expect(within(panel).getByText("JCT").closest(".card")).toHaveTextContent("344 us");
  });
});

describe("the slowest step on a long ring", () => {
  it("stays vermillion and on top when rows are thinner than 4 px (254 steps)", () => {
    const steps = Array.from({ length: 254 }, (_, i) => ({
      ...job.steps[0], iteration: 0, channel: 0, step: i, start_us: i, end_us: i + (i === 126 ? 20 : 2),
    }));
    const long = { ...job, steps, iterations: [job.iterations[0]], slowest_step: { ...job.slowest_step!, iteration: 0, channel: 0, step: 126, time_us: 20 } };
    render(<JobPanel job={long} index={0} runId="r1" />);
    const rects = [...document.querySelectorAll("rect.step-bar")];
    const slow = rects[rects.length - 1];
    expect(slow).toHaveClass("slowest");
    expect(slow.getAttribute("data-step")).toBe("126");
    expect(slow.getAttribute("height")).toBe("5");
    expect(slow.getAttribute("stroke")).toBe("none");
    expect(slow.getAttribute("fill")).toBe(STEP_COLORS.slowest);
  });
});

describe("the slowest step's label", () => {
  it("goes right of the bar, else left, else inside it, never off the chart", () => {
    expect(labelPlacement(100, 200, 1000)).toEqual({ x: 204, anchor: "start" });
    expect(labelPlacement(500, 950, 1000)).toEqual({ x: 496, anchor: "end" });
    // the all-to-all's slowest step runs from 0 to the end: inside
    expect(labelPlacement(0, 1000, 1000)).toEqual({ x: 4, anchor: "start" });
    expect(labelPlacement(60, 100, 200)).toBeNull();
  });
});

describe("the busbw card's ideal in words", () => {
  it("says what bounds it: channels sharing a NIC, NVLink, a tree's head NIC, an all-to-all's share", () => {
    const shared = { ...job, channels: 8, channels_per_nic: 2, ideal_busbw_gbps: 1478.7 };
    expect(idealText(shared)).toBe("8 channels × the slowest hop (NIC payload rate 369.7 Gbit/s shared by 2 channels; 4 NICs per server for 8 channels)");
    const flat = { ...job, ranks_per_server: 1, servers: 8, channels: 2, channels_per_nic: 2, ideal_busbw_gbps: 369.686, nvlink_gbps: 0 };
    expect(idealText(flat)).toContain("every channel through each rank's one NIC");
    expect(idealText({ ...job, algorithm: "tree" })).toContain("(n−1)/n × 2 channels");
    expect(idealText({ ...job, op: "all_to_all", algorithm: "direct" })).toContain("(n−4)/n of each rank's bytes");
    // a result from before the ideal: the NIC payload rate, said so
    const old = { ...job } as Partial<Job>;
    delete old.ideal_busbw_gbps;
    expect(idealBusbw(old as Job)).toBe(job.nic_payload_gbps);
    expect(idealText(old as Job)).toContain("NIC payload rate");
  });
});

describe("a job on the fabric", () => {
  it("asks the page to highlight its ranks, or its slowest transfer's two hosts", () => {
    const onShowNodes = vi.fn();
    render(<JobPanel job={job} index={0} runId="r1" onShowNodes={onShowNodes} />);
    fireEvent.click(screen.getByRole("button", { name: "Show the slowest transfer's hosts" }));
    expect(onShowNodes).toHaveBeenLastCalledWith(["h6", "h0"], "the slowest step's transfer h6->h0 (job ar8)");
    fireEvent.click(screen.getByRole("button", { name: "Show its ranks on the fabric" }));
    expect(onShowNodes).toHaveBeenLastCalledWith(job.hosts, "the 8 ranks of job ar8");
  });
  it("says which job shared its links while it ran (why busbw is below the ideal), and not one that ran at another time", () => {
    const other = { ...job, name: "other", links: job.links.slice(0, 3) };
    const { rerender } = render(<JobPanel job={job} index={0} runId="r1" jobs={[job, other]} />);
    expect(screen.getByTestId("job-sharing")).toHaveTextContent("While it ran, job other crossed 3 of the same link directions");
    const after = { ...other, iterations: [{ ...job.iterations[0], start_us: 1e6, end_us: 2e6 }] };
    rerender(<JobPanel job={job} index={0} runId="r1" jobs={[job, after]} />);
    expect(screen.queryByTestId("job-sharing")).toBeNull();
  });
  it("asks the page to colour the fabric by its links", () => {
    const onShowLinks = vi.fn();
    render(<JobPanel job={job} index={3} runId="r1" onShowNodes={vi.fn()} onShowLinks={onShowLinks} />);
    fireEvent.click(screen.getByRole("button", { name: "Show its links on the fabric" }));
    expect(onShowLinks).toHaveBeenCalledWith(3);
  });
});

describe("comparing runs with jobs", () => {
  const run = (id: string, jobs: Job[]): ComparedRun => ({
    id, loading: false, run: { id, seed: 1, scenario_id: id } as ComparedRun["run"], scenario: { name: id, scenario: {} },
    runInfo: {}, summary: { throughput_gbps: 1, drops: { total: 0 } } as unknown as ResultSummary, flows: [], jobs,
  });
  const alone = { ...job, name: "train" };
  const shared = { ...job, name: "train", jct_us: 688.188, busbw_gbps: 323.7755 };
  it("matches jobs by name: JCT and busbw with deltas against A, a dash where a run lacks the job", () => {
    expect(jobCompareRows([run("a", [alone]), run("b", [shared, { ...job, name: "other" }])]).map((r) => [r.label, r.values])).toEqual([
      ["train: JCT", [344.094, 688.188]], ["train: busbw", [647.551, 323.7755]],
      ["other: JCT", [null, 344.094]], ["other: busbw", [null, 647.551]],
    ]);
    render(<MemoryRouter><CompareView runs={[run("a", [alone]), run("b", [shared])]} candidates={[]} onAdd={() => {}} onRemove={() => {}} /></MemoryRouter>);
    const table = screen.getByTestId("compare-jobs");
    const jct = table.querySelector('tr[data-metric="jct_us"]')!;
    expect(jct.textContent).toBe("train: JCT344 us688 us +344 us (+100 %)");
    expect(jct.querySelector(".delta")).toHaveClass("worse");
    const busbw = table.querySelector('tr[data-metric="busbw_gbps"]')!;
    expect(busbw.querySelector(".delta")).toHaveClass("worse");
    expect(busbw.querySelector(".delta")?.textContent).toContain("(−50 %)");
  });
  it("shows no jobs table when no run has a job", () => {
    render(<MemoryRouter><CompareView runs={[run("a", []), run("b", [])]} candidates={[]} onAdd={() => {}} onRemove={() => {}} /></MemoryRouter>);
    expect(screen.queryByTestId("compare-jobs")).toBeNull();
  });
});

describe("issue 37: trees, unfinished jobs and overlapping iterations", () => {
  const tree = treeStuck.tree.job as unknown as Job;
  const stuck = treeStuck.stuck.job as unknown as Job;

  it("a tree job says 8 trees where the selector lists trees 0-7, each with its channel", () => {
    expect(tree.channels).toBe(2);
    render(<JobPanel job={tree} index={0} runId="r1" />);
    const panel = screen.getByRole("region", { name: "Job tr8" });
    // 2 channels of a double binary tree: the selector lists 4 trees, the text says 4 trees
    expect(panel).toHaveTextContent("4 trees (2 channels of a double binary tree each)");
    const select = within(panel).getByLabelText("Tree of tr8");
    const options = within(select).getAllByRole("option").map((o) => o.textContent);
    expect(options).toHaveLength(2 * tree.channels);
    expect(options[3]).toBe("tree 3 (channel 1, tree 1)");
    expect(channelsText({ algorithm: "tree", channels: 4 })).toBe("8 trees (4 channels of a double binary tree each)");
    expect(channelsText({ algorithm: "ring", channels: 4 })).toBe("4 channels");
  });

  it("an unfinished job whose steps never finished says so instead of drawing an empty 0-1 us axis", () => {
    expect(stuck.completed).toBe(false);
    expect(stuck.steps.every((s) => s.end_us == null)).toBe(true);
    const started = stuck.steps.filter((s) => s.start_us != null).length;
    render(<JobPanel job={stuck} index={0} runId="r1" runEndUs={treeStuck.stuck.end_us} />);
    const panel = screen.getByRole("region", { name: "Job stuck" });
    expect(within(panel).getByTestId("no-step-finished")).toHaveTextContent(`No step finished: ${started} steps were still running when the run ended at 30 us`);
    expect(within(panel).queryByRole("img")).toBeNull();
  });

  it("overlapping iterations get a line that says so, with the times the timeline shows", () => {
    const [first, second] = job.iterations;
    expect(second.start_us!).toBeLessThan(first.end_us!);
    const o = iterationOverlap(job)!;
    expect([o.earlier, o.later, o.startUs, o.endUs]).toEqual([0, 1, second.start_us, first.end_us]);
    render(<JobPanel job={job} index={0} runId="r1" />);
    expect(screen.getByTestId("iterations-overlap")).toHaveTextContent("iteration 1 began at 167 us, before iteration 0 ended at 169 us");
    expect(screen.getByTestId("iterations-overlap")).toHaveTextContent("JCT (344 us) is therefore less than the iterations' times added up (346 us)");
    // iterations one after the other: no line
    const apart = { ...job, iterations: [first, { ...second, start_us: first.end_us! + 5 }] };
    expect(iterationOverlap(apart)).toBeNull();
  });
});
