import { useState } from "react";

/**
 * Saves (via `save`) and copies the absolute /s/<id> URL (or the path `linkFor` gives, e.g. a
 * run page); shows the link either way.
 */
export function ShareButton({ save, disabled, linkFor = (id) => `/s/${id}` }: { save: () => Promise<string>; disabled?: boolean; linkFor?: (id: string) => string }) {
  const [url, setUrl] = useState<string | null>(null);
  const [state, setState] = useState<"idle" | "saving" | "copied" | "shown" | "error">("idle");
  const [err, setErr] = useState<string>("");
  return (
    <span className="share">
      <button type="button" disabled={disabled || state === "saving"} onClick={async () => {
        setState("saving");
        try {
          const id = await save();
          const link = `${window.location.origin}${linkFor(id)}`;
          setUrl(link);
          try {
            await navigator.clipboard.writeText(link);
            setState("copied");
          } catch {
            setState("shown");
          }
        } catch (e) {
          setErr((e as Error).message);
          setState("error");
        }
      }}>
        {state === "saving" ? "Saving…" : "Share"}
      </button>
      {url && (
        <span className="share-link" role="status">
          {state === "copied" ? "Copied: " : "Link: "}
          <a href={url} data-testid="share-link">{url}</a>
        </span>
      )}
      {state === "error" && <span className="field-error" role="alert">{err}</span>}
    </span>
  );
}
