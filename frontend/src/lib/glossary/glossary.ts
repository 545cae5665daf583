// The glossary: every parameter shown in the editor's panels, with its meaning, unit, typical
// values, a source, and the allowed range, taken from the generated contract (contract.gen.ts,
// the same numbers as docs/scenario.schema.json; glossary.test.tsx holds them to the schema and
// checks that every panel field has an entry). Keys are document paths
// with list indices dropped: "switch.ecn.kmin_bytes", "traffic.size_bytes", "topology.k".

import { SCHEMA_RANGES } from "../scenario/contract.gen";

export interface GlossaryEntry {
  label: string;
  unit?: string;
  meaning: string;
  typical: string;
  source: string;
  /** JSON-schema definition and property the range comes from, e.g. "Ecn.kmin_bytes". */
  schema?: string;
  min?: number;
  max?: number;
  /** The minimum itself is not allowed (exclusiveMinimum in the schema). */
  exclusiveMin?: boolean;
}

const DCQCN = "Zhu et al., Congestion Control for Large-Scale RDMA Deployments (DCQCN), SIGCOMM 2015";
const BYTETUNING = "ByteTuning slides (seed 000): ECN/PFC watermark search space";
const MSFT = "Guo et al., RDMA over Commodity Ethernet at Scale, SIGCOMM 2016 (seed 001)";
const NTT = "NTT, Long-distance RDMA-acceleration Frameworks, 2024 (seed 002)";
const ERD = "Wang et al., An Optimized RDMA QP Communication Mechanism for Hyperscale AI Infrastructure (ERD, seed 004)";
const FORMAT = "docs/scenario-format.md";
const MULTI_PLANE = "Multi-plane AI back-end fabrics (NVIDIA Spectrum-X multiplane with ConnectX-8, DeepSeek's multi-plane fat tree); docs/scenario-format.md, multi_plane";
const NVIDIA_SUPERPOD = "NVIDIA DGX SuperPOD reference architecture (DGX H100); docs/scenario-format.md, rail_optimized";
const MODEL = "docs/model.md";
const PFC_STD = "IEEE 802.1Qbb (PFC); dynamic threshold: Choudhury & Hahne, 1998";

const rate = (label: string, schema: string): GlossaryEntry => ({
  label, unit: "Gbit/s", meaning: "Line rate of these links.", typical: "25, 40, 100, 400", source: FORMAT,
  schema,
});

