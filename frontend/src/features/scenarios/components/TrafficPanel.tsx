import { useState } from "react";
import type { TrafficGenerator, TrafficKind } from "../../../lib/scenario/types";
import type { LayoutGraph } from "../../../lib/topology/types";
import type { PickRequest } from "./HostListField";
import { GeneratorEditor } from "./GeneratorEditor";
import { COLLECTIVE_ALGORITHMS } from "../../../lib/scenario/contract.gen";
import { newTrainingGenerator } from "../editor/training";

/**
 * The message size of a new collective: one that finishes within a new scenario's duration on the
 * fabrics the editor generates by default (an all-reduce of 8 MB: 1,140 us on the 2 x 2 leaf-spine
 * of 100G, 350 us on the 2 x 4 x 8 rail-optimized fabric of 400G, in 2,000 us). 64 MB, NCCL-tests'
 * usual size, could not finish there (its ideal alone is 2.7 ms on the rail fabric): the
 * configuration check's `collective_exceeds_duration` says so for any size.
 */
export const NEW_COLLECTIVE_MESSAGE_BYTES = 8_000_000;

const KINDS: { kind: TrafficKind; title: string; make: (hosts: string[], nicsPerServer: number) => TrafficGenerator }[] = [
  { kind: "incast", title: "Incast (N to 1)", make: (h) => ({ kind: "incast", senders: h.slice(1, 3), receiver: h[0] ?? "h0", size_bytes: 0 }) },
  { kind: "pairs", title: "Pairs", make: (h) => ({ kind: "pairs", pairs: h.length > 1 ? [[h[0], h[h.length - 1]]] : [], size_bytes: 0 }) },
  { kind: "permutation", title: "Permutation", make: () => ({ kind: "permutation", size_bytes: 1_000_000 }) },
  { kind: "all_to_all", title: "All-to-all", make: () => ({ kind: "all_to_all", size_bytes: 100_000 }) },
  { kind: "perftest", title: "Perftest (ib_write_bw)", make: (h) => ({ kind: "perftest", src: h[1] ?? "h1", dst: h[0] ?? "h0", iterations: 0 }) },
  { kind: "workload", title: "Workload (flow-size distribution)", make: () => ({ kind: "workload", distribution: "websearch", load: 0.5 }) },
  { kind: "pingmesh", title: "Pingmesh", make: () => ({ kind: "pingmesh", interval_us: 100, probe_bytes: 512 }) },
  // a collective over every host (the contract's first op and its default algorithm)
  { kind: "collective", title: "Collective (all-reduce, all-gather, ...)", make: () => {
    const op = Object.keys(COLLECTIVE_ALGORITHMS)[0];
    return { kind: "collective", op, algorithm: COLLECTIVE_ALGORITHMS[op][0], message_bytes: NEW_COLLECTIVE_MESSAGE_BYTES };
  } },
  // a training job over every host: TP inside a server, DP across servers
  { kind: "training", title: "Training (model + parallelism plan)", make: (h, nics) => newTrainingGenerator(h.length, nics) },
];

export interface TrafficPanelProps {
  traffic: TrafficGenerator[];
  graph: LayoutGraph | null;
  errors: Record<string, string>;
  onAdd: (g: TrafficGenerator) => void;
  onUpdate: (index: number, g: TrafficGenerator) => void;
  onRemove: (index: number) => void;
  onStartPick: (req: PickRequest) => void;
}

export function TrafficPanel(p: TrafficPanelProps) {
  const [kind, setKind] = useState<TrafficKind>("incast");
  const hostNodes = (p.graph?.nodes ?? []).filter((n) => n.kind === "host");
  const hosts = hostNodes.map((n) => n.id);
  // NICs per server: the largest server's (each host its own server when none is named)
  const perServer = new Map<string, number>();
  for (const n of hostNodes) perServer.set(n.server ?? n.id, (perServer.get(n.server ?? n.id) ?? 0) + 1);
  const nicsPerServer = Math.max(1, ...perServer.values());
  return (
    <div className="traffic-panel">
      {p.traffic.length === 0 && <p className="hint">No traffic yet: the fabric would stay idle.</p>}
      {p.traffic.map((g, i) => (
        <GeneratorEditor key={i} index={i} gen={g} graph={p.graph} errors={p.errors} onUpdate={p.onUpdate} onRemove={p.onRemove} onStartPick={p.onStartPick} />
      ))}
      <div className="row">
        <select aria-label="Traffic kind" value={kind} onChange={(e) => setKind(e.target.value as TrafficKind)}>
          {KINDS.map((k) => <option key={k.kind} value={k.kind}>{k.title}</option>)}
        </select>
        <button type="button" onClick={() => p.onAdd(KINDS.find((k) => k.kind === kind)!.make(hosts, nicsPerServer))}>Add traffic</button>
      </div>
    </div>
  );
}
