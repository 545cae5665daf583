import type { components } from "./api/schema.gen";

/** The error measured for a flow-level run's kind of scenario (GET /runs/{id}/summary, flow_error;
 * backend/app/runs/flow-errors.json from docs/validation-flow.md). */
export type FlowError = components["schemas"]["FlowError"];

/** A card's figure as the errors file names it; null for figures the flow engine does not model. */
const FIGURES: Record<string, string | null> = {
  Throughput: "throughput_gbps",
  JCT: "jct_us",
  "Bus bandwidth": "busbw_gbps",
  "Algorithm bandwidth": "busbw_gbps", // algbw = busbw / the algorithm's factor: the same error
  "FCT p50": "slowdown_p50", // an FCT's error is its slowdown's (the same ideal FCT divides both)
  "FCT p99": "slowdown_p99",
  "Slowdown p99": "slowdown_p99",
  "Max queue": null,
  "ECN marks": null,
  "PFC pauses": null,
  Drops: null,
};

const pct = (x: number) => `${(100 * x).toFixed(x < 0.1 ? 1 : 0)} %`;

/**
 * What to say beside a figure of a flow-level run: how close to the packet model it was measured
 * to be on such scenarios ("flow-level estimate; within 4.8 % of packet level on collectives on
 * oversubscribed fabrics (7 scenarios; target 10 %)"), that the flow engine does not model it, or
 * that its error is unmeasured. Null for a packet-level run or a card with no such figure.
 */
export function flowErrorText(label: string, error: FlowError | null | undefined): string | null {
  if (!error || !(label in FIGURES)) return null;
  const figure = FIGURES[label];
  if (figure === null) return "not modelled at flow level (no queues, pauses or marks): 0";
  if (!error.applies) {
    return `flow-level estimate; its error is unmeasured with ${error.outside.join(", ")} (what it leaves out, above)`;
  }
  const measured = error.figures[figure];
  if (!measured) return `flow-level estimate; error not measured for this figure on ${error.label}`;
  const target = measured.target != null ? `; target ${pct(measured.target)}` : "";
  return `flow-level estimate; within ${pct(measured.max_abs_error)} of packet level on ${error.label} (${measured.cases} scenario${measured.cases === 1 ? "" : "s"}${target})`;
}

/** The cards with the measured error beside each figure (unchanged for a packet-level run). */
export function withFlowError<C extends { label: string }>(
  cards: C[],
  error: FlowError | null | undefined,
): (C & { estimate?: string | null })[] {
  return error ? cards.map((c) => ({ ...c, estimate: flowErrorText(c.label, error) })) : cards;
}

/** " ±7.1 %": the largest error measured on the figure for such scenarios; "" when none applies. */
export function errorBound(figure: string, error: FlowError | null | undefined): string {
  const measured = error?.applies ? error.figures[figure] : undefined;
  return measured ? ` ±${pct(measured.max_abs_error)}` : "";
}

/** What the ± beside an estimate's figures means, or why there is none. */
export function errorLegend(error: FlowError | null | undefined): string {
  if (!error) return "";
  if (!error.applies) {
    return `Its error against the packet model is unmeasured for a scenario with ${error.outside.join(", ")} (docs/validation-flow.md).`;
  }
  return `±: the largest error measured against the packet model on ${error.label} (docs/validation-flow.md).`;
}
