// The values of a sweep axis or a tuning parameter as a person types them (shared by both forms).

/** "0:5000:500" (start:stop:step, inclusive) or "1, 10, 20" or words; or why not. */
export function describeValues(text: string): { values: (number | string)[] } | { error: string } {
  const range = text.trim().match(/^(-?[\d.]+)\s*:\s*(-?[\d.]+)\s*:\s*(-?[\d.]+)$/);
  if (range) {
    const [a, b, step] = range.slice(1).map(Number);
    if (!(step > 0)) return { error: `step must be > 0 (got ${range[3]}): start:stop:step, e.g. ${range[1]}:${range[2]}:500` };
    if (b < a) return { error: `stop (${b}) is below start (${a})` };
    if ((b - a) / step > 5000) return { error: `${Math.floor((b - a) / step) + 1} values: at most 5,000; use a larger step` };
    const out: number[] = [];
    for (let v = a; v <= b + step * 1e-9; v += step) out.push(Number(v.toPrecision(12)));
    return { values: out };
  }
  if (/^\s*-?[\d.]+\s*:/.test(text)) return { error: "a range is start:stop:step with three numbers, e.g. 0:5000:500" };
  const parts = text.split(",").map((s) => s.trim()).filter(Boolean);
  if (parts.length === 0) return { error: "give values: a list (1, 10, 20) or a range (0:5000:500)" };
  return { values: parts.map((p) => (p !== "" && Number.isFinite(Number(p)) ? Number(p) : p)) };
}

export function parseValues(text: string): (number | string)[] | null {
  const d = describeValues(text);
  return "values" in d ? d.values : null;
}
