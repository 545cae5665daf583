import { ApiError } from "../lib/api/errors";

export function Loading({ what = "Loading" }: { what?: string }) {
  return <div className="state loading" role="status" aria-live="polite"><span className="spinner" aria-hidden /> {what}…</div>;
}

export function Empty({ children }: { children: React.ReactNode }) {
  return <div className="state empty">{children}</div>;
}

/** An API error with its message and the field it names. */
export function ErrorBox({ error, title = "Something went wrong" }: { error: unknown; title?: string }) {
  if (!error) return null;
  const api = error instanceof ApiError ? error : null;
  return (
    <div className="state error" role="alert">
      <strong>{title}</strong>
      <div>{error instanceof Error ? error.message : String(error)}</div>
      {api && api.fields.length > 1 && (
        <ul>
          {api.fields.map((f, i) => (
            <li key={i}><code>{f.path || "(request)"}</code>: {f.message}</li>
          ))}
        </ul>
      )}
    </div>
  );
}
