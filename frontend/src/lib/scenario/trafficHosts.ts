import type { TrafficGenerator } from "./types";

/** Every host a traffic generator names explicitly (for highlighting on the canvas). */
export function trafficHosts(traffic: TrafficGenerator[]): Set<string> {
  const out = new Set<string>();
  const add = (v: unknown) => {
    if (typeof v === "string") out.add(v);
    else if (Array.isArray(v)) v.forEach(add);
  };
  for (const g of traffic) for (const f of ["senders", "receiver", "src", "dst", "hosts", "pairs"]) add(g[f]);
  return out;
}
