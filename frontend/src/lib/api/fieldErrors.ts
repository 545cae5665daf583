import { ApiError, type FieldError } from "./errors";
import { humanMessage } from "../glossary/messages";

/** Field path -> message in the field's words, for inline errors next to the inputs (first one per path). */
export function fieldErrorMap(err: unknown): Record<string, string> {
  if (!(err instanceof ApiError)) return {};
  const out: Record<string, string> = {};
  for (const f of err.fields) if (!(f.path in out)) out[f.path] = humanMessage(f);
  return out;
}

/** Each field's problem once, in the field's words (the "Could not start" banner). */
export function uniqueFieldErrors(fields: FieldError[]): { path: string; message: string }[] {
  const seen = new Set<string>();
  const out: { path: string; message: string }[] = [];
  for (const f of fields) {
    if (seen.has(f.path)) continue;
    seen.add(f.path);
    out.push({ path: f.path, message: humanMessage(f) });
  }
  return out;
}

/** API messages for one form row ("parameters.0" matches "parameters.0.path" etc.), readable. */
export function fieldMessages(fields: Record<string, string>, prefix: string): string[] {
  return Object.entries(fields)
    .filter(([path]) => path === prefix || path.startsWith(`${prefix}.`))
    .map(([path, msg]) => {
      const what = path.slice(prefix.length + 1) || "row";
      const text = msg === "Extra inputs are not permitted" ? "this field does not exist in the scenario" : msg;
      return `${what}: ${text}`;
    });
}
