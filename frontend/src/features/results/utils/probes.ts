// Pingmesh probes are flow records too (512-byte RDMA messages from a `pingmesh` traffic entry),
// but the simulator keeps them out of the FCT and slowdown statistics (they have their own, the
// result's "pingmesh" object). The page does the same, so the cards, the CDF and the active
// period agree with the summary; the flows table still lists them.
import type { FlowRecord } from "../../../lib/api/resultTypes";

export interface FlowSplit {
  /** The flows the FCT statistics cover (every flow when the scenario has no pingmesh). */
  data: FlowRecord[];
  probes: number;
  /** Probes that reached their destination. */
  probesDelivered: number;
}

/** Indices of the scenario's `pingmesh` traffic entries (a flow's `generator`). */
export function probeGenerators(scenario: unknown): Set<number> {
  const traffic = (scenario as { traffic?: { kind?: unknown }[] } | undefined)?.traffic;
  const out = new Set<number>();
  if (Array.isArray(traffic)) traffic.forEach((t, i) => t?.kind === "pingmesh" && out.add(i));
  return out;
}

export function splitProbes(flows: FlowRecord[] | undefined, scenario: unknown): FlowSplit | undefined {
  if (!flows) return undefined;
  const gens = probeGenerators(scenario);
  if (gens.size === 0) return { data: flows, probes: 0, probesDelivered: 0 };
  const data: FlowRecord[] = [];
  let probes = 0;
  let probesDelivered = 0;
  for (const f of flows) {
    if (f.generator != null && gens.has(f.generator)) {
      probes += 1;
      if (f.fct_us != null) probesDelivered += 1;
    } else data.push(f);
  }
  return { data, probes, probesDelivered };
}
