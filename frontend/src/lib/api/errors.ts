/** A field-level problem reported by the API (422 detail entry). */
export interface FieldError {
  /** Dotted path inside the scenario document, e.g. "switch.ecn.kmin_bytes". */
  path: string;
  message: string;
  /** Pydantic error type ("greater_than", "value_error", "simulator") and its context. */
  type?: string;
  ctx?: Record<string, string>;
}

export class ApiError extends Error {
  readonly status: number;
  readonly fields: FieldError[];

  constructor(status: number, message: string, fields: FieldError[] = []) {
    super(message);
    this.name = "ApiError";
    this.status = status;
    this.fields = fields;
  }
}

interface DetailItem {
  loc?: (string | number)[];
  msg?: string;
  type?: string;
  ctx?: Record<string, string>;
}

// Leading location parts that are the request envelope, not the document.
const ENVELOPE = new Set(["body", "scenario", "query", "path", "topology_body"]);

export function fieldPath(loc: (string | number)[]): string {
  let i = 0;
  while (i < loc.length && typeof loc[i] === "string" && ENVELOPE.has(loc[i] as string) && i < 2) i += 1;
  return loc.slice(i).join(".");
}

/** Builds an ApiError from a response status and its parsed JSON body (FastAPI shapes). */
export function toApiError(status: number, body: unknown): ApiError {
  const detail = (body as { detail?: unknown } | null)?.detail;
  if (Array.isArray(detail)) {
    const fields = (detail as DetailItem[]).map((d) => ({
      path: fieldPath(d.loc ?? []),
      message: d.msg ?? "invalid",
      ...(d.type ? { type: d.type } : {}),
      ...(d.ctx ? { ctx: d.ctx } : {}),
    }));
    const first = fields[0];
    const msg = first ? `${first.path ? `${first.path}: ` : ""}${first.message}` : "Invalid input";
    return new ApiError(status, msg, fields);
  }
  if (typeof detail === "string") return new ApiError(status, detail);
  return new ApiError(status, `Request failed (HTTP ${status})`);
}

export function errorMessage(err: unknown): string {
  if (err instanceof Error) return err.message;
  return String(err);
}
