import { render, screen } from "@testing-library/react";
import { Markdown, guideHref } from "../../../components/Markdown";
import { effectiveValue, stepDone } from "./progress";
import { NEW_SCENARIO } from "../../scenarios/editor/model";
import type { Scenario } from "../../../lib/scenario/types";

const preset: Scenario = { ...NEW_SCENARIO, switch: { ecn: { kmin_bytes: 5000, kmax_bytes: 5500 } }, traffic: [{ kind: "perftest", src: "h0", dst: "h1", tx_depth: 92 }] };

describe("lab step checks", () => {
  it("ticks preset_opened only for the lab's preset", () => {
    const check = { kind: "preset_opened" as const, preset: "incast-2to1" };
    expect(stepDone(check, { kind: "preset_opened", preset: "incast-2to1" })).toBe(true);
    expect(stepDone(check, { kind: "preset_opened", preset: "dci-100km-perftest" })).toBe(false);
  });

  it("ticks param_changed at the value, or on any change from the preset", () => {
    const edited = { ...preset, switch: { ecn: { kmin_bytes: 5000, kmax_bytes: 200000 } } };
    expect(stepDone({ kind: "param_changed", path: "switch.ecn.kmax_bytes", value: 200000 }, { kind: "doc", doc: edited })).toBe(true);
    expect(stepDone({ kind: "param_changed", path: "switch.ecn.kmax_bytes", value: 200000 }, { kind: "doc", doc: preset })).toBe(false);
    expect(stepDone({ kind: "param_changed", path: "switch.ecn.kmax_bytes" }, { kind: "doc", doc: edited }, preset)).toBe(true);
    expect(stepDone({ kind: "param_changed", path: "switch.ecn.kmax_bytes" }, { kind: "doc", doc: preset }, preset)).toBe(false);
    const deeper = { ...preset, traffic: [{ ...preset.traffic![0], tx_depth: 2991 }] };
    expect(stepDone({ kind: "param_changed", path: "traffic.0.tx_depth", value: 2991 }, { kind: "doc", doc: deeper })).toBe(true);
  });

  it("ticks run_finished for a run whose scenario matches; unset NIC fields count as their default", () => {
    const check = { kind: "run_finished" as const, path: "nic.rto_us", value: 1000 };
    expect(effectiveValue(preset, "nic.rto_us")).toBe(1000);
    expect(stepDone(check, { kind: "run_finished", runId: "r", doc: preset })).toBe(true);
    expect(stepDone(check, { kind: "run_finished", runId: "r", doc: { ...preset, nic: { rto_us: 100000 } } })).toBe(false);
    expect(stepDone(check, { kind: "doc", doc: preset })).toBe(false);
    expect(stepDone({ kind: "run_finished" }, { kind: "run_finished", runId: "r", doc: preset })).toBe(true);
  });
});

describe("lab markdown", () => {
  it("renders headings, lists, code, tables and paragraphs through react-markdown", () => {
    const { container } = render(<Markdown source={"# T\n\nSome *text*.\n\n1. one\n   more\n2. two\n\n```sh\nrun x\n```\n\n| a | b |\n|---|---|\n| 1 | 2 |\n"} />);
    expect(container.querySelector("h2")?.textContent).toBe("T");
    expect(container.querySelector("em")?.textContent).toBe("text");
    expect(container.querySelector("pre code")?.textContent).toBe("run x\n");
    expect(container.querySelectorAll("td")).toHaveLength(2);
  });

  it("keeps a wrapped list item one item (issue 21 §4), lazy continuation lines included", () => {
    const { container } = render(<Markdown source={"1. Open the preset and\nrun it as it is.\n2. Change Kmax\n   to 200 KB.\n- a bullet that\n  wraps\n- another"} />);
    const items = [...container.querySelectorAll("li")].map((li) => li.textContent?.replace(/\s+/g, " ").trim());
    expect(items).toEqual(["Open the preset and run it as it is.", "Change Kmax to 200 KB.", "a bullet that wraps", "another"]);
  });

  it("links other docs to the app's /guide pages", () => {
    expect(guideHref("tuning.md")).toBe("/guide/tuning");
    expect(guideHref("../docs/presets.md#msft-deadlock")).toBe("/guide/presets#msft-deadlock");
    expect(guideHref("https://example.org/x.md")).toBe("https://example.org/x.md");
  });

  it("renders inline markup as elements and never as HTML", () => {
    render(<Markdown source={"Use `fabricsim` **now** <img src=x onerror=alert(1)> [docs](javascript:alert(1))"} />);
    expect(screen.getByText("fabricsim").tagName).toBe("CODE");
    expect(screen.getByText("now").tagName).toBe("STRONG");
    expect(document.querySelector("img")).toBeNull();
    expect(screen.getByRole("link", { name: "docs" })).toHaveAttribute("href", "#");
  });
});
