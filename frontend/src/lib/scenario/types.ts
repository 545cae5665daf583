// Editor-facing view of scenario v1 (docs/scenario-format.md). Partial objects stay open
// (Record) because the API fills defaults and validates; the editor only needs these fields.

import type { TOPOLOGY_KINDS, TRAFFIC_KINDS } from "./contract.gen";

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };

/** The kinds come from the generated contract (contract.gen.ts, from the Pydantic models). */
export type TopologyKind = (typeof TOPOLOGY_KINDS)[number];
export type GeneratorKind = Exclude<TopologyKind, "explicit">;

export interface ExplicitNode {
  id: string;
  kind: "host" | "switch";
  tier?: number;
  /** hosts only: the server this NIC is in (its rail is its index among the server's hosts) */
  server?: string;
  x?: number;
  y?: number;
}

export interface ExplicitLink {
  a: string;
  b: string;
  rate_gbps: number;
  delay_us?: number;
  length_km?: number;
}

export interface ExplicitTopology {
  kind: "explicit";
  nodes: ExplicitNode[];
  links: ExplicitLink[];
}

export interface GeneratorTopology {
  kind: GeneratorKind;
  [param: string]: Json;
}

export type Topology = ExplicitTopology | GeneratorTopology;

export type TrafficKind = (typeof TRAFFIC_KINDS)[number];

export interface TrafficGenerator {
  kind: TrafficKind;
  [field: string]: Json;
}

export interface Scenario {
  schema_version: 1;
  name?: string;
  description?: string;
  seed?: number;
  duration_us?: number;
  warmup_us?: number;
  topology: Topology;
  switch?: JsonObject;
  switch_overrides?: Record<string, JsonObject>;
  nic?: JsonObject;
  nic_overrides?: Record<string, JsonObject>;
  traffic?: TrafficGenerator[];
  monitor?: JsonObject;
}
