import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import Ajv2020 from "ajv/dist/2020";
import { render, screen, within } from "@testing-library/react";
import fixture from "../utils/testdata/training-jobs.json";
import real from "../utils/testdata/training-real.json";
import {
  COMM_KINDS,
  type TrainingJob,
  agrees,
  disagreements,
  dominanceText,
  iterationParts,
  timelineTotals,
  trainingCards,
  unionUs,
} from "../utils/training";
import { formatDurationUs } from "../../../lib/format";
import { TrainingPanel } from "./TrainingPanel";
import { jobCompareRows } from "../utils/compare";
import { HIDDEN_OPACITY, mergeSpans } from "./TrainingTimeline";

// a hand-made 70B-class job (TP 8 x PP 4 x DP 32, 8 micro-batches), reduced as the simulator does
// (utils/testdata/make-training-jobs.py: elementary intervals, computing else charged to the first
// of TP, EP, PP, DP in flight): compute 216 ms, a bubble of 80.6 ms, exposed TP 28.8 ms,
// PP 0.4 ms and DP 42 ms add up to its 367.8 ms first iteration
const job = fixture[0] as unknown as TrainingJob;
const clone = (): TrainingJob => JSON.parse(JSON.stringify(job)) as TrainingJob;

describe("a training job's cards and timeline", () => {
  it("the fixture's training block is what the result schema allows (docs/result.schema.json, Training)", () => {
    const schema = JSON.parse(readFileSync(resolve(__dirname, "../../../../../docs/result.schema.json"), "utf8"));
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    const validate = ajv.compile({ $defs: schema.$defs, $ref: "#/$defs/Training" });
    expect(validate(job.training) ? [] : validate.errors).toEqual([]);
  });

  it("the timeline draws the cards' compute and exposed time of every kind", () => {
    const tot = timelineTotals(job.training);
    expect(tot.computeUs).toBe(job.training.compute_us);
    for (const k of COMM_KINDS) expect(tot.exposedUs[k]).toBe(job.training.exposed_us![k]);
    expect(tot.idleUs).toBe(job.training.bubble_us);
    expect(tot.lengthUs).toBe(job.training.iteration_us[0]);
    expect(tot.computeUs + tot.idleUs + COMM_KINDS.reduce((a, k) => a + tot.exposedUs[k], 0)).toBe(tot.lengthUs);
    expect(disagreements(job.training)).toEqual([]);
  });

  it("the rendered cards and the rendered legend carry the same figures", () => {
    render(<TrainingPanel job={job} anchor="t" runId="r1" index={0} />);
    const card = (label: string) =>
      within(document.querySelector(`[data-metric="${label}"]`) as HTMLElement).getByRole("definition").textContent;
    const legend = screen.getByTestId("training-legend");
    expect(card("Compute")).toBe(
      formatDurationUs(Number(legend.querySelector("[data-legend-kind=compute]")!.getAttribute("data-total-us"))),
    );
    for (const k of COMM_KINDS) {
      const drawn = Number(legend.querySelector(`[data-legend-kind=${k}]`)!.getAttribute("data-exposed-us"));
      expect(card(`Exposed ${k.toUpperCase()}`)).toBe(formatDurationUs(drawn));
    }
    expect(card("Iteration time")).toBe("368 ms");
    expect(card("Critical collective")).toBe("42 ms");
    expect(screen.queryByTestId("training-disagreement")).toBeNull();
  });

  it("exposed communication is outlined in full colour; hidden communication is faded", () => {
    const { container } = render(<TrainingPanel job={job} anchor="t" runId="r1" index={0} />);
    const exposed = [...container.querySelectorAll("rect.training-span.exposed")].filter(
      (r) => r.getAttribute("data-kind") !== "compute",
    );
    expect(exposed.length).toBeGreaterThan(0);
    for (const r of exposed) {
      // outlined when wide enough for the outline not to hide the colour (4 px)
      expect(r.getAttribute("stroke")).toBe(Number(r.getAttribute("width")) >= 4 ? "#000" : "none");
      expect(r.getAttribute("fill-opacity")).toBe("1");
    }
    expect(exposed.some((r) => r.getAttribute("data-kind") === "dp" && r.getAttribute("stroke") === "#000")).toBe(true);
    const hidden = [...container.querySelectorAll("rect.training-span:not(.exposed)")].filter(
      (r) => r.getAttribute("data-kind") !== "compute",
    );
    // PP sends overlap the TP all-reduces: drawn exposed, their time charged to TP
    expect(new Set(hidden.map((r) => r.getAttribute("data-kind")))).toEqual(new Set(["dp"]));
    for (const r of hidden) expect(r.getAttribute("fill-opacity")).toBe(String(HIDDEN_OPACITY));
  });

  it("says what dominates, from the largest part", () => {
    expect(iterationParts(job.training).map((p) => p.key)).toEqual(["compute", "bubble", "dp", "tp", "pp"]);
    const text = dominanceText(job.training);
    expect(text).toMatch(/^The first iteration \(368 ms\) is dominated by compute: 216 ms, 58\.7 % of it\./);
    expect(text).toContain("Communication not hidden behind compute adds 71.2 ms (19.4 %), most of it DP.");
    // a slower fabric: DP now the largest part
    const slow = clone();
    slow.training.exposed_us!.dp = 400_000;
    slow.training.iteration_us[0] = 725_800;
    expect(dominanceText(slow.training)).toMatch(/dominated by exposed DP communication: 400 ms, 55\.1 %/);
  });

  it("a timeline that does not match the cards is said, not hidden", () => {
    const off = clone();
    off.training.exposed_us!.dp = 10_000;
    expect(disagreements(off.training)).toEqual(["exposed DP: the card says 10 ms, the timeline draws 42 ms"]);
    render(<TrainingPanel job={off} anchor="t" runId="r1" index={0} />);
    expect(screen.getByTestId("training-disagreement").textContent).toContain("exposed DP");
  });

  it("time several kinds wait for at once is charged to the first of TP, EP, PP, DP, as the simulator charges it", () => {
    const t = {
      ...clone().training,
      timeline: [
        { kind: "compute" as const, start_us: 0, end_us: 10, exposed: false },
        { kind: "dp" as const, start_us: 5, end_us: 30, exposed: false },
        { kind: "pp" as const, start_us: 12, end_us: 20, exposed: true },
        { kind: "tp" as const, start_us: 15, end_us: 18, exposed: true },
      ],
    };
    const tot = timelineTotals(t);
    expect(tot.exposedUs).toEqual({ tp: 3, pp: 5, dp: 12, ep: 0 });
    expect(tot.computeUs).toBe(10);
    expect(tot.commUs.dp).toBe(25);
    expect(tot.lengthUs).toBe(30);
  });

  it("a job with no finished iteration shows dashes and says so, and a truncated timeline is not checked", () => {
    const none = clone();
    Object.assign(none.training, {
      iteration_us: [],
      mean_iteration_us: null,
      tokens_per_s: null,
      compute_us: null,
      bubble_us: null,
      exposed_us: null,
      critical_collective: null,
      timeline: [],
    });
    const cards = Object.fromEntries(trainingCards(none, "t").map((c) => [c.label, c.value]));
    expect(cards["Iteration time"]).toBe("—");
    expect(cards["Exposed DP"]).toBe("—");
    expect(dominanceText(none.training)).toBe("No iteration finished, so nothing can be said about what dominates it.");
    const cut = clone();
    cut.training.timeline = cut.training.timeline.slice(0, 5);
    cut.training.timeline_truncated = true;
    expect(disagreements(cut.training)).toEqual([]);
  });

  it("overlapping spans count once; merging for the drawing keeps each kind's union", () => {
    expect(
      unionUs([
        { start_us: 0, end_us: 10 },
        { start_us: 5, end_us: 15 },
        { start_us: 20, end_us: 25 },
      ]),
    ).toBe(20);
    const merged = mergeSpans(job.training.timeline, 5000);
    for (const k of ["compute", ...COMM_KINDS] as const) {
      for (const e of [true, false]) {
        const before = unionUs(job.training.timeline.filter((s) => s.kind === k && s.exposed === e));
        const after = merged
          .filter((s) => s.kind === k && s.exposed === e)
          .reduce((a, s) => a + s.end_us - s.start_us, 0);
        expect(after).toBeGreaterThanOrEqual(before);
      }
    }
    expect(merged.length).toBeLessThan(job.training.timeline.length);
    expect(agrees(100, 100.4)).toBe(true);
    expect(agrees(100, 102)).toBe(false);
  });

  it("cards list every kind's exposed time and the critical collective's op, size and ranks", () => {
    const cards = Object.fromEntries(trainingCards(job, "t").map((c) => [c.label, c]));
    expect(Object.keys(cards)).toEqual([
      "Iteration time",
      "Tokens per second",
      "Compute",
      "Exposed TP",
      "Exposed PP",
      "Exposed DP",
      "Exposed EP",
      "Critical collective",
    ]);
    expect(cards["Critical collective"].note).toBe("DP reduce-scatter of 1093 MB over 32 ranks; 42 ms exposed");
    expect(cards.Compute.window).toBe("first iteration, rank 0 (the last to end it)");
    expect(cards["Tokens per second"].value).toBe("5,702,000");
    expect(cards["Iteration time"].note).toBe("every iteration within 600 us of the others");
  });

  it("compare lists a training job's JCT, iteration time, tokens/s and exposed DP and TP time, a collective's JCT and busbw", () => {
    const slower = clone();
    slower.training.mean_iteration_us = 400_000;
    slower.training.tokens_per_s = 5_242_880;
    const ring = { name: "ring", jct_us: 410, busbw_gbps: 322 };
    const rows = jobCompareRows([{ jobs: [ring, job] }, { jobs: [ring, slower] }]);
    expect(rows.map((r) => [r.label, r.higherIsBetter])).toEqual([
      ["ring: JCT", false],
      ["ring: busbw", true],
      ["llama70b: JCT", false],
      ["llama70b: Iteration time", false],
      ["llama70b: Tokens per second", true],
      ["llama70b: Exposed DP time", false],
      ["llama70b: Exposed TP time", false],
    ]);
    const row = (label: string) => rows.find((r) => r.label === label)!;
    expect(row("llama70b: Iteration time").values).toEqual([367_800, 400_000]);
    expect(row("llama70b: Tokens per second").values).toEqual([job.training.tokens_per_s, 5_242_880]);
    expect(row("llama70b: Exposed DP time").values).toEqual([42_000, 42_000]);
  });

  // the simulator's own output (fabricsim of issue-35-train at 350b2d0..8c00e2f): the small job of
  // e2e/training.spec.ts and the ai-training-70b preset's non-blocking fabric, their training blocks
  it.each(real.map((j) => [j.name, j] as const))(
    "the simulator's %s job: the timeline draws the cards' figures",
    (_, j) => {
      const t = (j as unknown as TrainingJob).training;
      expect(disagreements(t)).toEqual([]);
      const tot = timelineTotals(t);
      // within half a microsecond: the result rounds every segment's ends to the nanosecond
      expect(tot.computeUs).toBeCloseTo(t.compute_us!, 0);
      for (const k of COMM_KINDS) expect(tot.exposedUs[k]).toBeCloseTo(t.exposed_us![k], 0);
      expect(tot.idleUs).toBeCloseTo(t.bubble_us!, 0);
      expect(tot.lengthUs).toBeCloseTo(t.iteration_us[0], 0);
    },
  );
});
