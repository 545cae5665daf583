import { fireEvent, render, screen, within } from "@testing-library/react";
import { TrafficPanel } from "./TrafficPanel";
import { tieredLayout } from "../../../lib/topology/layout";
import type { TrafficGenerator } from "../../../lib/scenario/types";
import type { ExpandNode } from "../../../lib/topology/types";

// three_tier {podsets: 2, tors_per_podset: 2, hosts_per_tor: 2} as `fabricsim expand` names it
const nodes: ExpandNode[] = [];
for (let p = 0; p < 2; p += 1)
  for (let t = 0; t < 2; t += 1) {
    nodes.push({ id: `tor${p}_${t}`, kind: "switch", tier: 1, group: `podset${p}` });
    for (let h = 0; h < 2; h += 1) nodes.push({ id: `h${p * 4 + t * 2 + h}`, kind: "host", tier: 0, group: `tor${p}_${t}` });
  }
const graph = tieredLayout(nodes, []);

// the three-tier preset's generators (backend/app/presets/data/04-three-tier-podsets.json)
const torPairs: TrafficGenerator = {
  kind: "pairs", name: "podset 0 <-> podset 1",
  tor_pairs: [["tor0_0", "tor1_0"], ["tor0_1", "tor1_1"], ["tor1_0", "tor0_0"], ["tor1_1", "tor0_1"]], size_bytes: 0,
};

function renderPanel(traffic: TrafficGenerator[]) {
  const onUpdate = vi.fn();
  render(<TrafficPanel traffic={traffic} graph={graph} errors={{}} onAdd={vi.fn()} onUpdate={onUpdate} onRemove={vi.fn()} onStartPick={vi.fn()} />);
  return onUpdate;
}

describe("traffic panel: every generator of the format is editable", () => {
  it("lists the three-tier preset's tor_pairs and offers ToR switches, not hosts", () => {
    const onUpdate = renderPanel([torPairs]);
    expect(screen.getByLabelText("Pairs of")).toHaveValue("tor");
    const list = screen.getByRole("list", { name: "ToR pairs" });
    expect(within(list).getAllByRole("listitem").map((li) => li.textContent?.replace(" ×", ""))).toEqual([
      "tor0_0 → tor1_0", "tor0_1 → tor1_1", "tor1_0 → tor0_0", "tor1_1 → tor0_1",
    ]);
    const src = screen.getByLabelText("Pair source");
    const dst = screen.getByLabelText("Pair destination");
    expect(within(src).getAllByRole("option").map((o) => o.textContent)).toEqual(["tor0_0", "tor0_1", "tor1_0", "tor1_1"]);
    // the default choice is two different ends, never "x -> x"
    expect(src).toHaveValue("tor0_0");
    expect(dst).toHaveValue("tor0_1");
    fireEvent.click(screen.getByRole("button", { name: "Add pair" }));
    expect(onUpdate).toHaveBeenLastCalledWith(0, { ...torPairs, tor_pairs: [...(torPairs.tor_pairs as string[][]), ["tor0_0", "tor0_1"]] });
  });

  it("says why a pair with the same source and destination is not added", () => {
    const gen: TrafficGenerator = { kind: "pairs", pairs: [["h0", "h4"]], size_bytes: 0 };
    const onUpdate = renderPanel([gen]);
    fireEvent.change(screen.getByLabelText("Pair source"), { target: { value: "h2" } });
    fireEvent.change(screen.getByLabelText("Pair destination"), { target: { value: "h2" } });
    fireEvent.click(screen.getByRole("button", { name: "Add pair" }));
    expect(onUpdate).not.toHaveBeenCalled();
    expect(screen.getByRole("status")).toHaveTextContent("A pair needs two different ends: h2 cannot send to itself.");
    fireEvent.change(screen.getByLabelText("Pair destination"), { target: { value: "h4" } });
    fireEvent.change(screen.getByLabelText("Pair source"), { target: { value: "h0" } });
    fireEvent.click(screen.getByRole("button", { name: "Add pair" }));
    expect(screen.getByRole("status")).toHaveTextContent("h0 → h4 is already in the list.");
  });

  it("switches between host pairs and ToR pairs", () => {
    const onUpdate = renderPanel([torPairs]);
    fireEvent.change(screen.getByLabelText("Pairs of"), { target: { value: "host" } });
    expect(onUpdate).toHaveBeenCalledWith(0, { kind: "pairs", name: "podset 0 <-> podset 1", pairs: [], size_bytes: 0 });
  });

  it("shows the fields of every kind, including perftest tx_depth, workload stop and a custom CDF", () => {
    const all: TrafficGenerator[] = [
      { kind: "incast", senders: ["h1"], receiver: "h0" },
      { kind: "pairs", pairs: [["h0", "h1"]] },
      { kind: "permutation" },
      { kind: "all_to_all" },
      { kind: "perftest", src: "h0", dst: "h4", tx_depth: 92 },
      { kind: "workload", distribution: "custom", cdf: [[1000, 50], [10000, 100]], load: 0.4 },
      { kind: "pingmesh", interval_us: 50 },
    ];
    const onUpdate = renderPanel(all);
    const group = (i: number) => document.querySelectorAll<HTMLElement>("fieldset.generator")[i];
    expect(within(group(4)).getByLabelText(/^TX depth/)).toHaveValue(92);
    expect(within(group(5)).getByLabelText("Custom CDF")).toHaveValue("1000 50\n10000 100");
    expect(within(group(5)).getByLabelText(/^Stop/)).toBeInTheDocument();
    expect(within(group(6)).getByLabelText(/^Interval/)).toHaveValue(50);
    for (let i = 0; i < all.length; i += 1) {
      expect(within(group(i)).getByLabelText(/^QPs per flow/)).toBeInTheDocument();
      expect(within(group(i)).getByLabelText(/^Priority/)).toBeInTheDocument();
      expect(within(group(i)).getByLabelText(/^Start/)).toBeInTheDocument();
    }
    fireEvent.change(within(group(4)).getByLabelText(/^TX depth/), { target: { value: "2991" } });
    expect(onUpdate).toHaveBeenLastCalledWith(4, { ...all[4], tx_depth: 2991 });
  }, 60_000); // jsdom label queries over seven generators are slow on a loaded machine
});
