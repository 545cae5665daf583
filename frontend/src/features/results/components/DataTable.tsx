import { useEffect, useMemo, useRef, useState } from "react";

export interface Column<R> {
  key: string;
  label: string;
  /** Sort value; null sorts last whatever the direction. */
  value: (r: R) => number | string | null;
  format?: (r: R) => React.ReactNode;
  numeric?: boolean;
  width?: string;
  title?: string;
}

const ROW_H = 26;

/**
 * A sortable, filterable table that renders only the rows in view (fixed row height), so
 * 100,000 rows stay as fast as 100. A click on a row selects it; with the body focused, the arrows,
 * PageUp/PageDown and Home/End move the selection (it scrolls into view).
 */
export function DataTable<R>({ rows, columns, rowKey, selected, onSelect, filterText, height = 320, label, initialSort, extra }: {
  rows: R[];
  columns: Column<R>[];
  rowKey: (r: R) => string;
  selected?: string | null;
  onSelect?: (key: string) => void;
  /** Text matched (case-insensitive) against these fields of a row. */
  filterText: (r: R) => string;
  height?: number;
  label: string;
  initialSort?: { key: string; desc: boolean };
  extra?: React.ReactNode;
}) {
  const [filter, setFilter] = useState("");
  const [sort, setSort] = useState(initialSort ?? { key: columns[0].key, desc: false });
  const [scrollTop, setScrollTop] = useState(0);
  const bodyRef = useRef<HTMLDivElement>(null);

  const shown = useMemo(() => {
    const needle = filter.trim().toLowerCase();
    const kept = needle ? rows.filter((r) => filterText(r).toLowerCase().includes(needle)) : rows.slice();
    const col = columns.find((c) => c.key === sort.key) ?? columns[0];
    return sortRows(kept, col.value, sort.desc);
  }, [rows, filter, sort, columns, filterText]);

  // Bring a row selected elsewhere (a card, the chart) into view.
  useEffect(() => {
    if (selected == null || !bodyRef.current) return;
    const i = shown.findIndex((r) => rowKey(r) === selected);
    if (i < 0) return;
    const top = i * ROW_H;
    const el = bodyRef.current;
    if (top < el.scrollTop || top > el.scrollTop + height - ROW_H) {
      const next = Math.max(0, top - height / 2);
      el.scrollTop = next;
      // render the rows there now, not on the scroll event that follows
      setScrollTop(next);
    }
  }, [selected, shown, rowKey, height]);

  const first = Math.max(0, Math.floor(scrollTop / ROW_H) - 5);
  const last = Math.min(shown.length, first + Math.ceil(height / ROW_H) + 10);
  const template = columns.map((c) => c.width ?? "1fr").join(" ");
  const move = (delta: number) => {
    const i = shown.findIndex((r) => rowKey(r) === selected);
    const next = shown[Math.min(shown.length - 1, Math.max(0, (i < 0 ? -1 : i) + delta))];
    if (next) onSelect?.(rowKey(next));
  };

  return (
    <div className="data-table" role="region" aria-label={label}>
      <div className="row table-tools">
        <input type="search" placeholder="Filter…" value={filter} onChange={(e) => setFilter(e.target.value)} aria-label={`Filter ${label}`} />
        <span className="hint" data-testid="table-count">{shown.length === rows.length ? `${rows.length.toLocaleString("en")} rows` : `${shown.length.toLocaleString("en")} of ${rows.length.toLocaleString("en")} rows`}</span>
        {extra}
      </div>
      <div role="table" aria-rowcount={shown.length + 1} className="dt">
        <div role="row" className="dt-row dt-head" style={{ gridTemplateColumns: template }}>
          {columns.map((c) => (
            <button
              type="button" role="columnheader" key={c.key} title={c.title}
              aria-sort={sort.key === c.key ? (sort.desc ? "descending" : "ascending") : "none"}
              className={c.numeric ? "num" : undefined}
              onClick={() => setSort((s) => ({ key: c.key, desc: s.key === c.key ? !s.desc : !!c.numeric }))}
            >
              {c.label}{sort.key === c.key ? (sort.desc ? " ▼" : " ▲") : ""}
            </button>
          ))}
        </div>
        <div
          ref={bodyRef} className="dt-body" style={{ height: Math.min(height, Math.max(ROW_H, shown.length * ROW_H)) }} tabIndex={0}
          onScroll={(e) => setScrollTop(e.currentTarget.scrollTop)}
          onKeyDown={(e) => {
            const page = Math.max(1, Math.floor(height / ROW_H) - 1);
            const steps: Record<string, number> = { ArrowDown: 1, ArrowUp: -1, PageDown: page, PageUp: -page, End: shown.length, Home: -shown.length };
            if (e.key in steps) { e.preventDefault(); move(steps[e.key]); }
          }}
        >
          <div style={{ height: shown.length * ROW_H, position: "relative" }}>
            {shown.slice(first, last).map((r, j) => {
              const k = rowKey(r);
              return (
                <div
                  role="row" key={k} aria-rowindex={first + j + 2} aria-selected={selected === k}
                  className={`dt-row${selected === k ? " selected" : ""}`} data-key={k}
                  style={{ gridTemplateColumns: template, top: (first + j) * ROW_H, height: ROW_H }}
                  onClick={() => onSelect?.(k)}
                >
                  {columns.map((c) => (
                    <span role="cell" key={c.key} className={c.numeric ? "num" : undefined}>{c.format ? c.format(r) : String(c.value(r) ?? "—")}</span>
                  ))}
                </div>
              );
            })}
          </div>
        </div>
      </div>
    </div>
  );
}

