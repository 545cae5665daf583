import { useRef } from "react";
import { savePng, saveSvg } from "../lib/charts/save";

/** A titled chart with "SVG" and "PNG" export buttons. */
export function ChartFrame({ title, filename, children, actions }: {
  title: string;
  filename: string;
  children: React.ReactNode;
  actions?: React.ReactNode;
}) {
  const ref = useRef<HTMLElement>(null);
  return (
    <section className="chart-frame" ref={ref} aria-label={title}>
      <header>
        <h3>{title}</h3>
        <div className="chart-actions">
          {actions}
          <button type="button" className="small" onClick={() => {
            const svg = ref.current?.querySelector("svg");
            if (svg) saveSvg(svg, filename);
          }}>Save SVG</button>
          <button type="button" className="small" onClick={() => ref.current && void savePng(ref.current, filename)}>Save PNG</button>
        </div>
      </header>
      {children}
    </section>
  );
}
