// Validation messages in the field's words: "ECN Kmin must be at most 1,073,741,824 bytes"
// instead of Pydantic's "Input should be less than or equal to 1073741824".
import type { FieldError } from "../api/errors";
import { type GlossaryEntry, glossaryEntry } from "./glossary";

const fmt = (v: number) => v.toLocaleString("en-US", { maximumFractionDigits: 6 });
const withUnit = (v: number, unit?: string) => (unit && !unit.includes("..") ? `${fmt(v)} ${unit}` : fmt(v));

/** "0 to 1,073,741,824 bytes", "more than 0, up to 1,600 Gbit/s", "at least 1". */
export function rangeText(e: Pick<GlossaryEntry, "min" | "max" | "exclusiveMin" | "unit">): string {
  const { min, max, exclusiveMin, unit } = e;
  if (min === undefined && max === undefined) return "";
  if (min !== undefined && max !== undefined) {
    return exclusiveMin ? `more than ${fmt(min)}, up to ${withUnit(max, unit)}` : `${fmt(min)} to ${withUnit(max, unit)}`;
  }
  if (min !== undefined) return exclusiveMin ? `more than ${withUnit(min, unit)}` : `at least ${withUnit(min, unit)}`;
  return `at most ${withUnit(max!, unit)}`;
}

/** Known cross-field messages of the backend ("must be <= kmax_bytes (80000)"). */
const CROSS_FIELD: [RegExp, (m: RegExpMatchArray, e?: GlossaryEntry) => string][] = [
  [/^expands to (\d+) nodes, more than the limit of (\d+)/, (m) => `would have ${fmt(Number(m[1]))} nodes (at most ${fmt(Number(m[2]))})`],
  [/^expands to (\d+) nodes \(at most (\d+)\)/, (m) => `would have ${fmt(Number(m[1]))} nodes (at most ${fmt(Number(m[2]))})`],
  [/^must be <= kmax_bytes \((\d+)\)/, (m) => `must not exceed ECN Kmax (${fmt(Number(m[1]))} bytes)`],
  [/^must be >= kmin_bytes \((\d+)\)/, (m) => `must be at least ECN Kmin (${fmt(Number(m[1]))} bytes)`],
  [/^must be < duration_us \(([\d.]+)\)/, (m) => `must be below the duration (${fmt(Number(m[1]))} us)`],
];

/** One 422 detail as a sentence naming the field, its unit and the allowed range. */
export function humanMessage(f: FieldError): string {
  const e = glossaryEntry(f.path);
  const name = e?.label ?? lastPart(f.path);
  const range = e ? rangeText(e) : "";
  const allowed = range ? ` (allowed: ${range})` : "";
  switch (f.type) {
    case "greater_than":
    case "greater_than_equal":
    case "less_than":
    case "less_than_equal": {
      const bound = Number(f.ctx?.gt ?? f.ctx?.ge ?? f.ctx?.lt ?? f.ctx?.le);
      const unit = e?.unit;
      const words = { greater_than: "more than", greater_than_equal: "at least", less_than: "less than", less_than_equal: "at most" }[f.type];
      return `${name} must be ${words} ${withUnit(bound, unit)}${allowed}`;
    }
    case "int_type":
    case "int_parsing":
    case "int_from_float":
      return `${name} must be a whole number${allowed}`;
    case "float_type":
    case "float_parsing":
      return `${name} must be a number${allowed}`;
    case "string_too_long":
      return `${capital(name)} must be at most ${fmt(Number(f.ctx?.max_length))} characters`;
    case "string_too_short":
      return `${capital(name)} must be at least ${fmt(Number(f.ctx?.min_length))} character${Number(f.ctx?.min_length) === 1 ? "" : "s"}`;
    case "missing":
      return `${name} is required`;
    case "extra_forbidden":
      return `${name} is not a field of this part of the scenario`;
    default:
      break;
  }
  for (const [re, say] of CROSS_FIELD) {
    const m = f.message.match(re);
    if (m) return `${e ? name : f.path === "topology" ? "The fabric" : name} ${say(m, e)}`;
  }
  return e ? `${name}: ${f.message}${allowed}` : f.message;
}

const capital = (s: string) => (s ? s[0].toUpperCase() + s.slice(1) : s);

function lastPart(path: string) {
  const parts = path.split(".").filter((p) => !/^\d+$/.test(p));
  return parts[parts.length - 1] ?? "scenario";
}
