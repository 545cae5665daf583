// Issue 37 §1: the editor says which DCQCN preset a scenario runs, and what the fields it leaves
// unset (the notification point's CNP spacing among them) take from it.
import { render, screen } from "@testing-library/react";
import { ParamsPanel } from "./ParamsPanel";
import { NEW_SCENARIO } from "../editor/model";
import type { Scenario } from "../../../lib/scenario/types";

const panel = (doc: Scenario) => render(<ParamsPanel doc={doc} errors={{}} onSet={() => {}} />);

it("names the default preset, nvidia-default, when the scenario names none", () => {
  panel({ ...NEW_SCENARIO, nic: {} });
  expect(screen.getByTestId("cc-preset-in-use")).toHaveTextContent("nvidia-default");
  expect(screen.getByRole("spinbutton", { name: /CNP interval/ })).toHaveAttribute("placeholder", "from nvidia-default");
  expect(screen.getByRole("combobox", { name: /DCQCN preset/ })).toHaveDisplayValue("default (nvidia-default)");
});

it("names the scenario's own preset", () => {
  panel({ ...NEW_SCENARIO, nic: { cc: { preset: "dcqcn-paper" } } });
  expect(screen.getByTestId("cc-preset-in-use")).toHaveTextContent("dcqcn-paper");
  expect(screen.getByRole("spinbutton", { name: /CNP interval/ })).toHaveAttribute("placeholder", "from dcqcn-paper");
});
