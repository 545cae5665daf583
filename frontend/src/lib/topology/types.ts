// `fabricsim expand` output (docs/result-format.md) and the laid-out graph the canvas draws.

export interface ExpandNode {
  id: string;
  kind: "host" | "switch";
  tier: number;
  group?: string;
  /** hosts of a server (rail_optimized, or explicit hosts naming one): its id and the NIC's index */
  server?: string;
  rail?: number;
  x?: number;
  y?: number;
}

export interface ExpandLink {
  id: number;
  a: string;
  b: string;
  rate_gbps: number;
  delay_us?: number;
  length_km?: number;
}

export interface ExpandResult {
  nodes: ExpandNode[];
  links: ExpandLink[];
  stats: { hosts: number; switches: number; links: number; oversubscription?: number; [k: string]: unknown };
}

export interface LayoutNode extends ExpandNode {
  x: number;
  y: number;
  /** A collapsed pod or podset drawn as one box: its member ids and the box's half size. */
  members?: string[];
  half?: { w: number; h: number };
}

export interface LayoutGraph {
  nodes: LayoutNode[];
  links: ExpandLink[];
  /** "ring": switches on a circle (a cycle of switches, e.g. msft-deadlock); rows otherwise. */
  shape?: "ring";
  width: number;
  height: number;
}
