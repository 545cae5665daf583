import { render, screen } from "@testing-library/react";
import { Markdown, guideHref } from "../../../components/Markdown";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { MemoryRouter } from "react-router";
import { type LabProgress, effectiveValue, predictionResults, runMetrics, sameScenario, stepDone } from "./progress";
import { answerBlocks, splitAnswers } from "./answers";
import { LabView } from "../components/LabView";
import type { Lab } from "../api/labs";
import { NEW_SCENARIO } from "../../scenarios/editor/model";
import type { Scenario } from "../../../lib/scenario/types";

const preset: Scenario = { ...NEW_SCENARIO, switch: { ecn: { kmin_bytes: 5000, kmax_bytes: 5500 } }, traffic: [{ kind: "perftest", src: "h0", dst: "h1", tx_depth: 92 }] };

describe("lab step checks", () => {
  it("ticks preset_opened only for the lab's preset", () => {
    const check = { kind: "preset_opened" as const, preset: "incast-2to1" };
    expect(stepDone(check, { kind: "preset_opened", preset: "incast-2to1" })).toBe(true);
    expect(stepDone(check, { kind: "preset_opened", preset: "dci-100km-perftest" })).toBe(false);
  });

  it("ticks param_changed at the value, or on any change from the preset", () => {
    const edited = { ...preset, switch: { ecn: { kmin_bytes: 5000, kmax_bytes: 200000 } } };
    expect(stepDone({ kind: "param_changed", path: "switch.ecn.kmax_bytes", value: 200000 }, { kind: "doc", doc: edited })).toBe(true);
    expect(stepDone({ kind: "param_changed", path: "switch.ecn.kmax_bytes", value: 200000 }, { kind: "doc", doc: preset })).toBe(false);
    expect(stepDone({ kind: "param_changed", path: "switch.ecn.kmax_bytes" }, { kind: "doc", doc: edited }, preset)).toBe(true);
    expect(stepDone({ kind: "param_changed", path: "switch.ecn.kmax_bytes" }, { kind: "doc", doc: preset }, preset)).toBe(false);
    const deeper = { ...preset, traffic: [{ ...preset.traffic![0], tx_depth: 2991 }] };
    expect(stepDone({ kind: "param_changed", path: "traffic.0.tx_depth", value: 2991 }, { kind: "doc", doc: deeper })).toBe(true);
  });

  it("ticks run_finished for a run whose scenario matches; unset NIC fields count as their default", () => {
    const check = { kind: "run_finished" as const, path: "nic.rto_us", value: 1000 };
    expect(effectiveValue(preset, "nic.rto_us")).toBe(1000);
    expect(stepDone(check, { kind: "run_finished", runId: "r", doc: preset })).toBe(true);
    expect(stepDone(check, { kind: "run_finished", runId: "r", doc: { ...preset, nic: { rto_us: 100000 } } })).toBe(false);
    expect(stepDone(check, { kind: "doc", doc: preset })).toBe(false);
    expect(stepDone({ kind: "run_finished" }, { kind: "run_finished", runId: "r", doc: preset })).toBe(true);
  });
});

describe("lab markdown", () => {
  it("renders headings, lists, code, tables and paragraphs through react-markdown", () => {
    const { container } = render(<Markdown source={"# T\n\nSome *text*.\n\n1. one\n   more\n2. two\n\n```sh\nrun x\n```\n\n| a | b |\n|---|---|\n| 1 | 2 |\n"} />);
    expect(container.querySelector("h2")?.textContent).toBe("T");
    expect(container.querySelector("em")?.textContent).toBe("text");
    expect(container.querySelector("pre code")?.textContent).toBe("run x\n");
    expect(container.querySelectorAll("td")).toHaveLength(2);
  });

  it("keeps a wrapped list item one item (issue 21 §4), lazy continuation lines included", () => {
    const { container } = render(<Markdown source={"1. Open the preset and\nrun it as it is.\n2. Change Kmax\n   to 200 KB.\n- a bullet that\n  wraps\n- another"} />);
    const items = [...container.querySelectorAll("li")].map((li) => li.textContent?.replace(/\s+/g, " ").trim());
    expect(items).toEqual(["Open the preset and run it as it is.", "Change Kmax to 200 KB.", "a bullet that wraps", "another"]);
  });

  it("links other docs to the app's /guide pages", () => {
    expect(guideHref("tuning.md")).toBe("/guide/tuning");
    expect(guideHref("../docs/presets.md#msft-deadlock")).toBe("/guide/presets#msft-deadlock");
    expect(guideHref("https://example.org/x.md")).toBe("https://example.org/x.md");
  });

  it("renders inline markup as elements and never as HTML", () => {
    render(<Markdown source={"Use `fabricsim` **now** <img src=x onerror=alert(1)> [docs](javascript:alert(1))"} />);
    expect(screen.getByText("fabricsim").tagName).toBe("CODE");
    expect(screen.getByText("now").tagName).toBe("STRONG");
    expect(document.querySelector("img")).toBeNull();
    expect(screen.getByRole("link", { name: "docs" })).toHaveAttribute("href", "#");
  });
});