/**
 * Rows ordered by a column: values read once, numbers compared in a typed array (100,000 rows in
 * tens of milliseconds), nulls last in either direction, ties kept in their original order.
 */
export function sortRows<R>(rows: R[], value: (r: R) => number | string | null, desc: boolean): R[] {
  const n = rows.length;
  const keys = rows.map(value);
  const order = new Uint32Array(n);
  for (let i = 0; i < n; i += 1) order[i] = i;
  const sign = desc ? -1 : 1;
  if (keys.every((k) => k == null || typeof k === "number")) {
    const num = new Float64Array(n);
    for (let i = 0; i < n; i += 1) num[i] = keys[i] == null ? NaN : (keys[i] as number);
    const fast = sortedOrder(num, desc);
    if (fast) return Array.from(fast, (i) => rows[i]);
    order.sort((a, b) => {
      const x = num[a];
      const y = num[b];
      if (Number.isNaN(x) || Number.isNaN(y)) return Number.isNaN(x) === Number.isNaN(y) ? a - b : Number.isNaN(x) ? 1 : -1;
      return x === y ? a - b : (x - y) * sign;
    });
  } else {
    const collator = new Intl.Collator("en", { numeric: true });
    order.sort((a, b) => {
      const x = keys[a];
      const y = keys[b];
      if (x == null || y == null) return x == null && y == null ? a - b : x == null ? 1 : -1;
      return collator.compare(String(x), String(y)) * sign || a - b;
    });
  }
  return Array.from(order, (i) => rows[i]);
}

/**
 * The stable order of numeric keys (NaN last) without a comparator, when there is a cheap one:
 * keys already in order, or small integers (a column such as "charted") by counting sort.
 * Null when neither applies and a comparison sort is needed.
 */
export function sortedOrder(num: Float64Array, desc: boolean): Uint32Array | null {
  const n = num.length;
  const sign = desc ? -1 : 1;
  let inOrder = true;
  let integers = true;
  let lo = Infinity;
  let hi = -Infinity;
  for (let i = 0; i < n; i += 1) {
    const v = num[i];
    if (Number.isNaN(v)) continue;
    if (!Number.isInteger(v)) integers = false;
    if (v < lo) lo = v;
    if (v > hi) hi = v;
  }
  for (let i = 1; i < n && inOrder; i += 1) {
    const [x, y] = [num[i - 1], num[i]];
    if (Number.isNaN(y)) continue;
    if (Number.isNaN(x) || (y - x) * sign < 0) inOrder = false;
  }
  if (inOrder) return Uint32Array.from({ length: n }, (_, i) => i);
  if (!integers || hi - lo > 65_536) return null;
  // counting sort: one bucket per integer value and one for NaN, indices ascending within each
  const buckets = hi - lo + 2;
  const start = new Uint32Array(buckets + 1);
  const bucket = (v: number) => (Number.isNaN(v) ? buckets - 1 : desc ? hi - v : v - lo);
  for (let i = 0; i < n; i += 1) start[bucket(num[i]) + 1] += 1;
  for (let b = 1; b <= buckets; b += 1) start[b] += start[b - 1];
  const out = new Uint32Array(n);
  for (let i = 0; i < n; i += 1) out[start[bucket(num[i])]++] = i;
  return out;
}
