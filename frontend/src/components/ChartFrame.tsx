import { useRef } from "react";
import { savePng, saveSvg } from "../lib/charts/save";

/**
 * A titled chart with "SVG" and "PNG" export buttons. The exported file carries the title, the
 * subtitle (run id and the like) and the legend, so it stands on its own in a slide or a mail.
 */
export function ChartFrame({ title, filename, children, actions, subtitle, id, note }: {
  title: string;
  filename: string;
  children: React.ReactNode;
  actions?: React.ReactNode;
  /** Written under the title in exported files (e.g. "run 3f2a… · fabricsim 0.1.0"). */
  subtitle?: string;
  /** Anchor id (cards link to it). */
  id?: string;
  /** A line under the header: what is plotted and how it was chosen. */
  note?: React.ReactNode;
}) {
  const ref = useRef<HTMLElement>(null);
  const labels = { title, subtitle };
  return (
    <section className="chart-frame" ref={ref} aria-label={title} id={id}>
      <header>
        <h3>{title}</h3>
        <div className="chart-actions">
          {actions}
          <button type="button" className="small" onClick={() => ref.current && saveSvg(ref.current, filename, labels)}>Save SVG</button>
          <button type="button" className="small" onClick={() => ref.current && void savePng(ref.current, filename, labels)}>Save PNG</button>
        </div>
      </header>
      {note && <p className="chart-note">{note}</p>}
      {children}
    </section>
  );
}
