import { ApiError } from "../lib/api/errors";
import { uniqueFieldErrors } from "../lib/api/fieldErrors";

export function Loading({ what = "Loading" }: { what?: string }) {
  return <div className="state loading" role="status" aria-live="polite"><span className="spinner" aria-hidden /> {what}…</div>;
}

export function Empty({ children }: { children: React.ReactNode }) {
  return <div className="state empty">{children}</div>;
}

/** An API error: its message, or each field it names once, in the field's words. */
export function ErrorBox({ error, title = "Something went wrong" }: { error: unknown; title?: string }) {
  if (!error) return null;
  const fields = error instanceof ApiError ? uniqueFieldErrors(error.fields) : [];
  return (
    <div className="state error" role="alert">
      <strong>{title}</strong>
      {fields.length === 0 && <div>{error instanceof Error ? error.message : String(error)}</div>}
      {fields.length === 1 && <div>{fields[0].message}</div>}
      {fields.length > 1 && (
        <ul>
          {fields.map((f) => <li key={f.path}>{f.message}</li>)}
        </ul>
      )}
    </div>
  );
}
