import type { ExplicitTopology } from "../../scenario/types";
import { fromClab, toClab } from "./clab";
import { fromDot, toDot } from "./dot";
import { fromHpcc, toHpcc } from "./hpcc";

export type TopologyFormat = "dot" | "clab" | "hpcc";

export const FORMATS: Record<TopologyFormat, { title: string; ext: string; write: (t: ExplicitTopology, name?: string) => string; read: (text: string) => ExplicitTopology }> = {
  dot: { title: "Graphviz DOT (NVIDIA Air)", ext: "dot", write: toDot, read: fromDot },
  clab: { title: "containerlab topology YAML", ext: "clab.yml", write: toClab, read: fromClab },
  hpcc: { title: "HPCC simulator topology", ext: "txt", write: (t) => toHpcc(t), read: fromHpcc },
};

/** Picks the reader from the file name, else from the content. */
export function detectFormat(fileName: string, text: string): TopologyFormat {
  if (/\.(dot|gv)$/i.test(fileName) || /^\s*(strict\s+)?(di)?graph\b/i.test(text)) return "dot";
  if (/\.ya?ml$/i.test(fileName) || /^\s*topology\s*:/m.test(text)) return "clab";
  return "hpcc";
}
