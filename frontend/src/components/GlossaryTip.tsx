import { useId, useState } from "react";
import { glossaryEntry } from "../lib/glossary/glossary";
import { rangeText } from "../lib/glossary/messages";

/**
 * An "i" next to a parameter: on hover or focus, its meaning, unit, typical values, allowed range
 * and source from the glossary. Renders nothing for a term the glossary lacks.
 */
export function GlossaryTip({ term }: { term: string }) {
  const entry = glossaryEntry(term);
  const id = useId();
  const [open, setOpen] = useState(false);
  if (!entry) return null;
  const range = rangeText(entry);
  return (
    <span className="glossary-tip" onMouseEnter={() => setOpen(true)} onMouseLeave={() => setOpen(false)}>
      <button type="button" className="tip-button" aria-label={`About ${entry.label}`} aria-describedby={id}
        aria-expanded={open} data-term={term}
        onFocus={() => setOpen(true)} onBlur={() => setOpen(false)} onClick={(e) => { e.preventDefault(); setOpen((o) => !o); }}>
        i
      </button>
      <span role="tooltip" id={id} className={`tip-body${open ? " open" : ""}`}>
        <strong>{entry.label}</strong>{entry.unit && <> ({entry.unit})</>}: {entry.meaning}
        <br /><em>Typical:</em> {entry.typical}
        {range && <><br /><em>Allowed:</em> {range}</>}
        <br /><em>Source:</em> {entry.source}
      </span>
    </span>
  );
}
