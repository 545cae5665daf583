import { render } from "@testing-library/react";
import { UNSAVED_MESSAGE, useUnsavedWarning } from "./useUnsavedWarning";

function Page({ dirty }: { dirty: boolean }) {
  useUnsavedWarning(dirty);
  return <a href="/runs/abc">a run</a>;
}

describe("unsaved editor work", () => {
  it("asks the browser to warn on reload or close only while dirty", () => {
    const { rerender } = render(<Page dirty={false} />);
    const clean = new Event("beforeunload", { cancelable: true });
    window.dispatchEvent(clean);
    expect(clean.defaultPrevented).toBe(false);
    rerender(<Page dirty />);
    const dirty = new Event("beforeunload", { cancelable: true });
    window.dispatchEvent(dirty);
    expect(dirty.defaultPrevented).toBe(true);
  });

  it("confirms before an in-app link leaves, and stays when the user says no", () => {
    const confirm = vi.spyOn(window, "confirm").mockReturnValue(false);
    const { getByText, rerender } = render(<Page dirty />);
    const stay = new MouseEvent("click", { bubbles: true, cancelable: true, button: 0 });
    getByText("a run").dispatchEvent(stay);
    expect(confirm).toHaveBeenCalledWith(UNSAVED_MESSAGE);
    expect(stay.defaultPrevented).toBe(true);
    confirm.mockReturnValue(true);
    const leave = new MouseEvent("click", { bubbles: true, cancelable: true, button: 0 });
    getByText("a run").dispatchEvent(leave);
    expect(leave.defaultPrevented).toBe(false);
    leave.preventDefault(); // jsdom would otherwise try to navigate
    confirm.mockClear();
    rerender(<Page dirty={false} />);
    getByText("a run").dispatchEvent(new MouseEvent("click", { bubbles: true, cancelable: true, button: 0 }));
    expect(confirm).not.toHaveBeenCalled();
    confirm.mockRestore();
  });
});
