// Issue 10: ERD's repair counters (flows[].erd) appear in the flows table only when a flow has them.
import { render, screen } from "@testing-library/react";
import type { FlowRecord } from "../../../lib/api/resultTypes";
import { FlowTable } from "./ResultTables";

const flow = (id: number, erd?: FlowRecord["erd"]): FlowRecord => ({
  id, src: "h0", dst: `h${id + 1}`, size_bytes: 131072, start_us: 0, fct_us: 180, ideal_fct_us: 11, slowdown: 16,
  bytes_delivered: 131072, goodput_gbps: 5.8, retransmits: 2, ...(erd ? { erd } : {}),
});

const table = (flows: FlowRecord[]) => render(
  <FlowTable flows={flows} selected={null} onSelect={() => {}} charted={new Set()} recorded={new Set()} onToggleChart={() => {}} />,
);

describe("flows table: ERD counters", () => {
  it("shows NACKs, out-of-order arrivals and the largest reorder buffer of ERD flows", () => {
    table([flow(0, { nacks_sent: 3, packets_nacked: 4, out_of_order_arrivals: 12, duplicate_arrivals: 0, max_reorder_packets: 70 })]);
    expect(screen.getByText("NACKs (erd)")).toBeInTheDocument();
    expect(screen.getByText("out of order")).toBeInTheDocument();
    expect(screen.getByText("max reorder")).toBeInTheDocument();
    expect(screen.getByText("70")).toBeInTheDocument();
    expect(screen.getByText("12")).toBeInTheDocument();
  });

  it("leaves them out when no flow is ERD", () => {
    table([flow(0), flow(1)]);
    expect(screen.queryByText("NACKs (erd)")).not.toBeInTheDocument();
    expect(screen.getByText("retransmits")).toBeInTheDocument();
  });
});
