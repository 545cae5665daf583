import { SCHEMA_RANGES, type NumberRange } from "./contract.gen";

/** The range the declaration gives a property ("Generator.priority", "LeafSpine.leaves"): the
 *  generated contract's, never a copy. Throws on a key the contract lacks, so a renamed field
 *  fails the tests instead of losing its range. */
export function schemaRange(key: string): NumberRange {
  const r = SCHEMA_RANGES[key];
  if (!r) throw new Error(`no range for ${key} in the generated contract (contract.gen.ts)`);
  return r;
}

/** A range as a field's hint: "0 .. 6", "> 0 .. 1", "at least 1" (an upper end past 2^50 is
 *  no limit anyone types). */
export function rangeHint(r: NumberRange): string {
  const min = `${r.exclusiveMin ? "> " : ""}${(r.min ?? 0).toLocaleString("en-US")}`;
  if (r.max === undefined || r.max > 2 ** 50)
    return r.exclusiveMin ? `more than ${r.min ?? 0}` : `at least ${r.min ?? 0}`;
  return `${min} .. ${r.max.toLocaleString("en-US")}`;
}
