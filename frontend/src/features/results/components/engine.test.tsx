import { render, screen } from "@testing-library/react";
import { EngineNotice, engineLabel } from "./EngineNotice";

// Issue 36: the run page says which engine answered and, for the flow engine, what it left out.
describe("the engine notice", () => {
  it("names the packet model for a packet-level run, with no caveats", () => {
    render(<EngineNotice info={{ engine: "ns-3.37" }} caveats={[]} />);
    expect(screen.getByTestId("engine")).toHaveTextContent("Answered by the packet-level model (ns-3.37).");
    expect(engineLabel({ engine: "flow" })).toBe("flow-level engine");
  });

  it("lists each caveat of a flow-level run with the field it comes from", () => {
    render(<EngineNotice info={{ engine: "flow" }} caveats={[
      { feature: "queues", field: "switch.buffer_bytes", message: "no queues" },
      { feature: "fault", field: "faults[0]", message: "link failures are not replayed" },
    ]} />);
    expect(screen.getByTestId("engine")).toHaveTextContent("flow-level engine");
    expect(screen.getByText("What it leaves out (2)")).toBeInTheDocument();
    const items = screen.getAllByRole("listitem");
    expect(items.map((li) => li.getAttribute("data-feature"))).toEqual(["queues", "fault"]);
    expect(items[1]).toHaveTextContent("faults[0]: link failures are not replayed");
  });
});
