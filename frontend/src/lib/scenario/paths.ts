import type { Json, JsonObject } from "./types";

/** Reads a dotted path ("switch.ecn.kmin_bytes", list indices as numbers). */
export function getPath(root: unknown, path: string): Json | undefined {
  let cur: unknown = root;
  for (const key of path.split(".")) {
    if (cur === null || typeof cur !== "object") return undefined;
    cur = (cur as Record<string, unknown>)[key];
  }
  return cur as Json | undefined;
}

/** Returns a copy of root with value set at path; missing objects are created. */
export function setPath<T extends object>(root: T, path: string, value: Json | undefined): T {
  const keys = path.split(".");
  const copy = (Array.isArray(root) ? [...root] : { ...root }) as Record<string, unknown>;
  const [head, ...rest] = keys;
  if (rest.length === 0) {
    if (value === undefined) delete copy[head];
    else copy[head] = value;
    return copy as T;
  }
  const child = copy[head];
  const base = child !== null && typeof child === "object" ? (child as object) : {};
  copy[head] = setPath(base, rest.join("."), value);
  return copy as T;
}

/** Removes empty objects left behind after unsetting override fields. */
export function pruneEmpty(obj: JsonObject): JsonObject {
  const out: JsonObject = {};
  for (const [k, v] of Object.entries(obj)) {
    if (v !== null && typeof v === "object" && !Array.isArray(v)) {
      const inner = pruneEmpty(v);
      if (Object.keys(inner).length > 0) out[k] = inner;
    } else if (v !== undefined) {
      out[k] = v;
    }
  }
  return out;
}

/**
 * A scenario path short enough for an axis or a select label: the last two names, with a list
 * index kept beside its list ("traffic.0.message_bytes" -> "traffic[0].message_bytes",
 * "switch.ecn.kmin_bytes" -> "ecn.kmin_bytes"), so an index never stands alone as a name.
 */
export function shortParamPath(path: string): string {
  const names: string[] = [];
  for (const part of path.split(".")) {
    if (/^\d+$/.test(part) && names.length) names[names.length - 1] += `[${part}]`;
    else names.push(part);
  }
  return names.slice(-2).join(".");
}