const ENTRIES: Record<string, GlossaryEntry> = {
  // run
  duration_us: { label: "Duration", unit: "us", meaning: "Simulated time the run covers.", typical: "2,000-10,000 us for an incast; 5,000+ over distance", source: FORMAT, schema: "#.duration_us" },
  warmup_us: { label: "Warm-up", unit: "us", meaning: "Start of the run the summary ignores (queues and rates settle first); must be below the duration.", typical: "0-1,000 us; one RTT over distance", source: FORMAT, schema: "#.warmup_us" },
  "monitor.sample_interval_us": { label: "Sample interval", unit: "us", meaning: "How often queues, rates and pause state are sampled for the charts.", typical: "1-10 us", source: FORMAT, schema: "Monitor.sample_interval_us" },
  seed: { label: "Seed", meaning: "Random seed: same scenario and seed give byte-identical results.", typical: "1", source: FORMAT, schema: "#.seed" },

  // switch
  "switch.buffer_bytes": { label: "Buffer", unit: "bytes", meaning: "Shared packet buffer of the switch, used by every port and priority.", typical: "12-32 MB (Trident/Tomahawk class); 12,000,000 default", source: MSFT, schema: "Switch.buffer_bytes" },
  "switch.cell_bytes": { label: "Cell size", unit: "bytes", meaning: "Buffer allocation unit: a frame takes whole cells.", typical: "208 (Broadcom), 256", source: BYTETUNING, schema: "Switch.cell_bytes" },
  "switch.pfc.enabled": { label: "PFC enabled", meaning: "Priority flow control: a congested ingress pauses its upstream neighbour instead of dropping (lossless class).", typical: "on for RoCEv2", source: PFC_STD },
  "switch.pfc.alpha": { label: "PFC dynamic threshold alpha", meaning: "XOFF threshold of an ingress queue = alpha x free shared buffer. Small alpha pauses early (fair, more pauses), large alpha lets one port take most of the buffer.", typical: "1/16 (0.0625) to 1; ByteTuning tries 1/128..8", source: `${PFC_STD}; ${BYTETUNING}`, schema: "Pfc.alpha" },
  "switch.pfc.headroom_bytes": { label: "PFC headroom", unit: "bytes", meaning: "Buffer reserved per ingress queue for what is still in flight after XOFF is sent (cable delay x 2 + MTU + response time). \"auto\" sizes it from the link.", typical: "auto; about 50 KB at 100G over 100 m", source: `${PFC_STD}; ${MODEL}`, schema: "Pfc.headroom_bytes" },
  "switch.pfc.xon_offset_bytes": { label: "XON offset", unit: "bytes", meaning: "Hysteresis: the queue must fall this far below XOFF before XON resumes the sender.", typical: "2-4 KB (20 cells = 4,160 B)", source: PFC_STD, schema: "Pfc.xon_offset_bytes" },
  "switch.pfc.pause_mode": { label: "Pause mode", meaning: "xoff_xon: pause until XON; quanta: each pause frame lasts pause_quanta x 512 bit times and is refreshed.", typical: "xoff_xon", source: PFC_STD },
  "switch.pfc.pause_quanta": { label: "Pause quanta", unit: "x 512 bit times", meaning: "Length of one pause frame in quanta mode (65,535 quanta = 335 us at 100G).", typical: "65535", source: PFC_STD, schema: "Pfc.pause_quanta" },
  "switch.ecn.enabled": { label: "ECN enabled", meaning: "RED-style ECN marking on egress queues; marked packets make the receiver send CNPs (DCQCN).", typical: "on", source: DCQCN },
  "switch.ecn.kmin_bytes": { label: "ECN Kmin", unit: "bytes", meaning: "Queue length where marking starts (probability rises from 0 at Kmin to Pmax at Kmax).", typical: "5 KB (DCQCN paper), 0-5,000 B in ByteTuning; 100 KB default", source: `${DCQCN}; ${BYTETUNING}`, schema: "Ecn.kmin_bytes" },
  "switch.ecn.kmax_bytes": { label: "ECN Kmax", unit: "bytes", meaning: "Queue length where the marking probability reaches Pmax; above it every packet is marked. Must be at least Kmin.", typical: "200 KB (DCQCN paper); Kmin + 500 B in ByteTuning", source: `${DCQCN}; ${BYTETUNING}`, schema: "Ecn.kmax_bytes" },
  "switch.ecn.pmax": { label: "ECN Pmax", meaning: "Marking probability at Kmax.", typical: "0.01 (DCQCN paper) to 0.2; ByteTuning 1-90 %", source: `${DCQCN}; ${BYTETUNING}`, schema: "Ecn.pmax" },
  "switch.ecn_mark_point": { label: "ECN mark point", meaning: "Whether the marker looks at the queue when a frame arrives (enqueue) or leaves (dequeue, reacts one queue-drain earlier).", typical: "enqueue", source: FORMAT },
  "switch.ecmp_seed": { label: "ECMP hash seed", meaning: "Seed of the per-switch ECMP hash: changes which flows collide on an uplink.", typical: "0", source: FORMAT, schema: "Switch.ecmp_seed" },
  "switch.data_priority": { label: "Data priority", meaning: "802.1p priority of RDMA data (the lossless class); CNPs and ACKs use their own.", typical: "3", source: MSFT, schema: "Switch.data_priority" },
  "switch.load_balancing": { label: "Load balancing", meaning: "How a switch picks among equal-cost next hops: ecmp hashes the 5-tuple (one path per QP); per_packet sends consecutive packets to the next hops in turn; adaptive takes the next hop whose egress queue holds the fewest bytes (Spectrum-X-style adaptive routing). Spraying reorders packets: pair it with the sprayed transport.", typical: "ecmp; adaptive or per_packet for AI fabrics", source: MODEL },
  "switch.trimming": { label: "Packet trimming", meaning: "Instead of dropping a data frame the buffer cannot hold, the switch cuts it to its 64-byte header and forwards it at the control priority; the receiver asks for exactly that packet again (NDP, Ultra Ethernet). Makes loss cheap on a lossy (PFC off) fabric with the sprayed transport.", typical: "off; on with PFC off and sprayed traffic", source: MODEL },

  // NIC
  "nic.mtu_bytes": { label: "MTU", unit: "bytes", meaning: "Payload per RoCEv2 DATA frame (82 bytes of headers, preamble and gap come on top).", typical: "1000 (DCQCN paper), 1024, 4096", source: DCQCN, schema: "Nic.mtu_bytes" },
  "nic.qp_depth": { label: "QP depth", unit: "WQEs", meaning: "Work requests a queue pair may have outstanding; over distance it caps throughput at depth x message / RTT. \"bdp\" sizes it per flow to RTT x rate / message wire bytes (NTT's QD).", typical: "16-128; NTT: 92 (perftest), 2,991 fills 100 km at 100G", source: NTT, schema: "Nic.qp_depth" },
  "nic.message_bytes": { label: "Message size", unit: "bytes", meaning: "Size of one RDMA WRITE (one WQE).", typical: "4 KB-1 MB; 64 KB default", source: NTT, schema: "Nic.message_bytes" },
  "nic.cc.algorithm": { label: "Congestion control", meaning: "dcqcn: rate control driven by CNPs; none: line rate, only PFC limits the senders.", typical: "dcqcn", source: DCQCN },
  "nic.cc.preset": { label: "DCQCN preset", meaning: "Named parameter set that every DCQCN parameter left unset comes from, the notification point's CNP spacing included: nvidia-default (ConnectX firmware defaults: CNPs at most every 4 us, alpha updated every 1 us, Rai 5 Mbit/s), dcqcn-paper (the SIGCOMM 2015 values for 40G NICs: CNPs every 50 us, Rai 40 Mbit/s per 55 us) or hpcc-dcqcn (the HPCC simulator's benchmark). A scenario that names none runs nvidia-default.", typical: "nvidia-default", source: DCQCN },
  "nic.cc.g": { label: "DCQCN g", meaning: "Gain of the alpha estimate: alpha = (1 - g) alpha + g on each alpha update with a CNP.", typical: "1/256 (0.00390625)", source: DCQCN, schema: "Cc.g" },
  "nic.cc.rai_mbps": { label: "Rai", unit: "Mbit/s", meaning: "Additive increase of the target rate per recovery step.", typical: "40 Mbit/s (paper), 5 Mbit/s (NVIDIA default)", source: DCQCN, schema: "Cc.rai_mbps" },
  "nic.cc.rhai_mbps": { label: "Rhai", unit: "Mbit/s", meaning: "Hyper increase step, used after many recovery steps without congestion.", typical: "200 Mbit/s (paper), 50 Mbit/s (NVIDIA)", source: DCQCN, schema: "Cc.rhai_mbps" },
  "nic.cc.min_rate_mbps": { label: "Min rate", unit: "Mbit/s", meaning: "Floor of the sending rate after decreases.", typical: "1-100 Mbit/s", source: DCQCN, schema: "Cc.min_rate_mbps" },
  "nic.cnp_interval_us": { label: "CNP interval", unit: "us", meaning: "The receiver (notification point) sends at most one CNP per QP per interval. Unset: the DCQCN preset's (nvidia-default 4 us, dcqcn-paper 50 us).", typical: "4 us (ConnectX min_time_between_cnps), 50 us (paper)", source: DCQCN, schema: "Nic.cnp_interval_us" },
  "nic.ack_interval_packets": { label: "ACK interval", unit: "packets", meaning: "The receiver acknowledges every Nth packet.", typical: "1", source: MODEL, schema: "Nic.ack_interval_packets" },
  "nic.rto_us": { label: "Retransmission timeout", unit: "us", meaning: "Go-back-N restarts from the last acknowledged packet when nothing is acknowledged for this long; must exceed the RTT.", typical: "1,000 us in a data centre; 100,000 us at 100 km", source: NTT, schema: "Nic.rto_us" },
  "nic.nack_enabled": { label: "NACK / go-back-N", meaning: "The receiver reports a gap at once (NACK) instead of waiting for the timeout.", typical: "on", source: MSFT },
  "nic.transport": { label: "Transport", meaning: "Reliability layer: rc (go-back-N, one QP per pair of processes), xrc (RC on the wire, send QPs shared per process and destination host: N x p instead of (N-1) x p^2), sprayed (a source port per packet, reorder buffer, selective ACK and retransmission), erd (ERD: one reliable-datagram QP per process, p per NIC; each message sprayed over erd.paths source ports, whole messages delivered in order, NACKs from a bitmap scan every T, a retry queue served before new data).", typical: "rc", source: `${ERD}; ${MODEL}` },
  "nic.processes_per_host": { label: "Processes per host", meaning: "p: all-to-all and permutation traffic runs between every pair of processes (p^2 flows per host pair sharing its bytes), so RC needs (N-1) x p^2 QPs per NIC, XRC N x p, ERD p.", typical: "1; 8 (one per GPU)", source: ERD, schema: "Nic.processes_per_host" },
  "nic.qp_cache_entries": { label: "QP-context cache", unit: "entries", meaning: "QP contexts the NIC keeps on chip (least recently used evicted); a send on a QP that missed stalls transmission for the miss cost. 0 = unlimited.", typical: "0; a few hundred to a few thousand on real NICs", source: ERD, schema: "Nic.qp_cache_entries" },
  "nic.qp_cache_miss_ns": { label: "QP-context miss cost", unit: "ns", meaning: "Transmit stall while a QP context that missed the cache is fetched over PCIe.", typical: "500 ns (about one PCIe round trip)", source: ERD, schema: "Nic.qp_cache_miss_ns" },
  "nic.sprayed.reorder_window_packets": { label: "Reorder window (sprayed)", unit: "packets", meaning: "Packets the receiver buffers out of order; the sender keeps no more than this in flight.", typical: "256; above the bandwidth-delay product", source: MODEL, schema: "Sprayed.reorder_window_packets" },
  "nic.sprayed.sack_interval_packets": { label: "SACK interval (sprayed)", unit: "packets", meaning: "An ACK (cumulative PSN plus one selectively acknowledged PSN) per this many in-order arrivals; out-of-order arrivals are acknowledged at once.", typical: "1", source: MODEL, schema: "Sprayed.sack_interval_packets" },
  "nic.erd.paths": { label: "Paths per QP (erd)", unit: "source ports", meaning: "Distinct UDP source ports an ERD QP's packets take in turn (packet k by port k mod paths), so ECMP spreads each message over up to this many paths; a retransmission takes the next path.", typical: "4 (the ERD paper finds 3-4 best in a fat tree)", source: `${ERD}; ${MODEL}`, schema: "Erd.paths" },
  "nic.erd.nack_interval_us": { label: "NACK scan interval (erd)", unit: "us", meaning: "Period T of the receiver's bitmap scan: packets missing below the highest PSN seen one scan earlier are NACKed. auto = 2.5 x the flow's RTT as measured from its ACKs (at least the idle path's).", typical: "auto (the paper: 2-3 RTT)", source: `${ERD}; ${MODEL}`, schema: "Erd.nack_interval_us" },

  // explicit links (selection panel)
  "topology.links.rate_gbps": rate("Link rate", "ExplicitLink.rate_gbps"),
  "topology.links.delay_us": { label: "Link delay", unit: "us", meaning: "One-way propagation delay of the link.", typical: "1 us in a data centre (200 m of fibre)", source: MODEL, schema: "ExplicitLink.delay_us" },
  "topology.links.length_km": { label: "Link length", unit: "km", meaning: "Fibre length; the delay is 5 us per km one way.", typical: "10-1,000 km for DCI", source: NTT, schema: "ExplicitLink.length_km" },

  // generators (the generator form)
  "topology.leaves": { label: "Leaves", meaning: "Leaf (ToR) switches.", typical: "2-64", source: FORMAT, schema: "LeafSpine.leaves" },
  "topology.spines": { label: "Spines", meaning: "Spine switches; every leaf links to every spine.", typical: "2-32", source: FORMAT, schema: "LeafSpine.spines" },
  "topology.hosts_per_leaf": { label: "Hosts per leaf", meaning: "Servers under each leaf.", typical: "16-48", source: FORMAT, schema: "LeafSpine.hosts_per_leaf" },
  "topology.host_rate_gbps": rate("Host rate", "LeafSpine.host_rate_gbps"),
  "topology.fabric_rate_gbps": rate("Fabric rate", "LeafSpine.fabric_rate_gbps"),
  "topology.link_delay_us": { label: "Link delay", unit: "us", meaning: "One-way delay of every link of the generated fabric.", typical: "1 us", source: MODEL, schema: "LeafSpine.link_delay_us" },
  "topology.k": { label: "k", meaning: "Fat-tree arity (even): k pods of k/2 edge and k/2 aggregation switches, (k/2)^2 cores, k^3/4 hosts.", typical: "4 (16 hosts), 16 (1,024 hosts)", source: FORMAT, schema: "FatTree.k" },
  "topology.podsets": { label: "Podsets", meaning: "Podsets of ToRs and leafs under the spine layer.", typical: "2-16", source: MSFT, schema: "ThreeTier.podsets" },
  "topology.tors_per_podset": { label: "ToRs per podset", meaning: "ToR switches in each podset.", typical: "24 (Microsoft)", source: MSFT, schema: "ThreeTier.tors_per_podset" },
  "topology.leafs_per_podset": { label: "Leafs per podset", meaning: "Leaf switches in each podset.", typical: "4 (Microsoft)", source: MSFT, schema: "ThreeTier.leafs_per_podset" },
  "topology.hosts_per_tor": { label: "Hosts per ToR", meaning: "Servers under each ToR.", typical: "24 (Microsoft)", source: MSFT, schema: "ThreeTier.hosts_per_tor" },
  "topology.tor_uplink_gbps": rate("ToR uplink", "ThreeTier.tor_uplink_gbps"),
  "topology.leaf_uplink_gbps": rate("Leaf uplink", "ThreeTier.leaf_uplink_gbps"),
  "topology.dci_rate_gbps": rate("Long-haul rate", "Dci.dci_rate_gbps"),
  "topology.length_km": { label: "Distance", unit: "km", meaning: "Length of the long-haul fibre between the sites (5 us per km one way).", typical: "10, 100, 1,000 km (NTT)", source: NTT, schema: "Dci.length_km" },
  "topology.accelerator.enabled": { label: "RDMA WAN accelerator", meaning: "NTT's accelerator at a-dci and b-dci: it answers each frame leaving the site with a pseudo-ACK, holds a copy until the far end acknowledges it, and resends lost frames over the long link itself.", typical: "on: small messages over 100 km gain about RTT(long) / RTT(site); NTT measured ~35x at 512 B", source: NTT, schema: "DciAccelerator.enabled" },
  "topology.accelerator.buffer_bytes": { label: "Accelerator buffer", unit: "bytes", meaning: "Data each accelerator edge may hold, all QPs together, until the far end acknowledges it. Below the long link's bandwidth-delay product (rate x 2 x one-way delay: 12.5 MB at 100 km, 100G) frames pass unheld and their senders wait for the far end's ACKs.", typical: "256 MiB (default); at least the long link's BDP", source: NTT, schema: "DciAccelerator.buffer_bytes" },
  "topology.accelerator.retransmit_timeout_us": { label: "Accelerator resend timeout", unit: "us", meaning: "The edge resends its held data over the long link when the far end acknowledged nothing for this long. Empty: 2 x the long-haul RTT + 100 us; below the long-haul RTT every held frame is resent before its ACK can return.", typical: "empty (2,100 us at 100 km)", source: NTT, schema: "DciAccelerator.retransmit_timeout_us" },
  "topology.units": { label: "Scalable units", meaning: "Units of servers; each unit has one leaf per rail, and the spines join the units' leaves.", typical: "1-4 (a DGX H100 SuperPOD: 4 units of 32 servers)", source: NVIDIA_SUPERPOD, schema: "RailOptimized.units" },
  "topology.servers_per_unit": { label: "Servers per unit", meaning: "GPU servers in each scalable unit; NIC r of each links to the unit's leaf for rail r.", typical: "32 (DGX SuperPOD)", source: NVIDIA_SUPERPOD, schema: "RailOptimized.servers_per_unit" },
  "topology.nics_per_server": { label: "NICs per server", meaning: "One RDMA NIC per GPU; also the number of rails, so of leaves per unit. A host of this fabric is one NIC.", typical: "8 (DGX H100: 8 x 400G)", source: NVIDIA_SUPERPOD, schema: "RailOptimized.nics_per_server" },
  "topology.nvlink_gbps": { label: "NVLink per GPU", unit: "Gbit/s", meaning: "Bandwidth between GPUs of one server, each direction. A documented cost, not a simulated link: flows between NICs of one server still cross the fabric.", typical: "3,600 (H100: 900 GB/s both ways)", source: NVIDIA_SUPERPOD, schema: "RailOptimized.nvlink_gbps" },
  "topology.planes": { label: "Planes", meaning: "Ports per NIC, each on a fabric (plane) of its own: the NIC's rate is planes x the port rate. The sprayed transport sends each packet on a free plane; RC pins each QP to one plane by a hash, so a connection needs at least this many QPs to fill the NIC.", typical: "4 x 200G or 8 x 100G (an 800G NIC)", source: MULTI_PLANE, schema: "MultiPlane.planes" },
  "topology.site.leaves": { label: "Leaves per site", meaning: "Leaf switches in each site.", typical: "1-8", source: FORMAT, schema: "LeafSpineSite.leaves" },
  "topology.site.spines": { label: "Spines per site", meaning: "Spine switches in each site.", typical: "1-4", source: FORMAT, schema: "LeafSpineSite.spines" },
  "topology.site.hosts_per_leaf": { label: "Hosts per leaf", meaning: "Servers under each leaf of a site.", typical: "1-16", source: FORMAT, schema: "LeafSpineSite.hosts_per_leaf" },

  // traffic
  "traffic.senders": { label: "Senders", meaning: "Hosts that all send to the receiver at once (N-to-1 incast).", typical: "2-64", source: BYTETUNING },
  "traffic.receiver": { label: "Receiver", meaning: "The host the incast converges on; its port is the bottleneck.", typical: "h0", source: BYTETUNING },
  "traffic.src": { label: "Source", meaning: "Sending host of the perftest stream.", typical: "a-h0", source: NTT },
  "traffic.dst": { label: "Destination", meaning: "Receiving host of the perftest stream.", typical: "b-h0", source: NTT },
  "traffic.size_bytes": { label: "Size", unit: "bytes", meaning: "Bytes each flow sends; 0 keeps it going until the end of the run.", typical: "0 (long-lived), 1-2 MB", source: FORMAT, schema: "Incast.size_bytes" },
  "traffic.message_bytes": { label: "Message", unit: "bytes", meaning: "Size of each RDMA WRITE of the perftest (ib_write_bw -s).", typical: "4096 (NTT), 65536", source: NTT, schema: "Perftest.message_bytes" },
  "traffic.tx_depth": { label: "TX depth", unit: "WQEs", meaning: "Messages in flight (ib_write_bw --tx-depth); default: nic.qp_depth.", typical: "92 (NTT); RTT x rate / frame to fill the pipe", source: NTT, schema: "Perftest.tx_depth" },
  "traffic.iterations": { label: "Iterations", meaning: "Messages to send; 0 sends until the end of the run.", typical: "0", source: NTT, schema: "Perftest.iterations" },
  "traffic.load": { label: "Load", meaning: "Offered load as a share of each host's link capacity (Poisson arrivals).", typical: "0.3-0.8", source: FORMAT, schema: "Workload.load" },
  "traffic.stop_us": { label: "Stop", unit: "us", meaning: "No new flows start after this time; default: the duration.", typical: "empty", source: FORMAT, schema: "Workload.stop_us" },
  "traffic.distribution": { label: "Distribution", meaning: "Flow-size distribution: websearch, fb_hadoop, alistorage (from published traces) or a custom CDF.", typical: "websearch", source: FORMAT },
  "traffic.interval_us": { label: "Interval", unit: "us", meaning: "Time between probes of each host pair.", typical: "50-1,000 us", source: FORMAT, schema: "Pingmesh.interval_us" },
  "traffic.probe_bytes": { label: "Probe", unit: "bytes", meaning: "Size of each probe message.", typical: "512", source: FORMAT, schema: "Pingmesh.probe_bytes" },
  "traffic.start_us": { label: "Start", unit: "us", meaning: "When the generator starts; must be below the duration.", typical: "0", source: FORMAT, schema: "Incast.start_us" },
  "traffic.priority": { label: "Priority", meaning: "802.1p priority of this traffic; default: switch.data_priority.", typical: "empty (3)", source: FORMAT, schema: "Incast.priority" },
  "traffic.qps": { label: "QPs per flow", meaning: "Queue pairs each flow is spread over (more QPs hash onto more ECMP paths).", typical: "1-8", source: FORMAT, schema: "Incast.qps" },
  "traffic.tor_pairs": { label: "Pairs", meaning: "pairs: host to host; tor_pairs: every host under one ToR sends to the same-index host under the other.", typical: "tor_pairs for podset-to-podset tests", source: MSFT },
  "traffic.hosts": { label: "Hosts", meaning: "Hosts taking part; empty means all hosts.", typical: "all", source: FORMAT },
  // concepts: the words of result cards, headings and labs ("term.pfc"), shown through <Term>
  "term.pfc": { label: "PFC (priority flow control)", meaning: "A switch whose ingress queue for a priority passes its XOFF threshold sends a pause frame upstream; the neighbour stops that priority until XON. Nothing is dropped, but a pause can spread congestion to innocent flows and, around a cycle, deadlock.", typical: "on for the RoCEv2 class; pauses should be rare", source: PFC_STD },
  "term.pfc_pauses": { label: "PFC pauses", unit: "frames", meaning: "Pause frames the switches sent (XOFF, and refreshes in quanta mode). Many pauses mean a queue reached its XOFF threshold: ECN and DCQCN did not slow the senders in time.", typical: "0 in a tuned fabric; thousands in an incast without congestion control", source: PFC_STD },
  "term.ecn": { label: "ECN (explicit congestion notification)", meaning: "A switch marks packets instead of dropping them while its egress queue is between Kmin and Kmax (RED-style probability up to Pmax); the receiver answers marks with CNPs.", typical: "marks on the congested ports only", source: DCQCN },
  "term.partitions": { label: "Threads and partitions", meaning: "How the simulator ran: the threads it used and the partitions it cut the fabric into. Each partition has its own event queue; each thread runs its partitions one after another in windows of one link delay, frames between partitions handed over at each window's end. A fabric of 2,048 ports or more is cut into partitions of about 384 ports even on one thread, so that a partition's state stays in the CPU caches while it runs (1.3-2.3x faster per core on fat trees of 1,024 to 8,192 hosts). Results are the same bytes for any count.", typical: "1 partition below 2,048 ports; a k=32 fat tree (8,192 hosts): 128", source: `${MODEL} (Engine)` },
  "term.ecn_marks": { label: "ECN marks", unit: "packets", meaning: "Packets marked congestion-experienced by a switch queue (see Kmin, Kmax, Pmax). Each mark can make the receiver send a CNP, and the sender then cuts its rate.", typical: "a few per cent of the packets through a congested port", source: DCQCN },
  "term.dcqcn": { label: "DCQCN", meaning: "Congestion control of RoCEv2 NICs: ECN marks at the switch, CNPs from the receiver, and a rate cut (by alpha / 2) at the sender, followed by fast recovery and additive (Rai) and hyper (Rhai) increase.", typical: "dcqcn-paper or nvidia-default parameters", source: DCQCN },
  "term.cnp": { label: "CNP (congestion notification packet)", meaning: "Sent by a receiver to the sender of ECN-marked packets, at most one per QP per CNP interval; the sender's DCQCN cuts its rate on each.", typical: "one per 50 us per congested QP (paper)", source: DCQCN },
  "term.kmin_kmax": { label: "Kmin / Kmax", unit: "bytes", meaning: "ECN thresholds of an egress queue: no marks below Kmin, marking probability rising linearly to Pmax at Kmax, every packet marked above Kmax.", typical: "5 KB / 200 KB (DCQCN paper)", source: `${DCQCN}; ${BYTETUNING}` },
  "term.headroom": { label: "PFC headroom", unit: "bytes", meaning: "Buffer kept free per ingress queue for the bytes still arriving after a pause is sent: twice the cable delay at line rate plus an MTU and the response time. Too little and a lossless queue drops.", typical: "about 50 KB at 100G over 100 m; megabytes over long-haul links", source: `${PFC_STD}; ${MODEL}` },
  "term.throughput": { label: "Throughput", unit: "Gbit/s", meaning: "Payload bytes delivered to the receivers per second, all flows together, after the warm-up (goodput: headers and retransmissions left out).", typical: "close to the bottleneck's line rate under load", source: MODEL },
  "term.fct": { label: "FCT (flow completion time)", unit: "us", meaning: "From a flow's start to its last byte received (long-lived flows have none). p50 is the median, p99 the time 99 % of flows finish within (the tail).", typical: "tens of us for small flows in a data centre", source: MODEL },
  "term.slowdown": { label: "Slowdown", unit: "x", meaning: "A flow's FCT divided by its ideal FCT (the same flow alone in an empty fabric, on its path: propagation plus its bytes at the bottleneck rate). 1x is perfect.", typical: "1-2x lightly loaded; 10x+ in the tail under incast", source: MODEL },
  "term.max_queue": { label: "Max queue", unit: "bytes", meaning: "The deepest a switch egress queue got: latency and buffer use. Above Kmin it is marked; near the PFC threshold it pauses upstream.", typical: "below Kmax in a tuned fabric", source: MODEL },
  "term.drops": { label: "Drops", unit: "packets", meaning: "Packets lost in the fabric, by reason (buffer full, link loss, TTL). A lossless (PFC) class should drop none unless headroom is short or a fault is injected.", typical: "0 for the lossless class", source: MODEL },
  "term.busbw": { label: "busbw (bus bandwidth)", unit: "Gbit/s", meaning: "NCCL's measure of a collective: algorithm bandwidth (bytes / time) times a factor for the algorithm (2(n-1)/n for all-reduce, (n-1)/n for all-gather and reduce-scatter), so it compares with the link rate whatever the number of ranks.", typical: "close to the NIC rate in a well-tuned fabric", source: "NVIDIA nccl-tests, doc/PERFORMANCE.md" },
  "term.algbw": { label: "algbw (algorithm bandwidth)", unit: "Gbit/s", meaning: "Bytes of the collective's buffer divided by the time it took.", typical: "below busbw for more than one rank", source: "NVIDIA nccl-tests, doc/PERFORMANCE.md" },
  "term.incast": { label: "Incast", meaning: "Many senders to one receiver at once: the receiver's port is the bottleneck and its queue, marks and pauses show how the fabric copes.", typical: "2-64 senders", source: BYTETUNING },
  "term.ecmp": { label: "ECMP", meaning: "Equal-cost multi-path: a switch hashes each flow's 5-tuple onto one of its equal next hops. Two large flows can collide on one uplink.", typical: "hash per QP", source: MODEL },
  "term.qp": { label: "QP (queue pair)", meaning: "An RDMA connection's send and receive queues on a NIC; DCQCN keeps a rate per QP.", typical: "one per flow (rc)", source: MODEL },
  "term.deadlock": { label: "PFC deadlock", meaning: "Pauses that wait on each other around a cycle of links (a cyclic buffer dependency): no queue on the cycle drains and traffic stops for good.", typical: "avoided by routing with no cycles, or broken by a watchdog", source: MSFT },
};

/** The allowed range of a schema property, from the generated contract (contract.gen.ts). */
function rangeOf(schema: string): Pick<GlossaryEntry, "min" | "max" | "exclusiveMin"> {
  const r = SCHEMA_RANGES[schema];
  if (!r) return {};
  return { min: r.min, max: r.max, ...(r.exclusiveMin ? { exclusiveMin: true } : {}) };
}

/** Every entry, with the range of its schema property filled in. */
export const GLOSSARY: Record<string, GlossaryEntry> = Object.fromEntries(
  Object.entries(ENTRIES).map(([k, e]) => [k, e.schema ? { ...e, ...rangeOf(e.schema) } : e]),
);

/** The entry for a document path ("switch_overrides.leaf0.ecn.pmax" -> "switch.ecn.pmax"). */
export function glossaryKey(path: string): string {
  const parts = path.split(".").filter((p) => !/^\d+$/.test(p));
  if (parts[0] === "switch_overrides" || parts[0] === "nic_overrides") {
    return [parts[0] === "switch_overrides" ? "switch" : "nic", ...parts.slice(2)].join(".");
  }
  return parts.join(".");
}

export function glossaryEntry(path: string): GlossaryEntry | undefined {
  return GLOSSARY[glossaryKey(path)];
}
