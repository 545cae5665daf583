import { scaleLog } from "d3-scale";
import type { MeasurementKind } from "../api/realFabric";

/** The kind of a benchmark output, from its text: NCCL-tests prints "# nThread", perftest its
 * test's title ("RDMA_Write BW Test", "Send Latency Test"). Null when neither is there. */
export function guessKind(text: string): MeasurementKind | null {
  if (/^#\s*nThread\s+\d+/m.test(text)) return "nccl_tests";
  if (/^\s*(RDMA_Write|RDMA_Read|Send) (BW|Latency) Test\s*$/m.test(text)) return "perftest";
  return null;
}

/** A size in bytes as NCCL-tests' -b/-e write it: 8 B, 64 KiB, 128 MiB. */
export function formatSize(bytes: number): string {
  const units = ["B", "KiB", "MiB", "GiB", "TiB"];
  let v = bytes;
  let i = 0;
  while (v >= 1024 && i < units.length - 1 && Number.isInteger(v / 1024)) {
    v /= 1024;
    i += 1;
  }
  return `${v} ${units[i]}`;
}

/** simulated / measured as the table shows it: "0.82 x (-18 %)". */
export function formatRatio(ratio: number | null | undefined): string {
  if (ratio == null) return "—";
  const pct = Math.round((ratio - 1) * 100);
  return `${ratio.toFixed(2)} × (${pct > 0 ? "+" : pct < 0 ? "−" : "±"}${Math.abs(pct)} %)`;
}

export interface ChartPoint { size: number; value: number }

/** Log scales around every plotted value (both series), padded half a decade on the y axis. */
export function logDomains(series: ChartPoint[][]): { x: [number, number]; y: [number, number] } | null {
  const pts = series.flat().filter((p) => p.size > 0 && p.value > 0);
  if (pts.length === 0) return null;
  const xs = pts.map((p) => p.size);
  const ys = pts.map((p) => p.value);
  const x: [number, number] = [Math.min(...xs), Math.max(...xs)];
  if (x[0] === x[1]) { x[0] /= 2; x[1] *= 2; }
  const y: [number, number] = [Math.min(...ys) / Math.SQRT2, Math.max(...ys) * Math.SQRT2];
  return { x, y };
}

/** The decades a log axis labels (1, 10, 100 ...), at most `max` of them. */
export function decadeTicks(domain: [number, number], base = 10, max = 12): number[] {
  const s = scaleLog().base(base).domain(domain);
  return s.ticks(max).filter((t) => Math.abs(Math.log(t) / Math.log(base) - Math.round(Math.log(t) / Math.log(base))) < 1e-9);
}
