// Issue 22 §4: a fork's share page lists its differences first, not buried among 60 rows.
import { render, screen } from "@testing-library/react";
import { ParamTable } from "./ParamTable";
import { NEW_SCENARIO } from "../editor/model";
import type { Scenario } from "../../../lib/scenario/types";

it("puts the changed parameters first under their own heading, then the rest by section", () => {
  const base: Scenario = { ...NEW_SCENARIO, switch: { ecn: { kmin_bytes: 5000, kmax_bytes: 5500 } } };
  const doc: Scenario = { ...base, switch: { ecn: { kmin_bytes: 5000, kmax_bytes: 200000 } } };
  const { container } = render(<ParamTable doc={doc} base={base} baseLabel="parent (incast)" />);
  const body = [...container.querySelectorAll("tbody tr")];
  expect(body[0].textContent).toBe("Differences from parent (incast)");
  expect(body[1].getAttribute("data-path")).toBe("switch.ecn.kmax_bytes");
  expect(body[1]).toHaveClass("changed");
  expect(body.slice(2).some((r) => r.classList.contains("changed"))).toBe(false);
  // issue 37: "1 parameter differs", "2 parameters differ"
  expect(screen.getByTestId("param-diff-count")).toHaveTextContent("1 parameter differs from parent (incast) (highlighted).");
});

it("says how many parameters differ in good English", () => {
  const base: Scenario = { ...NEW_SCENARIO, switch: { ecn: { kmin_bytes: 5000, kmax_bytes: 5500 } } };
  const doc: Scenario = { ...base, switch: { ecn: { kmin_bytes: 1000, kmax_bytes: 200000 } } };
  render(<ParamTable doc={doc} base={base} baseLabel="parent (incast)" />);
  expect(screen.getByTestId("param-diff-count")).toHaveTextContent("2 parameters differ from parent (incast) (highlighted).");
});
