import { fireEvent, render, screen } from "@testing-library/react";
import { FieldInput } from "./FieldInput";
import { NIC_FIELDS } from "../lib/scenario/fields";

describe("QP depth field", () => {
  const spec = NIC_FIELDS.find((f) => f.path === "qp_depth")!;

  it("takes a number of WQEs or the word bdp (NTT's QD = RTT x rate / frame)", () => {
    const onChange = vi.fn();
    render(<FieldInput spec={spec} value={undefined} placeholder={16} onChange={onChange} />);
    const input = screen.getByLabelText(/QP depth/);
    fireEvent.change(input, { target: { value: "bdp" } });
    expect(onChange).toHaveBeenLastCalledWith("bdp");
    fireEvent.change(input, { target: { value: "2991" } });
    expect(onChange).toHaveBeenLastCalledWith(2991);
  });

  it("shows a stored bdp", () => {
    render(<FieldInput spec={spec} value="bdp" onChange={() => {}} />);
    expect((screen.getByLabelText(/QP depth/) as HTMLInputElement).value).toBe("bdp");
  });
});
