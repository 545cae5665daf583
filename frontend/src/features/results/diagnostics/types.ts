// The result's optional objects (docs/result-format.md, "Optional objects"): the types generated
// from docs/result.schema.json, under the names the diagnostics use.
import type {
  DciAccelerator, DciAcceleratorEdge, DeadlockCycle, FaultEvent, Faults, Pingmesh, Rtt, Transport, TransportNic,
} from "../../../lib/api/resultTypes";

export type { DeadlockCycle, FaultEvent, TransportNic };
export type RttStats = Rtt;
export type PingmeshReport = Pingmesh;
export type FaultReport = Faults;
export type AcceleratorEdge = DciAcceleratorEdge;
export type AcceleratorReport = DciAccelerator;
export type TransportReport = Transport;

export interface Diagnostics {
  faults: FaultReport | null;
  pingmesh: PingmeshReport | null;
  port_counters: Record<string, unknown> | null;
  dci_accelerator?: AcceleratorReport | null;
  transport?: TransportReport | null;
}
