import { render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { ReportTable } from "./ReportTable";
import type { ReportEntry } from "../api/realFabric";

const entries: ReportEntry[] = [
  { status: "mapped", source: "tor1: BUFFER_PROFILE|pg.dynamic_th", value: "-3", parameter: "switch.pfc.alpha", converted: 0.125, conversion: "alpha = 2^dynamic_th = 2^-3", note: null },
  { status: "read", source: "tor1: PORT.speed", value: "6 ports at 100, 400 Gbit/s", parameter: null, converted: null, conversion: null, note: "groups ports by link rate" },
  { status: "ignored", source: "tor1: LOOPBACK_INTERFACE", value: "1 entries", parameter: null, converted: null, conversion: null, note: "not a table the model has settings for" },
  { status: "kept", source: null, value: null, parameter: "switch.cell_bytes", converted: 208, conversion: null, note: "the ASIC's cell size is not configurable" },
];

describe("ReportTable", () => {
  it("lists every field with what became of it", () => {
    render(<ReportTable entries={entries} />);
    const table = screen.getByTestId("import-report");
    const rows = within(table).getAllByRole("row").slice(1);
    expect(rows.map((r) => r.getAttribute("data-status"))).toEqual(["mapped", "read", "ignored", "kept"]);
    expect(within(rows[0]).getByText("switch.pfc.alpha")).toBeInTheDocument();
    expect(within(rows[0]).getByText("0.125")).toBeInTheDocument();
    expect(within(rows[0]).getByText("alpha = 2^dynamic_th = 2^-3")).toBeInTheDocument();
    expect(within(rows[3]).getByText("208")).toBeInTheDocument();
    expect(screen.getByText(/set a parameter \(1\)/)).toBeInTheDocument();
  });

  it("hides a status when its box is cleared", async () => {
    render(<ReportTable entries={entries} />);
    await userEvent.click(screen.getByRole("checkbox", { name: /ignored/ }));
    const rows = within(screen.getByTestId("import-report")).getAllByRole("row").slice(1);
    expect(rows.map((r) => r.getAttribute("data-status"))).toEqual(["mapped", "read", "kept"]);
  });
});
