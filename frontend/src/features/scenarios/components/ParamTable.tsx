import { useState } from "react";
import { parameterRows } from "../../../lib/scenario/paramTable";
import type { Scenario } from "../../../lib/scenario/types";
import { GlossaryTip } from "../../../components/GlossaryTip";

/** Every parameter of a scenario next to its parent's (or the defaults), differences highlighted. */
export function ParamTable({ doc, base, baseLabel }: { doc: Scenario; base: Scenario | null; baseLabel: string }) {
  const rows = parameterRows(doc, base);
  const changed = rows.filter((r) => r.changed).length;
  const [onlyChanged, setOnlyChanged] = useState(false);
  // the differences first, under their own heading; the rest by section below them
  const diffs = rows.filter((r) => r.changed).map((r) => ({ ...r, section: `Differences from ${baseLabel}` }));
  const shown = onlyChanged ? diffs : [...diffs, ...rows.filter((r) => !r.changed)];
  let lastSection = "";
  return (
    <div className="param-table">
      <div className="row">
        <p className="hint" data-testid="param-diff-count">{changed === 0 ? `Same as ${baseLabel}.` : `${changed} parameter${changed === 1 ? " differs" : "s differ"} from ${baseLabel} (highlighted).`}</p>
        <span className="grow" />
        <label className="hint"><input type="checkbox" checked={onlyChanged} onChange={(e) => setOnlyChanged(e.target.checked)} /> only differences</label>
      </div>
      <div className="table-scroll-x">
      <table>
        <thead>
          <tr><th scope="col">Parameter</th><th scope="col">This scenario</th><th scope="col">{baseLabel}</th></tr>
        </thead>
        <tbody>
          {shown.map((r) => {
            const head = r.section !== lastSection;
            lastSection = r.section;
            return [
              head && <tr key={`s-${r.section}`} className="section"><th colSpan={3} scope="colgroup">{r.section}</th></tr>,
              <tr key={r.path} className={r.changed ? "changed" : undefined} data-path={r.path}>
                <th scope="row">{r.label}{r.unit && <span className="unit"> ({r.unit})</span>} <GlossaryTip term={r.path} /><br /><code>{r.path}</code></th>
                <td>{r.value}{r.changed && <span className="visually-hidden"> (changed)</span>}</td>
                <td>{r.base}</td>
              </tr>,
            ];
          })}
        </tbody>
      </table>
      </div>
    </div>
  );
}
