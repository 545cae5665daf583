/**
 * Problems with the drawn topology, laid over the bottom of the canvas so that they never push
 * it down (a click aimed at a node must land on that node). Connectivity while drawing is a hint,
 * not an error: a freshly placed switch is not linked yet.
 */
export interface CanvasMessage {
  path: string;
  text: string;
  /** Link index to select when the message is about one link. */
  link?: number;
}

export const isDrawingHint = (text: string) => /connected|no links|unreachable|isolated/i.test(text);

export function CanvasMessages({ messages, onSelectLink }: { messages: CanvasMessage[]; onSelectLink: (i: number) => void }) {
  if (messages.length === 0) return null;
  const hints = messages.filter((m) => isDrawingHint(m.text));
  const errors = messages.filter((m) => !isDrawingHint(m.text));
  return (
    <div className="canvas-messages" aria-live="polite">
      {errors.slice(0, 3).map((m) => (
        <p key={m.path} className="canvas-error" role="alert">
          {m.text}
          {m.link !== undefined && <button type="button" className="small" onClick={() => onSelectLink(m.link!)}>Show link</button>}
        </p>
      ))}
      {hints.slice(0, 1).map((m) => (
        <p key={m.path} className="canvas-hint" role="status">Not connected yet: {m.text.replace(/^topology:?\s*/i, "")}. Link every node (tool “Draw link”, key l) before you run.</p>
      ))}
    </div>
  );
}
