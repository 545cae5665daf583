import { render, screen, fireEvent } from "@testing-library/react";
import { ParamsPanel } from "./ParamsPanel";
import { TrafficPanel } from "./TrafficPanel";
import { NEW_SCENARIO } from "../editor/model";
import { tieredLayout } from "../../../lib/topology/layout";

describe("ParamsPanel", () => {
  it("shows units, the value in cells, and the API's error next to its field", () => {
    const onSet = vi.fn();
    const doc = { ...NEW_SCENARIO, switch: { ecn: { kmin_bytes: 500000 } } };
    render(<ParamsPanel doc={doc} errors={{ "switch.ecn.kmin_bytes": "must be <= kmax_bytes (400000)" }} onSet={onSet} />);
    const kmin = screen.getByLabelText("ECN Kmin (bytes)");
    expect(kmin).toHaveValue(500000);
    expect(kmin).toHaveAttribute("aria-invalid", "true");
    expect(screen.getByRole("alert")).toHaveTextContent("must be <= kmax_bytes (400000)");
    expect(screen.getByText("2,404 cells, 500 KB")).toBeInTheDocument();
    fireEvent.change(kmin, { target: { value: "20000" } });
    expect(onSet).toHaveBeenCalledWith("switch.ecn.kmin_bytes", 20000);
    fireEvent.change(kmin, { target: { value: "" } });
    expect(onSet).toHaveBeenLastCalledWith("switch.ecn.kmin_bytes", undefined);
  });
});

describe("TrafficPanel", () => {
  const graph = tieredLayout(
    [
      { id: "h0", kind: "host", tier: 0, group: "leaf0" },
      { id: "h1", kind: "host", tier: 0, group: "leaf0" },
      { id: "h2", kind: "host", tier: 0, group: "leaf1" },
      { id: "leaf0", kind: "switch", tier: 1 },
      { id: "leaf1", kind: "switch", tier: 1 },
    ],
    [],
  );
  it("adds generators, picks hosts by group and asks the canvas for picks", () => {
    const onAdd = vi.fn();
    const onUpdate = vi.fn();
    const onStartPick = vi.fn();
    const traffic = [{ kind: "incast" as const, senders: ["h1"], receiver: "h0", size_bytes: 0 }];
    render(<TrafficPanel traffic={traffic} graph={graph} errors={{ "traffic.0.senders.0": "unknown host 'h9'" }}
      onAdd={onAdd} onUpdate={onUpdate} onRemove={vi.fn()} onStartPick={onStartPick} />);
    expect(screen.getByRole("alert")).toHaveTextContent("unknown host 'h9'");
    fireEvent.change(screen.getByLabelText("Add a group to Senders"), { target: { value: "leaf1" } });
    expect(onUpdate).toHaveBeenCalledWith(0, { ...traffic[0], senders: ["h1", "h2"] });
    fireEvent.click(screen.getByRole("button", { name: "Pick on canvas" }));
    expect(onStartPick).toHaveBeenCalledWith({ label: "add to senders", index: 0, field: "senders", mode: "add" });
    fireEvent.change(screen.getByLabelText("Traffic kind"), { target: { value: "pingmesh" } });
    fireEvent.click(screen.getByRole("button", { name: "Add traffic" }));
    expect(onAdd).toHaveBeenCalledWith({ kind: "pingmesh", interval_us: 100, probe_bytes: 512 });
  });
});
