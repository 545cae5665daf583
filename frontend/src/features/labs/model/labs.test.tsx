import { render, screen } from "@testing-library/react";
import { Markdown, parseBlocks } from "./markdown";
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
  it("parses headings, lists, code, tables and paragraphs", () => {
    const blocks = parseBlocks("# T\n\nSome *text*.\n\n1. one\n   more\n2. two\n\n```sh\nrun x\n```\n\n| a | b |\n|---|---|\n| 1 | 2 |\n");
    expect(blocks.map((b) => b.kind)).toEqual(["h", "p", "ol", "code", "table"]);
    expect(blocks[2]).toEqual({ kind: "ol", items: ["one more", "two"] });
  });

  it("renders inline markup as elements and never as HTML", () => {
    render(<Markdown source={"Use `fabricsim` **now** <img src=x onerror=alert(1)> [docs](javascript:alert(1))"} />);
    expect(screen.getByText("fabricsim").tagName).toBe("CODE");
    expect(screen.getByText("now").tagName).toBe("STRONG");
    expect(document.querySelector("img")).toBeNull();
    expect(screen.getByRole("link", { name: "docs" })).toHaveAttribute("href", "#");
  });
});