// Issue 22 §3, lab 1: a prediction is compared with the run it asks about; its answer shows only
// once the student predicted; "run the preset as it is" ticks only for the unchanged preset.
describe("lab 1: predictions tied to their run, answers after predicting", () => {
  const summary = (throughput: number) => ({ throughput_gbps: throughput, max_queue_bytes: 7434 });
  const asIs = { kind: "run_finished" as const, preset: "incast-2to1" };

  it("ticks 'run the preset as it is' only for the unchanged preset", () => {
    const run = (doc: Scenario) => stepDone(asIs, { kind: "run_finished", runId: "r", doc }, preset);
    expect(run(preset)).toBe(true);
    expect(run({ ...preset, name: "my copy", switch: { ecn: { kmax_bytes: 5500, kmin_bytes: 5000 } } })).toBe(true); // key order, name
    expect(run({ ...preset, nic: { cc: { algorithm: "none" } } })).toBe(false); // Kmax 5500 but congestion control off
    expect(run({ ...preset, switch: { ecn: { kmin_bytes: 5000, kmax_bytes: 200000 } } })).toBe(false);
    expect(stepDone(asIs, { kind: "run_finished", runId: "r", doc: preset })).toBe(false); // preset not loaded yet
    expect(sameScenario(preset, { ...preset, description: "x" })).toBe(true);
  });

  it("compares each prediction with the run it asks about, not the latest run", () => {
    const predictions = [
      { id: "goodput", metric: "throughput_gbps", run: asIs },
      { id: "kmax-goodput", metric: "throughput_gbps", run: { kind: "run_finished" as const, path: "switch.ecn.kmax_bytes", value: 200000 } },
      { id: "ceiling", metric: null },
    ];
    const first = predictionResults(predictions, { kind: "run_finished", runId: "r1", doc: preset, summary: summary(20.94) }, preset);
    expect(first).toEqual({ goodput: { runId: "r1", value: 20.94 } });
    const kmax = { ...preset, switch: { ecn: { kmin_bytes: 5000, kmax_bytes: 200000 } } };
    const later = predictionResults(predictions, { kind: "run_finished", runId: "r2", doc: kmax, summary: summary(6.1) }, preset);
    expect(later).toEqual({ "kmax-goodput": { runId: "r2", value: 6.1 } }); // the preset prediction keeps r1
  });

  const lab = {
    slug: "lab1", title: "Lab 1", preset: "incast-2to1", time: "", body: "# Lab 1\n\ntext", instructor: "", questions: [],
    steps: [{ id: "open", text: "Open", check: null }],
    predictions: [{ id: "goodput", question: "What goodput will h0 receive?", unit: "Gbit/s", metric: "throughput_gbps", run: asIs, answer: "About 21 Gbit/s." }],
  } as unknown as Lab;
  const view = (progress: LabProgress) => render(
    <MemoryRouter><LabView lab={lab} progress={progress} presetHref={null} onToggleStep={() => {}} onPredict={() => {}} onClose={() => {}} /></MemoryRouter>);

  it("hides the answer until a prediction is saved, then shows it with the right run's result", () => {
    view({ done: {}, predictions: {} });
    expect(screen.queryByTestId("answer-goodput")).toBeNull();
    expect(screen.queryByText(/About 21 Gbit\/s/)).toBeNull();
  });

  it("says which run it waits for, then the result of that run", () => {
    const { unmount } = view({ done: {}, predictions: { goodput: "22" } });
    expect(screen.getByTestId("prediction-goodput")).toHaveTextContent("You predicted 22 Gbit/s; run the preset as it is to compare.");
    expect(screen.getByTestId("answer-goodput")).toHaveTextContent("Answer: About 21 Gbit/s.");
    unmount();
    view({ done: {}, predictions: { goodput: "22" }, results: { goodput: { runId: "r1", value: 20.9375 } } });
    expect(screen.getByTestId("prediction-goodput")).toHaveTextContent("You predicted 22 Gbit/s; the run of the preset as it is gave 20.94 Gbit/s.");
    expect(screen.getByRole("link", { name: "gave" })).toHaveAttribute("href", "/runs/r1");
  });

  it("asks for no command line in any lab: each step in the app, commands only as an aside (issue 22 §3)", () => {
    const dir = join(process.cwd(), "..", "docs", "labs");
    const labs = ["lab1-ecn-incast", "lab2-rdma-distance", "lab3-pfc-storm", "lab4-pingmesh", "lab5-dci-accelerator", "lab6-pfc-alpha", "lab7-ecmp-collisions", "lab8-erd-at-scale"];
    for (const slug of labs) {
      const text = readFileSync(join(dir, `${slug}.md`), "utf8");
      const body = text.split("\n---\n")[1].split("## Instructor notes")[0];
      const outside = body.split("\n").filter((l) => /python3 |fabricsim (run|expand|check)/.test(l) && !l.startsWith(">"));
      expect([slug, outside]).toEqual([slug, []]);
      expect([slug, /\(Answer:/.test(body)]).toEqual([slug, false]);
    }
  });

  it("keeps no answer in lab 1's text: answers live in the predictions and the instructor notes", () => {
    const text = readFileSync(join(process.cwd(), "..", "docs", "labs", "lab1-ecn-incast.md"), "utf8");
    const body = text.split("---\n")[2].split("## Instructor notes")[0];
    expect(body).not.toMatch(/\(Answer:|About 21 Gbit\/s|23\.1 Gbit\/s\.\)/);
    expect(text.split("## Instructor notes")[1]).toMatch(/23\.1 Gbit\/s/);
    // every step in the app; the command line only as an aside
    for (const line of body.split("\n").filter((l) => /python3|fabricsim/.test(l))) expect(line.startsWith("> ")).toBe(true);
  });
});

// Issue 37, section 3: every prediction is compared with its run (a job's metric too), and a
// passage of the text that gives an answer away stays hidden until the prediction is saved.
describe("answers in the text, hidden until the prediction is saved", () => {
  const labText = (slug: string) => readFileSync(join(process.cwd(), "..", "docs", "labs", `${slug}.md`), "utf8");
  const bodyOf = (text: string) => text.split("\n---\n")[1].split("## Instructor notes")[0];
  const visible = (body: string) => splitAnswers(body).filter((p) => p.kind === "text").map((p) => p.source).join("\n");

  it("splits the text at fenced answer blocks, each naming its predictions", () => {
    const parts = splitAnswers("a\n\n```answer x y\n- hidden 1\n```\n\nb\n```sh\nrun\n```\n");
    expect(parts.map((p) => p.kind)).toEqual(["text", "answer", "text"]);
    expect(parts[1]).toEqual({ kind: "answer", predictions: ["x", "y"], source: "- hidden 1" });
    expect(parts[2].source).toContain("```sh"); // other fences stay text
    expect(answerBlocks("```answer x\nA\n```\n```answer y\nB\n```\n```answer x\nC\n```\n", "x")).toBe("A\n\nC");
  });

  // lab 9's stated ring busbw and its share of the bound, as the text states them (validation/figures
  // writes them): the tests read them from the text instead of copying a figure that moves with the model
  const lab9Ring = /Measured: ([\d,.]+)<!--fig ai-rail\.ring\.busbw-->,\s+(\d+)<!--fig ai-rail\.ring\.of_bound-->/.exec(
    labText("lab9-collectives-rail"),
  )!;
  const [ringBusbw, ringShare] = [lab9Ring[1], lab9Ring[2]];
  const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

  it("shows none of the figures a prediction asks for before it is saved (labs 1, 2, 3 and 9)", () => {
    const hidden: [string, RegExp][] = [
      ["lab1-ecn-incast", /23\.1|20\.73|22\.59/],
      ["lab2-rdma-distance", /25 Gbit\/s at 10 km|25 \/ 3 \/ 0\.3|\| 3\.0 \|/],
      ["lab3-pfc-storm", /fall to 0/],
      ["lab9-collectives-rail", new RegExp(escaped(ringBusbw))],
    ];
    for (const [slug, figures] of hidden) {
      const body = bodyOf(labText(slug));
      expect([slug, figures.test(visible(body))]).toEqual([slug, false]);
      expect([slug, figures.test(body)]).toEqual([slug, true]); // kept, in an answer block
    }
  });

  const lab9Text = labText("lab9-collectives-rail");
  const lab9 = {
    slug: "lab9-collectives-rail", title: "Lab 9", preset: "ai-rail-allreduce", time: "", questions: [],
    body: bodyOf(lab9Text), instructor: lab9Text.split("## Instructor notes")[1],
    steps: [{ id: "open", text: "Open", check: null }],
    predictions: [
      { id: "ring-busbw", question: "What busbw will the ring reach?", unit: "Gbit/s", metric: "jobs.ring.busbw_gbps", run: { kind: "run_finished", preset: "ai-rail-allreduce" }, answer: "" },
      { id: "moe-jct", question: "How long will the all-to-all take?", unit: "us", metric: "jobs.moe.jct_us", run: { kind: "run_finished", preset: "ai-moe-alltoall" }, answer: "" },
    ],
  } as unknown as Lab;
  const view9 = (progress: LabProgress) => render(
    <MemoryRouter><LabView lab={lab9} progress={progress} presetHref={null} onToggleStep={() => {}} onPredict={() => {}} onClose={() => {}} /></MemoryRouter>);

  it("lab 9: the text hides the ring's measured busbw until its prediction is saved, then shows it and the run's value", () => {
    const { unmount } = view9({ done: {}, predictions: {} });
    expect(document.querySelector('[data-hidden-answer="ring-busbw"]')).toHaveTextContent("Hidden until you save your prediction: “What busbw will the ring reach?”");
    expect(screen.queryByText(new RegExp(escaped(ringBusbw)))).toBeNull();
    unmount();
    view9({ done: {}, predictions: { "ring-busbw": "1400" }, results: { "ring-busbw": { runId: "r9", value: 1482.31 } } });
    expect(document.querySelector('[data-answer="ring-busbw"]')).toHaveTextContent(`Measured: ${ringBusbw}, ${ringShare} %`);
    expect(screen.getByTestId("prediction-ring-busbw")).toHaveTextContent("You predicted 1400 Gbit/s; the run of the preset as it is gave 1,482.31 Gbit/s.");
    expect(screen.getByTestId("answer-ring-busbw")).toHaveTextContent(`Measured: ${ringBusbw}`);
    // the other prediction's passage stays hidden
    expect(document.querySelector('[data-hidden-answer="moe-jct"]')).not.toBeNull();
  });

  it("reads a job's metric by name, and runs of another preset 'as it is'", () => {
    const moe: Scenario = { ...NEW_SCENARIO, name: "moe", traffic: [{ kind: "collective", op: "all_to_all", algorithm: "direct", message_bytes: 33554432, job: "moe" }] };
    const metrics = runMetrics({ throughput_gbps: 1 }, [{ name: "moe", jct_us: 2366.2 } as { name: string }]);
    const predictions = [{ id: "moe-jct", metric: "jobs.moe.jct_us", run: { kind: "run_finished" as const, preset: "ai-moe-alltoall" } }];
    const signal = (doc: Scenario) => ({ kind: "run_finished" as const, runId: "m1", doc, metrics });
    // the lab's preset is another one: the run must be ai-moe-alltoall as it is
    expect(predictionResults(predictions, signal(moe), preset, { "ai-moe-alltoall": moe })).toEqual({ "moe-jct": { runId: "m1", value: 2366.2 } });
    expect(predictionResults(predictions, signal({ ...moe, switch: { load_balancing: "per_packet" } }), preset, { "ai-moe-alltoall": moe })).toEqual({});
    expect(predictionResults(predictions, signal(moe), preset, {})).toEqual({}); // not loaded yet
  });

  it("tells runs apart with `also` (lab 5: 512-byte messages with and without the accelerator)", () => {
    const base: Scenario = { ...preset, nic: { qp_depth: 92 }, topology: { ...preset.topology, accelerator: { enabled: false } } as Scenario["topology"], traffic: [{ kind: "perftest", src: "h0", dst: "h1", message_bytes: 512 }] };
    const withoutAccel = { kind: "run_finished" as const, path: "traffic.0.message_bytes", value: 512, also: { "nic.qp_depth": 92, "topology.accelerator.enabled": false } };
    const withAccel = { kind: "run_finished" as const, path: "topology.accelerator.enabled", value: true, also: { "traffic.0.message_bytes": 512, "traffic.0.iterations": null } };
    const on = { ...base, topology: { ...base.topology, accelerator: { enabled: true } } as Scenario["topology"] };
    const run = (doc: Scenario) => ({ kind: "run_finished" as const, runId: "r", doc });
    expect([stepDone(withoutAccel, run(base)), stepDone(withAccel, run(base))]).toEqual([true, false]);
    expect([stepDone(withoutAccel, run(on)), stepDone(withAccel, run(on))]).toEqual([false, true]);
    // null: unset or 0; the lossy run's 4000 iterations is not the accelerator's plain run
    const lossy = { ...on, traffic: [{ ...on.traffic![0], iterations: 4000 }] };
    expect(stepDone(withAccel, run(lossy))).toBe(false);
    expect(stepDone(withAccel, run({ ...on, traffic: [{ ...on.traffic![0], iterations: 0 }] }))).toBe(true);
  });
});
