import { type ReactNode, type RefObject, useCallback, useEffect, useId, useLayoutEffect, useRef, useState } from "react";
import { createPortal } from "react-dom";
import { type GlossaryEntry, glossaryEntry } from "../lib/glossary/glossary";
import { rangeText } from "../lib/glossary/messages";

const MARGIN = 8;
const WIDTH = 280;

/** Where the tooltip goes: below its anchor (above when there is no room), inside the viewport. */
export function placeTip(anchor: DOMRect, tip: { width: number; height: number }, view: { width: number; height: number }) {
  const width = Math.min(tip.width, view.width - 2 * MARGIN);
  const left = Math.max(MARGIN, Math.min(anchor.left, view.width - width - MARGIN));
  const below = anchor.bottom + 4;
  const above = anchor.top - 4 - tip.height;
  const top = below + tip.height > view.height - MARGIN && above >= MARGIN ? above : below;
  return { left, top, width };
}

/**
 * Open and close a tooltip: hover (a mouse), keyboard focus, and a click or tap that pins it open
 * until the next click or tap, Escape, or a tap elsewhere. A tap on a phone used to open it on the
 * synthetic hover and close it on the click that followed; touch hovers and pointer focus are
 * ignored here, so the click alone decides.
 */
function useTip(anchor: RefObject<HTMLElement | null>, tip: RefObject<HTMLElement | null>) {
  const [hover, setHover] = useState(false);
  const [focus, setFocus] = useState(false);
  const [pinned, setPinned] = useState(false);
  const pointerDown = useRef(false);
  const open = hover || focus || pinned;
  const close = useCallback(() => { setHover(false); setFocus(false); setPinned(false); }, []);

  useEffect(() => {
    if (!pinned) return;
    const outside = (e: PointerEvent) => {
      const t = e.target as Node;
      if (!anchor.current?.contains(t) && !tip.current?.contains(t)) close();
    };
    document.addEventListener("pointerdown", outside);
    return () => document.removeEventListener("pointerdown", outside);
  }, [pinned, anchor, tip, close]);

  const handlers = {
    onPointerEnter: (e: React.PointerEvent) => { if (e.pointerType === "mouse") setHover(true); },
    onPointerLeave: (e: React.PointerEvent) => { if (e.pointerType === "mouse") setHover(false); },
    onPointerDown: () => { pointerDown.current = true; },
    onFocus: () => { if (!pointerDown.current) setFocus(true); pointerDown.current = false; },
    onBlur: () => { setFocus(false); setPinned(false); pointerDown.current = false; },
    onClick: (e: React.MouseEvent) => { e.preventDefault(); e.stopPropagation(); setPinned((p) => !p); },
    onKeyDown: (e: React.KeyboardEvent) => { if (e.key === "Escape" && open) { e.stopPropagation(); close(); } },
  };
  return { open, handlers };
}

/** The tooltip itself, on document.body with fixed coordinates: no panel's overflow cuts it off. */
function TipBody({ id, entry, open, anchor, tipRef }: {
  id: string; entry: GlossaryEntry; open: boolean; anchor: RefObject<HTMLElement | null>; tipRef: RefObject<HTMLSpanElement | null>;
}) {
  const [pos, setPos] = useState<{ left: number; top: number; width: number } | null>(null);
  const place = useCallback(() => {
    const a = anchor.current;
    if (!a) return;
    const h = tipRef.current?.offsetHeight ?? 0;
    setPos(placeTip(a.getBoundingClientRect(), { width: WIDTH, height: h }, { width: window.innerWidth, height: window.innerHeight }));
  }, [anchor, tipRef]);
  useLayoutEffect(() => {
    if (!open) return;
    place();
    window.addEventListener("scroll", place, true);
    window.addEventListener("resize", place);
    return () => { window.removeEventListener("scroll", place, true); window.removeEventListener("resize", place); };
  }, [open, place]);
  const range = rangeText(entry);
  const style = open && pos ? { left: pos.left, top: pos.top, width: pos.width } : undefined;
  return createPortal(
    <span role="tooltip" id={id} ref={tipRef} className={`tip-body${open ? " open" : ""}`} style={style}>
      <strong>{entry.label}</strong>{entry.unit && <> ({entry.unit})</>}: {entry.meaning}
      <br /><em>Typical:</em> {entry.typical}
      {range && <><br /><em>Allowed:</em> {range}</>}
      <br /><em>Source:</em> {entry.source}
    </span>,
    document.body,
  );
}

/**
 * An "i" next to a parameter: on hover, keyboard focus, click or tap, its meaning, unit, typical
 * values, allowed range and source from the glossary. Renders nothing for a term the glossary lacks.
 */
export function GlossaryTip({ term }: { term: string }) {
  return <TipAnchor term={term} className="tip-button" label={(e) => `About ${e.label}`}>i</TipAnchor>;
}

/**
 * A word in running text or a card's heading ("PFC pauses") that explains itself the same way:
 * dotted underline, the glossary entry on hover, focus, click or tap. Plain text for an unknown term.
 */
export function Term({ term, children }: { term: string; children: ReactNode }) {
  if (!glossaryEntry(term)) return <>{children}</>;
  return <TipAnchor term={term} className="term-button">{children}</TipAnchor>;
}

function TipAnchor({ term, className, label, children }: {
  term: string; className: string; label?: (e: GlossaryEntry) => string; children: ReactNode;
}) {
  const entry = glossaryEntry(term);
  const id = useId();
  const anchor = useRef<HTMLButtonElement>(null);
  const tipRef = useRef<HTMLSpanElement>(null);
  const { open, handlers } = useTip(anchor, tipRef);
  if (!entry) return null;
  return (
    <span className="glossary-tip">
      <button type="button" ref={anchor} className={className} aria-label={label?.(entry)} aria-describedby={id}
        aria-expanded={open} data-term={term} {...handlers}>
        {children}
      </button>
      <TipBody id={id} entry={entry} open={open} anchor={anchor} tipRef={tipRef} />
    </span>
  );
}
