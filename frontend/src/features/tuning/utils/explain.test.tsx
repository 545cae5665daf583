// Issue 22 §1: a tuning that explains its picks.
import { render, screen, within } from "@testing-library/react";
import type { TuningResults } from "../api/tunings";
import { ComparisonTable } from "../components/ComparisonTable";
import { describeTerms, fmtSetting, plannedEvaluations, scoreTerms, worseThan } from "./explain";

const est = (mean: number) => ({ mean, ci: 0 });
const row = (strategy: string, id: number, objective: number, tput: number, fct: number, q: number) => ({
  strategy, evaluation_id: id, evaluations: 1, objective: est(objective), throughput_gbps: est(tput), fct_p99_us: est(fct),
  queue_p99_bytes: est(q), max_queue_bytes: est(q * 2), ecn_marked_packets: est(10),
});
// incast-2to1, ByteTuning throughput-sensitive, beta 0.5: the grid's pick (Kmin 0) beats vendor
const results = {
  objectives: ["bytetuning_throughput"], goals: ["max"],
  objective_specs: [{ label: "bytetuning_throughput", kind: "bytetuning_throughput", metric: null, goal: "max", beta: 0.5, gamma: 1, formula: "sum over switches of [beta x min(1, util) + (1 - beta) x Q_min / max(Q_p99, Q_min)]" }],
  table: [row("vendor", 1, 0.62, 23.1, 425, 622300), row("grid", 2, 0.9, 13.23, 193, 1082)],
  picks: [
    { strategy: "vendor", evaluation_id: 1, params: {}, overrides: { "switch.ecn.kmin_bytes": 1040000, "switch.ecn.pmax": 0.2 }, objectives: [est(0.62)], beats: [] },
    { strategy: "grid", evaluation_id: 2, params: { kmin: 0, pmax: 50 }, overrides: {}, settings: { "switch.ecn.kmin_bytes": 0, "switch.ecn.kmax_bytes": 104000, "switch.ecn.pmax": 0.5 }, objectives: [est(0.9)], beats: ["vendor"] },
  ],
  evaluations: [
    { id: 1, metrics: { term_throughput_part: 0.5, term_queue_part: 0.12, term_fairness_penalty: 0 } },
    { id: 2, metrics: { term_throughput_part: 0.4, term_queue_part: 0.5, term_fairness_penalty: 0 } },
  ],
} as unknown as TuningResults;

describe("why a pick won", () => {
  it("splits the score into its terms with beta", () => {
    const t = scoreTerms({ term_throughput_part: 0.4, term_queue_part: 0.5, term_fairness_penalty: 0 })!;
    expect(describeTerms(t, results.objective_specs![0])).toBe("0.4 throughput part (β 0.5) + 0.5 queue part (1 − β = 0.5)");
    expect(scoreTerms({ throughput_gbps: 3 })).toBeNull();
    const lat = { ...results.objective_specs![0], kind: "bytetuning_latency", gamma: 2 };
    expect(describeTerms({ throughput: 1, queue: 0.5, fairness: 0.25 }, lat)).toMatch(/÷ \(1 \+ 0.25 unfairness, γ 2\)/);
  });
  it("says which raw metrics got worse than vendor", () => {
    expect(worseThan(results.table[1], results.table[0])).toEqual(["throughput 13.23 Gbit/s vs 23.1 Gbit/s"]);
    expect(worseThan(results.table[0], results.table[0])).toEqual([]);
  });
  it("gives settings in the model's units with their unit", () => {
    expect(fmtSetting("switch.ecn.kmin_bytes", 1040000)).toBe("ecn.kmin_bytes = 1.04 MB");
    expect(fmtSetting("switch.ecn.pmax", 0.5)).toBe("ecn.pmax = 50 %");
  });
  it("the table shows terms, 'better than vendor on' the objective, and what it gave up", () => {
    render(<ComparisonTable results={results} selected={null} onPick={() => {}} />);
    const grid = screen.getByRole("row", { name: /grid/ });
    expect(within(grid).getByText(/better than vendor on bytetuning_throughput/)).toBeInTheDocument();
    expect(within(grid).getByTestId("worse-than-vendor")).toHaveTextContent("worse than vendor on: throughput 13.23 Gbit/s vs 23.1 Gbit/s");
    expect(within(grid).getByText(/0.4 throughput part \(β 0.5\) \+ 0.5 queue part/)).toBeInTheDocument();
    expect(within(grid).getByText(/ecn.kmin_bytes = 0 B, ecn.kmax_bytes = 104 KB, ecn.pmax = 50 %/)).toBeInTheDocument();
    const vendor = document.querySelector<HTMLElement>("tr[data-strategy=vendor]")!;
    expect(within(vendor).getByText(/ecn.kmin_bytes = 1.04 MB/)).toBeInTheDocument();
  });
  it("progress totals are the real budget from the start", () => {
    const t = { space: { size: 12 }, spec: { strategies: [{ name: "grid", budget: 50 }, { name: "tpe", budget: 4 }, { name: "random", budget: 30 }, { name: "vendor", budget: 50 }] } } as never;
    expect(plannedEvaluations(t, "grid")).toBe(12);
    expect(plannedEvaluations(t, "tpe")).toBe(4);
    expect(plannedEvaluations(t, "random")).toBe(12);
    expect(plannedEvaluations(t, "vendor")).toBe(1);
  });
});
