import { describe, expect, it, vi } from "vitest";
import { render } from "@testing-library/react";
import { scaleSequential } from "d3-scale";
import { interpolateViridis } from "d3-scale-chromatic";
import { ColorLegend } from "../../components/ColorLegend";
import { collectFigures, frameNotes } from "./collect";
import { figuresHtml, tableText } from "./html";

/** A page piece shaped like TopologyOverlay's frame: a canvas, a metric picker, a legend, a swatch note. */
function FabricFrame() {
  const color = scaleSequential(interpolateViridis).domain([0, 100]);
  return (
    <section className="chart-frame" aria-label="Fabric overlay">
      <label>Colour links by{" "}<select defaultValue="ecn"><option value="utilization">Utilization</option><option value="ecn">ECN marks</option></select></label>
      <canvas width={10} height={10} />
      <div className="row overlay-legend">
        <ColorLegend color={color} label="ECN-marked packets" />
        <span className="swatch-note"><span className="swatch" /> not recorded</span>
      </div>
    </section>
  );
}

describe("report figures", () => {
  it("gives a painted fabric its colour legend and what the colours mean", async () => {
    // jsdom paints nothing: the picture's bytes are not the point here, its key is
    const toDataURL = vi.spyOn(HTMLCanvasElement.prototype, "toDataURL").mockReturnValue("data:image/png;base64,AAAA");
    const { container } = render(<div><FabricFrame /><section className="chart-frame" aria-label="Ports table"><table /></section></div>);
    const { charts, images } = await collectFigures(container as HTMLElement, "run r1");
    toDataURL.mockRestore();
    expect(charts).toEqual([]); // the table frame has no picture
    expect(images).toHaveLength(1);
    expect(images[0].title).toBe("Fabric overlay");
    expect(images[0].legends).toHaveLength(1);
    expect(images[0].legends![0]).toContain("Legend: ECN-marked packets from 0 to 100");
    expect(images[0].notes).toEqual(["Colour links by: ECN marks", "grey: not recorded"]);
    const html = figuresHtml(charts, images);
    expect(html).toContain('<figcaption>Fabric overlay</figcaption><img alt="Fabric overlay" src="data:image/png;base64,AAAA"><div class="legends"><svg');
    expect(html).toContain("linearGradient");
    expect(html).toContain('<p class="fig-note">Colour links by: ECN marks</p>');
  });

  it("reads a picker named by its aria-label when its label has no text of its own", () => {
    const { container } = render(<section><select aria-label="Difference metric" defaultValue="b"><option value="a">A</option><option value="b">PFC pauses</option></select></section>);
    expect(frameNotes(container.firstChild as HTMLElement)).toEqual(["Difference metric: PFC pauses"]);
  });

  it("keeps a chart's SVG inline with its title and leaves the line-swatch legend to the export", async () => {
    const { container } = render(
      <section className="chart-frame" aria-label="Queue occupancy (bytes)">
        <svg className="chart-svg" width={300} height={100}><path className="series-line" d="M0,0L1,1" /></svg>
        <ul><li data-legend-label="leaf0->h0" data-legend-color="#123456"><svg className="line-swatch" /></li></ul>
      </section>,
    );
    const { charts, images } = await collectFigures(container as HTMLElement, "run r1");
    expect(images).toEqual([]);
    expect(charts).toHaveLength(1);
    expect(charts[0].svg).toContain("Queue occupancy (bytes)");
    expect(charts[0].svg).toContain("leaf0-&gt;h0");
    expect(charts[0].svg).toContain('class="series-line"');
  });

  it("leaves out a table's column of buttons", () => {
    const { container } = render(
      <table>
        <thead><tr><th>strategy</th><th>objective</th><th /></tr></thead>
        <tbody><tr><td>grid</td><td>1.5 ± 0.2</td><td><button type="button">Select</button></td></tr></tbody>
      </table>,
    );
    expect(tableText(container.querySelector("table"))).toEqual([["strategy", "objective"], ["grid", "1.5 ± 0.2"]]);
  });
});

describe("a chart with a painted layer", () => {
  it("leaves the foreignObject out of the composed SVG, so drawing it does not taint the PNG", async () => {
    const { composeExport } = await import("../charts/save");
    const { container } = render(
      <section className="chart-frame" aria-label="Objective">
        <svg width={200} height={100}><g><foreignObject width={100} height={50}><canvas /></foreignObject><g className="heatmap-mark" /></g></svg>
      </section>,
    );
    const out = composeExport(container.firstChild as HTMLElement, { title: "Objective" })!;
    expect(out.svg).not.toMatch(/foreignObject/i);
    expect(out.svg).toContain('class="heatmap-mark"');
  });
});
