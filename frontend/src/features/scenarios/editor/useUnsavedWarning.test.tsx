import { act, render, screen } from "@testing-library/react";
import { Link, RouterProvider, createMemoryRouter, useNavigate } from "react-router";
import { UNSAVED_MESSAGE, useUnsavedWarning } from "./useUnsavedWarning";

function Editor({ dirty, saveFirst = false }: { dirty: boolean; saveFirst?: boolean }) {
  const { saved } = useUnsavedWarning(dirty);
  const navigate = useNavigate();
  return (
    <>
      <Link to="/runs/abc">a run</Link>
      <button type="button" onClick={() => { if (saveFirst) saved(); navigate("/sweeps/new"); }}>Sweep…</button>
    </>
  );
}

function setup(dirty: boolean, saveFirst = false) {
  const router = createMemoryRouter([
    { path: "/", element: <p>Home</p> },
    { path: "/editor", element: <Editor dirty={dirty} saveFirst={saveFirst} /> },
    { path: "/runs/:id", element: <p>Run page</p> },
    { path: "/sweeps/new", element: <p>New sweep</p> },
  ], { initialEntries: ["/", "/editor"], initialIndex: 1 });
  render(<RouterProvider router={router} />);
  return router;
}

describe("unsaved editor work", () => {
  afterEach(() => vi.restoreAllMocks());

  it("asks the browser to warn on reload or close only while dirty", () => {
    setup(false);
    const clean = new Event("beforeunload", { cancelable: true });
    window.dispatchEvent(clean);
    expect(clean.defaultPrevented).toBe(false);
  });

  it("asks the browser to warn on reload or close while dirty", () => {
    setup(true);
    const dirty = new Event("beforeunload", { cancelable: true });
    window.dispatchEvent(dirty);
    expect(dirty.defaultPrevented).toBe(true);
  });

  it("confirms before an in-app link leaves, and stays when the user says no", async () => {
    const confirm = vi.spyOn(window, "confirm").mockReturnValue(false);
    const router = setup(true);
    await act(async () => screen.getByText("a run").click());
    expect(confirm).toHaveBeenCalledWith(UNSAVED_MESSAGE);
    expect(router.state.location.pathname).toBe("/editor");
    confirm.mockReturnValue(true);
    await act(async () => screen.getByText("a run").click());
    expect(router.state.location.pathname).toBe("/runs/abc");
  });

  // Issue 22 §4: the browser's back button (a navigation inside the app) lost the edits silently.
  it("confirms before the back button leaves the editor", async () => {
    const confirm = vi.spyOn(window, "confirm").mockReturnValue(false);
    const router = setup(true);
    await act(async () => { await router.navigate(-1); });
    expect(confirm).toHaveBeenCalledWith(UNSAVED_MESSAGE);
    expect(router.state.location.pathname).toBe("/editor");
    confirm.mockReturnValue(true);
    await act(async () => { await router.navigate(-1); });
    expect(router.state.location.pathname).toBe("/");
  });

  it("leaves without asking when clean, or right after saving", async () => {
    const confirm = vi.spyOn(window, "confirm");
    const clean = setup(false);
    await act(async () => screen.getByText("Sweep…").click());
    expect(clean.state.location.pathname).toBe("/sweeps/new");
    expect(confirm).not.toHaveBeenCalled();
  });

  it("does not ask when the work was saved just before the navigation", async () => {
    const confirm = vi.spyOn(window, "confirm");
    const router = setup(true, true);
    await act(async () => screen.getByText("Sweep…").click());
    expect(router.state.location.pathname).toBe("/sweeps/new");
    expect(confirm).not.toHaveBeenCalled();
  });
});
