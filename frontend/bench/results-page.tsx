// Mounts the real results pieces with 100,000 flows and 16 series of 10,000 points each and
// records: flows table mount, a sort, a filter, the time-series chart and the CDF of 100,000 flows.
import { createRoot } from "react-dom/client";
import { flushSync } from "react-dom";
import { FlowTable } from "../src/features/results/components/ResultTables";
import { LineChart } from "../src/features/results/components/LineChart";
import { CdfChart } from "../src/features/results/components/CdfChart";
import type { FlowRecord } from "../src/lib/api/resultTypes";

const N = 100_000;
const flows: FlowRecord[] = Array.from({ length: N }, (_, i) => {
  const size = 1000 + ((i * 7919) % 3_000_000);
  const fct = 5 + (size / 12_500) * (1 + ((i * 31) % 17) / 4);
  return { id: i, src: `h${i % 128}`, dst: `h${(i * 7) % 128}`, size_bytes: size, start_us: i * 0.4, fct_us: fct, ideal_fct_us: size / 12_500, slowdown: fct / (5 + size / 12_500), bytes_delivered: size, goodput_gbps: (size * 8) / fct / 1e3, retransmits: i % 5 };
});
const t = Array.from({ length: 10_000 }, (_, i) => i * 10);
const series = Array.from({ length: 16 }, (_, s) => ({ name: `leaf${s}->h${s}`, values: t.map((x) => Math.abs(Math.sin(x / (500 + s * 37))) * 300_000) }));
const recorded = new Set(Array.from({ length: 16 }, (_, i) => String(i)));

const frame = () => new Promise((r) => requestAnimationFrame(() => r(null)));

async function once() {
  const el = document.getElementById("root")!;
  const root = createRoot(el);
  let t0 = performance.now();
  flushSync(() => root.render(<FlowTable flows={flows} selected={null} onSelect={() => {}} charted={recorded} recorded={recorded} onToggleChart={() => {}} />));
  await frame();
  const tableMount = performance.now() - t0;
  const header = [...el.querySelectorAll<HTMLButtonElement>("[role=columnheader]")].find((b) => b.textContent?.startsWith("slowdown"))!;
  t0 = performance.now();
  flushSync(() => header.click());
  await frame();
  const sort = performance.now() - t0;
  const input = el.querySelector<HTMLInputElement>("input[type=search]")!;
  t0 = performance.now();
  const setter = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, "value")!.set!;
  flushSync(() => {
    setter.call(input, "h17->");
    input.dispatchEvent(new Event("input", { bubbles: true }));
  });
  await frame();
  const filter = performance.now() - t0;
  root.unmount();

  const root2 = createRoot(el);
  t0 = performance.now();
  flushSync(() => root2.render(<LineChart t={t} series={series} xDomain={[0, t[t.length - 1]]} yLabel="bytes" />));
  await frame();
  const lineChart = performance.now() - t0;
  root2.unmount();

  const root3 = createRoot(el);
  t0 = performance.now();
  flushSync(() => root3.render(<CdfChart flows={flows} metric="fct_us" />));
  await frame();
  const cdf = performance.now() - t0;
  root3.unmount();
  return { tableMount, sort, filter, lineChart, cdf };
}

(async () => {
  const runs: Record<string, number>[] = [];
  for (let i = 0; i < 7; i += 1) runs.push(await once());
  const warm = runs.slice(2);
  const median = (k: string) => warm.map((r) => r[k]).sort((a, b) => a - b)[Math.floor(warm.length / 2)];
  const worst = (k: string) => Math.max(...warm.map((r) => r[k]));
  const keys = Object.keys(runs[0]);
  (window as unknown as { __result: unknown }).__result = {
    flows: N, series: `${series.length} x ${t.length} points`, runs: warm.length,
    median_ms: Object.fromEntries(keys.map((k) => [k, Math.round(median(k))])),
    worst_ms: Object.fromEntries(keys.map((k) => [k, Math.round(worst(k))])),
    first_ms: Object.fromEntries(keys.map((k) => [k, Math.round(runs[0][k])])),
  };
})();
