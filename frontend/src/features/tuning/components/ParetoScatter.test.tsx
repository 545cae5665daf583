import { render, screen, within } from "@testing-library/react";
import { ParetoScatter } from "./ParetoScatter";
import type { EvaluationPublic, TuningResults } from "../api/tunings";
import { capitalise } from "../../../lib/format";

const ev = (id: number, strategy: string, a: number, b: number): EvaluationPublic => ({
  id, strategy, seq: id, batch: 0, point: [id], fidelity: 1, params: { kmin: id }, overrides: {}, status: "DONE",
  feasible: true, objectives: [{ mean: a, ci: 0 }, { mean: b, ci: 0 }], metrics: null, run_ids: [`r${id}`], error: null,
});

// Issue 22 §1: "the Pareto chart has a legend; the heading is capitalised".
describe("the tuning page's Pareto chart and heading", () => {
  const results = {
    objectives: ["throughput_gbps", "fct_p99_us"], goals: ["max", "min"], pareto: [1, 3],
    evaluations: [ev(1, "nsga2", 20, 100), ev(2, "nsga2", 15, 300), ev(3, "vendor", 23, 200)],
  } as unknown as TuningResults;

  it("has a legend naming each strategy's colour and what the front is", () => {
    render(<ParetoScatter results={results} onPick={() => {}} />);
    const legend = screen.getByRole("list", { name: "Legend" });
    const items = within(legend).getAllByRole("listitem").map((li) => li.textContent?.trim());
    expect(items).toEqual(["nsga2", "vendor", expect.stringMatching(/^Pareto front: large outlined dots, joined/)]);
    // the exported SVG and PNG draw the same legend (charts/save reads data-legend-*)
    expect(legend.querySelectorAll("[data-legend-label]")).toHaveLength(3);
    expect(legend.querySelector('[data-legend-label^="vendor"]')).toHaveAttribute("data-legend-color", "#d62728");
  });

  it("capitalises a heading such as an unnamed tuning's 'tuning of ...'", () => {
    expect(capitalise("tuning of 2-to-1 incast")).toBe("Tuning of 2-to-1 incast");
    expect(capitalise("")).toBe("");
  });
});
