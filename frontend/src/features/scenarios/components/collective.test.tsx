import { fireEvent, render, screen, within } from "@testing-library/react";
import { TrafficPanel } from "./TrafficPanel";
import { rangeHint, withOp, withRankMode } from "./CollectiveFields";
import { tieredLayout } from "../../../lib/topology/layout";
import type { TrafficGenerator } from "../../../lib/scenario/types";
import type { ExpandNode } from "../../../lib/topology/types";

// rail_optimized {units: 1, servers_per_unit: 2, nics_per_server: 2}: s0 = h0 h1, s1 = h2 h3
const nodes: ExpandNode[] = [
  { id: "leaf0_0", kind: "switch", tier: 1 }, { id: "leaf0_1", kind: "switch", tier: 1 },
  ...[0, 1, 2, 3].map((h) => ({ id: `h${h}`, kind: "host" as const, tier: 0, group: `leaf0_${h % 2}`, server: `s${h >> 1}`, rail: h % 2 })),
];
const graph = tieredLayout(nodes, []);

function renderPanel(traffic: TrafficGenerator[]) {
  const onUpdate = vi.fn();
  const onAdd = vi.fn();
  render(<TrafficPanel traffic={traffic} graph={graph} errors={{ "traffic.0.algorithm": "'tree' does not run all_gather" }} onAdd={onAdd} onUpdate={onUpdate} onRemove={vi.fn()} onStartPick={vi.fn()} />);
  return { onUpdate, onAdd };
}

describe("the collective generator in the editor", () => {
  it("is offered, and adds an all-reduce over every host with the default algorithm", () => {
    const { onAdd } = renderPanel([]);
    fireEvent.change(screen.getByLabelText("Traffic kind"), { target: { value: "collective" } });
    fireEvent.click(screen.getByRole("button", { name: "Add traffic" }));
    expect(onAdd).toHaveBeenCalledWith({ kind: "collective", op: "all_reduce", algorithm: "ring", message_bytes: 8_000_000 });
  });

  it("offers only the algorithms that run the op, and shows the field's error next to it", () => {
    const gen: TrafficGenerator = { kind: "collective", op: "all_gather", algorithm: "ring", message_bytes: 1000 };
    const { onUpdate } = renderPanel([gen]);
    const alg = screen.getByLabelText(/^Algorithm/);
    expect(within(alg).getAllByRole("option").map((o) => o.getAttribute("value"))).toEqual(["ring", "halving_doubling"]);
    expect(screen.getByText("'tree' does not run all_gather")).toHaveClass("field-error");
    fireEvent.change(screen.getByLabelText("Operation"), { target: { value: "all_to_all" } });
    expect(onUpdate).toHaveBeenLastCalledWith(0, { ...gen, op: "all_to_all", algorithm: "direct" });
    // a collective's QPs are its channels: no QPs-per-flow input
    expect(screen.queryByLabelText(/^QPs per flow/)).toBeNull();
    fireEvent.change(screen.getByLabelText(/^Channels/), { target: { value: "8" } });
    expect(onUpdate).toHaveBeenLastCalledWith(0, { ...gen, channels: 8 });
  });

  it("takes its ranks from every host, a host list, or servers with a placement", () => {
    const gen: TrafficGenerator = { kind: "collective", op: "all_reduce", message_bytes: 1000 };
    const { onUpdate } = renderPanel([gen]);
    expect(screen.getByLabelText("Ranks")).toHaveValue("all");
    fireEvent.change(screen.getByLabelText("Ranks"), { target: { value: "servers" } });
    expect(onUpdate).toHaveBeenLastCalledWith(0, { ...gen, servers: 2, placement: "packed" });
    fireEvent.change(screen.getByLabelText("Ranks"), { target: { value: "hosts" } });
    expect(onUpdate).toHaveBeenLastCalledWith(0, { ...gen, hosts: ["h0", "h1", "h2", "h3"] });
  });

  it("keeps an algorithm the new op runs, and never sends hosts and servers together", () => {
    const g: TrafficGenerator = { kind: "collective", op: "all_reduce", algorithm: "halving_doubling", message_bytes: 8 };
    expect(withOp(g, "reduce_scatter").algorithm).toBe("halving_doubling");
    expect(withOp(g, "broadcast").algorithm).toBe("ring");
    const placed = withRankMode({ ...g, hosts: ["h0", "h1"] }, "servers", ["h0", "h1"], 0);
    expect(placed.hosts).toBeUndefined();
    expect(placed.servers).toBe(1);
    expect(withRankMode(placed, "all", [], 0)).toEqual(g);
  });

  it("states the contract's ranges", () => {
    expect(rangeHint("channels")).toBe("1 .. 64");
    expect(rangeHint("iterations")).toBe("1 .. 1,000");
    expect(rangeHint("message_bytes")).toBe("at least 1");
  });
});
