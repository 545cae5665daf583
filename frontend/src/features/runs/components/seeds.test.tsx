import { fireEvent, render, screen } from "@testing-library/react";
import { RunLauncher, readSeeds } from "./RunLauncher";

// Issue 22 §4: "the seeds box greys Run out with no message for 1-100 or abc (show the syntax
// and the 64-seed limit)".
describe("the seeds box says what is wrong", () => {
  it("names the syntax and the limit GET /runs/limits serves", () => {
    expect(readSeeds("1-100", 64)).toEqual({ error: "Seeds: 1-100 is 100 seeds; one run request takes at most 64" });
    expect(readSeeds("abc", 64)).toEqual({ error: 'Seeds: "abc" is not a seed; use whole numbers and ranges, e.g. 1, 2, 5-7 (at most 64 seeds)' });
    expect(readSeeds("7-3", 64)).toEqual({ error: "Seeds: the range 7-3 runs backwards; write 3-7" });
    expect(readSeeds("1-40, 50-90", 64)).toEqual({ error: "Seeds: more than 64 seeds; one run request takes at most 64" });
    expect(readSeeds(" ", 64)).toEqual({ error: "Seeds: enter whole numbers and ranges, e.g. 1, 2, 5-7 (at most 64 seeds)" });
    expect(readSeeds("1-64", 64)).toEqual({ seeds: Array.from({ length: 64 }, (_, i) => i + 1) });
    expect(readSeeds("1-3", 2)).toEqual({ error: "Seeds: 1-3 is 3 seeds; one run request takes at most 2" });
  });

  it("leaves the count to the API while the limit loads, and refuses a seed above the scenario's largest", () => {
    expect(readSeeds("1-100")).toEqual({ seeds: Array.from({ length: 100 }, (_, i) => i + 1) });
    expect(readSeeds("abc")).toEqual({ error: 'Seeds: "abc" is not a seed; use whole numbers and ranges, e.g. 1, 2, 5-7' });
    expect(readSeeds("2147483647")).toEqual({ seeds: [2147483647] });
    expect(readSeeds("2147483648")).toEqual({ error: "Seeds: 2,147,483,648 is above the largest seed, 2,147,483,647" });
  });

  it("shows the message beside the box while Run is disabled, and drops it once the text is right", () => {
    render(<RunLauncher busy={false} onRun={() => {}} maxSeeds={64} />);
    const box = screen.getByRole("textbox", { name: /Seeds/ });
    fireEvent.change(box, { target: { value: "1-100" } });
    expect(screen.getByRole("button", { name: "Run" })).toBeDisabled();
    expect(screen.getByRole("alert")).toHaveTextContent("1-100 is 100 seeds; one run request takes at most 64");
    expect(box).toHaveAccessibleDescription(/at most 64/);
    fireEvent.change(box, { target: { value: "1-5" } });
    expect(screen.queryByRole("alert")).toBeNull();
    expect(screen.getByRole("button", { name: "Run" })).toBeEnabled();
  });
});
