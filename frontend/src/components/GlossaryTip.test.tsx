import { act, fireEvent, render, screen } from "@testing-library/react";
import { GlossaryTip, Term, placeTip } from "./GlossaryTip";
import { SummaryCards, summaryCards } from "../features/results/components/SummaryCards";
import { runWindows } from "../features/results/utils/derive";
import type { ResultSummary } from "../lib/api/resultTypes";

// Issue 22 §3: the glossary tooltip was cut off at the left panel's edge, closed when "i" was
// clicked, and on a phone a tap opened and closed it at once.
const tip = () => screen.getByRole("tooltip", { hidden: true });
const isOpen = () => tip().classList.contains("open");

describe("glossary tooltip: hover, keyboard, click and tap", () => {
  it("opens on mouse hover and closes when the mouse leaves", () => {
    render(<GlossaryTip term="switch.ecn.kmin_bytes" />);
    const button = screen.getByRole("button", { name: "About ECN Kmin" });
    fireEvent.pointerEnter(button, { pointerType: "mouse" });
    expect(isOpen()).toBe(true);
    fireEvent.pointerLeave(button, { pointerType: "mouse" });
    expect(isOpen()).toBe(false);
  });

  it("stays open when the hovered i is clicked, and the click pins it after the mouse leaves", () => {
    render(<GlossaryTip term="switch.ecn.kmin_bytes" />);
    const button = screen.getByRole("button", { name: "About ECN Kmin" });
    fireEvent.pointerEnter(button, { pointerType: "mouse" });
    fireEvent.pointerDown(button, { pointerType: "mouse" });
    fireEvent.focus(button);
    fireEvent.click(button);
    expect(isOpen()).toBe(true);
    fireEvent.pointerLeave(button, { pointerType: "mouse" });
    expect(isOpen()).toBe(true);
    fireEvent.click(button);
    expect(isOpen()).toBe(false);
  });

  it("a tap on a phone opens it (synthetic hover, focus, click) and the next tap closes it", () => {
    render(<GlossaryTip term="switch.pfc.alpha" />);
    const button = screen.getByRole("button", { name: /About PFC dynamic threshold alpha/ });
    fireEvent.pointerEnter(button, { pointerType: "touch" });
    fireEvent.pointerDown(button, { pointerType: "touch" });
    fireEvent.mouseEnter(button);
    fireEvent.focus(button);
    fireEvent.click(button);
    expect(isOpen()).toBe(true);
    fireEvent.pointerDown(button, { pointerType: "touch" });
    fireEvent.click(button);
    expect(isOpen()).toBe(false);
  });

  it("a tap elsewhere closes a pinned tooltip", () => {
    render(<><GlossaryTip term="switch.pfc.alpha" /><p>elsewhere</p></>);
    const button = screen.getByRole("button", { name: /About PFC/ });
    fireEvent.pointerDown(button, { pointerType: "touch" });
    fireEvent.click(button);
    expect(isOpen()).toBe(true);
    act(() => { fireEvent.pointerDown(screen.getByText("elsewhere")); });
    expect(isOpen()).toBe(false);
  });

  it("opens on keyboard focus, closes on Escape, and describes the button", () => {
    render(<GlossaryTip term="switch.ecn.kmax_bytes" />);
    const button = screen.getByRole("button", { name: "About ECN Kmax" });
    fireEvent.focus(button);
    expect(isOpen()).toBe(true);
    expect(button).toHaveAttribute("aria-expanded", "true");
    expect(button).toHaveAccessibleDescription(/Queue length where the marking probability reaches Pmax/);
    fireEvent.keyDown(button, { key: "Escape" });
    expect(isOpen()).toBe(false);
  });

  it("lives on document.body, outside any panel whose overflow would cut it off", () => {
    const { container } = render(<div className="params-panel" style={{ overflow: "auto" }}><GlossaryTip term="switch.ecn.pmax" /></div>);
    expect(container.contains(tip())).toBe(false);
    expect(tip().parentElement).toBe(document.body);
  });
});

describe("placeTip: inside the viewport", () => {
  const rect = (left: number, top: number) => ({ left, top, right: left + 16, bottom: top + 16, width: 16, height: 16, x: left, y: top, toJSON: () => ({}) }) as DOMRect;
  it("below the anchor, moved left so the right edge stays on screen", () => {
    expect(placeTip(rect(300, 100), { width: 280, height: 120 }, { width: 390, height: 844 })).toEqual({ left: 102, top: 120, width: 280 });
  });
  it("narrower than a small screen, and above the anchor when there is no room below", () => {
    expect(placeTip(rect(10, 800), { width: 280, height: 120 }, { width: 200, height: 844 })).toEqual({ left: 8, top: 676, width: 184 });
  });
});

describe("<Term>: the words of result cards explain themselves", () => {
  it("underlines a known term and shows its glossary entry on focus", () => {
    render(<p>Watch the <Term term="term.pfc">PFC</Term> pauses</p>);
    const word = screen.getByRole("button", { name: "PFC" });
    fireEvent.focus(word);
    expect(tip()).toHaveTextContent(/pause frame upstream/);
  });

  it("is plain text for a term the glossary lacks", () => {
    render(<p><Term term="term.nope">whatever</Term></p>);
    expect(screen.queryByRole("button")).toBeNull();
    expect(screen.getByText("whatever")).toBeInTheDocument();
  });

  it("explains every metric card of a run (PFC, ECN, FCT, slowdown, queue, drops)", () => {
    const summary = { throughput_gbps: 20, fct_us: { count: 1, p50: 10, p99: 20, mean: 12 }, ecn_marked_packets: 5, pfc_pauses_sent: 2, drops: { total: 0 } } as unknown as ResultSummary;
    render(<SummaryCards cards={summaryCards(summary, runWindows(undefined, undefined))} />);
    for (const name of ["Throughput", "FCT p50", "FCT p99", "Slowdown p99", "Max queue", "ECN marks", "PFC pauses", "Drops"]) {
      expect(screen.getByRole("button", { name }), name).toHaveAttribute("data-term");
    }
    fireEvent.focus(screen.getByRole("button", { name: "PFC pauses" }));
    expect(screen.getAllByRole("tooltip", { hidden: true }).find((t) => t.classList.contains("open"))).toHaveTextContent(/XOFF threshold/);
  });
});
