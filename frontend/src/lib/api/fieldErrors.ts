import { ApiError } from "./errors";

/** Field path -> message, for inline errors next to the inputs. */
export function fieldErrorMap(err: unknown): Record<string, string> {
  if (!(err instanceof ApiError)) return {};
  return Object.fromEntries(err.fields.map((f) => [f.path, f.message]));
}
