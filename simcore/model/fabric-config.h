/*
 * The model's configuration: the resolved fabric the network model (helper/fabric-runner.h)
 * builds and runs. The model owns these structs; the scenario layer (scenario/: parse,
 * validate, expand generators, generate flows) translates the JSON into them.
 *
 * Everything here is fully resolved: defaults applied, overrides merged per node,
 * DCQCN presets expanded, generators expanded to explicit nodes and links, traffic
 * generators expanded to a flow list. The model never looks at JSON.
 */
#ifndef FABRIC_MODEL_FABRIC_CONFIG_H
#define FABRIC_MODEL_FABRIC_CONFIG_H

#include "common/wire.h"

#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

namespace fabric
{

/** A node after generator expansion. Index in Topology::nodes is the node's index everywhere. */
struct NodeSpec
{
    std::string id;
    bool isHost = false;
    int tier = 0;          ///< 0 host, 1 leaf/ToR/edge, 2 spine/agg/Leaf, 3 core/spine, 4 DCI edge
    std::string group;     ///< layout hint: the switch a host hangs off, or pod/podset/site
    std::string server;    ///< hosts only: the server this NIC is in ("" = none)
    int rail = -1;         ///< with server: the NIC's index in it (rail_optimized: its leaf)
    bool hasXY = false;
    double x = 0;
    double y = 0;
};

/** A bidirectional link (full duplex, same rate and delay both ways). */
struct LinkSpec
{
    uint32_t id = 0;
    uint32_t a = 0; ///< node index
    uint32_t b = 0; ///< node index
    double rateGbps = 100;
    double delayUs = 1;
};

struct Topology
{
    std::vector<NodeSpec> nodes;
    std::vector<LinkSpec> links;
    std::map<std::string, double> stats; ///< hosts, switches, links, oversubscription, ...
    std::unordered_map<std::string, uint32_t> index; ///< node id -> node index
};

struct EcnConfig
{
    bool enabled = true;
    uint64_t kminBytes = 100000;
    uint64_t kmaxBytes = 400000;
    double pmax = 0.2;
};

enum class PauseMode
{
    XOFF_XON,
    QUANTA
};

struct PfcConfig
{
    bool enabled = true;
    double alpha = 0.0625;
    bool headroomAuto = true;
    uint64_t headroomBytes = 0; ///< used when !headroomAuto
    uint64_t xonOffsetBytes = 4160;
    PauseMode pauseMode = PauseMode::XOFF_XON;
    uint32_t pauseQuanta = 65535;
    std::vector<std::pair<double, double>> alphaByRate; ///< (ingress port Gbit/s, alpha)
};

enum class LoadBalancing : uint8_t
{
    ECMP,       ///< hash of the 5-tuple: one path per QP
    PER_PACKET, ///< round robin over the next hops, packet by packet
    ADAPTIVE    ///< the next hop whose egress queue holds the fewest bytes, packet by packet
};

struct SwitchConfig
{
    uint64_t bufferBytes = 12000000;
    uint32_t cellBytes = 208;
    PfcConfig pfc;
    std::array<EcnConfig, 8> ecn; ///< per priority, resolved (ecn merged with ecn_by_priority)
    /** (egress port Gbit/s, per priority: ecn merged with ecn_by_rate, then ecn_by_priority) */
    std::vector<std::pair<double, std::array<EcnConfig, 8>>> ecnByRate;
    uint32_t ecmpSeed = 0;        ///< effective seed for this switch (already mixed with its index)
    uint8_t dataPriority = 3;
    bool ecnMarkOnDequeue = false; ///< ecn_mark_point: false = "enqueue", true = "dequeue"
    /** load_balancing: how an egress is chosen among equal-cost next hops. */
    LoadBalancing loadBalancing = LoadBalancing::ECMP;
    /** trimming: a data frame the buffer cannot hold is cut to its header and forwarded at the
     *  control priority instead of dropped (NDP, Ultra Ethernet). */
    bool trimming = false;
};

struct CcConfig
{
    std::string algorithm = "dcqcn"; ///< TypeId chosen from this: "dcqcn", "dcqcn_sampled", "none"
    double g = 1.0 / 256;
    double alphaUpdateUs = 55;
    double rateDecreaseIntervalUs = 50;
    double rateIncreaseTimerUs = 55;
    uint64_t byteCounterBytes = 10000000; ///< 0 disables the byte counter
    uint32_t fastRecoverySteps = 5;
    double raiMbps = 40;
    double rhaiMbps = 200;
    double minRateMbps = 100;
    bool clampTargetRate = true;                   ///< every cut sets target = current rate
    bool clampTargetAfterTimerIncrease = false;    ///< else only after a timer-driven increase
    double maxDecrease = 1.0;                      ///< largest fraction one cut takes off
    std::string alphaTimer = "restart_on_cnp";     ///< or "periodic" (the paper preset: restart)
    std::string presetCnpMode = "holdoff";          ///< the preset's notification point mode
    double presetCnpIntervalUs = 50;                ///< and its CNP spacing per QP (us)
};

struct NicConfig
{
    std::string transport = "rc";
    uint32_t mtuBytes = 1000; ///< RDMA payload bytes per packet
    uint32_t qpDepth = 16;    ///< outstanding WQEs (messages) per QP
    bool qpDepthBdp = false;  ///< qp_depth "bdp": sized per flow from its path (kWindowBdp)
    uint64_t messageBytes = 65536;
    CcConfig cc;
    double cnpIntervalUs = 50;
    /** Notification point: "window" (DCQCN paper: a frame marked within the interval after a
     *  CNP earns one CNP at the interval's end) or "holdoff" (marks within it are forgotten). */
    std::string cnpMode = "window";
    uint32_t ackIntervalPackets = 1;
    double rtoUs = 1000;
    bool nackEnabled = true;
    bool ackFlagFeedback = false; ///< ecn_feedback "ack_flag": flag the ACK, send no CNP
    /** ack_priority "data": ACKs and NACKs carry their flow's priority (queued with the data in
     *  switches, charged to the buffer); "control" (default): strict priority 7, uncharged. */
    bool ackDataPriority = false;
    /** Per data frame: Ethernet, IPv4, UDP, BTH, ICRC (62). */
    uint32_t headerBytes = kStoredDataOverheadBytes;
    /** Per frame on the wire, not stored in switch buffers (20). */
    uint32_t preambleIfgBytes = kPreambleIfgBytes;
    uint32_t processesPerHost = 1;  ///< p in the QP accounting (docs/model.md, "Transports")
    uint32_t qpCacheEntries = 0;    ///< QP contexts cached on the NIC; 0 = unlimited
    double qpCacheMissNs = 500;     ///< transmit stall to fetch a context that missed
    uint32_t reorderWindowPackets = 256; ///< sprayed: receiver reorder buffer (packets)
    uint32_t sackIntervalPackets = 1;    ///< sprayed: an ACK (with its SACK) per n arrivals
    uint32_t erdPaths = 4;               ///< erd: source ports a QP's packets take in turn
    double erdNackIntervalUs = 0;        ///< erd: receiver's NACK scan period; 0 = "auto"
};

/** FlowSpec::window of a QP whose depth is "bdp": base RTT x bottleneck rate / message wire
 *  bytes, resolved per flow when the network is built (helper/network-builder.cc). */
constexpr uint32_t kWindowBdp = 0;

/** One RDMA connection (one QP) the model must simulate. */
struct FlowSpec
{
    uint32_t id = 0;
    uint32_t src = 0;       ///< host node index
    uint32_t dst = 0;       ///< host node index
    uint32_t generator = 0; ///< index in the scenario's traffic list
    uint8_t priority = 3;
    uint64_t sizeBytes = 0;    ///< 0 = long-lived: sends until the end of the run
    uint64_t startNs = 0;
    uint64_t messageBytes = 65536; ///< WQE size: the flow is posted as messages of this size
    uint32_t window = 16;          ///< outstanding messages allowed (QP depth / tx depth)
                                   ///< or kWindowBdp
    uint16_t udpSrcPort = 49152;   ///< distinct per QP, feeds the ECMP hash
    bool probe = false;            ///< pingmesh probe (RTT statistics)
    /// A collective's connection between two GPUs of one server (or a rank's markers): carried
    /// over NVLink, not the fabric (each transfer takes its JobFlow::localNs and sends no packet).
    bool local = false;
    uint32_t srcProcess = 0;       ///< sending process (0 .. p-1): XRC's and ERD's QP sharing
};

/**
 * Flows that wait for flows (a flow list's `after`, the collective generator): flow i starts
 * at max(its startNs, the moment its sender knows the last of the flows it waits on completed
 * + gapNs[i]) (helper/flow-dependencies.h: at once on that flow's receiver, after the ACK's way
 * back on that flow's sender).
 * Compressed rows by flow id; all empty when no flow waits, so runs without dependencies pay
 * nothing. Acyclic (the scenario layer refuses cycles).
 */
struct FlowDependencies
{
    std::vector<uint32_t> begin; ///< flows + 1 offsets into on, or empty
    std::vector<uint32_t> on;    ///< ids of the flows waited on
    std::vector<uint64_t> gapNs; ///< by flow id (empty when begin is)

    bool Empty() const { return begin.empty(); }

    bool Waits(uint32_t flow) const
    {
        return flow + 1 < begin.size() && begin[flow + 1] > begin[flow];
    }
};

/** A `training` job's plan, as its results need it (defined by scenario/training-summary.h). */
struct TrainingJob;

/** A collective job (the `collective` traffic generator): what its results are computed from. */
struct JobSpec
{
    std::string name;
    uint32_t generator = 0;       ///< index in the scenario's traffic list
    std::string op;               ///< all_reduce, all_gather, reduce_scatter, all_to_all, broadcast
    std::string algorithm;        ///< ring, tree, halving_doubling, direct, hierarchical
    std::vector<uint32_t> ranks;  ///< host node indices in rank order
    uint32_t servers = 0;         ///< distinct servers among the ranks
    uint64_t messageBytes = 0;    ///< NCCL-tests' size
    double busFactor = 1;         ///< busbw = algbw x busFactor
    uint32_t iterations = 1;
    uint32_t channels = 1;
    uint32_t ranksPerServer = 1; ///< most ranks in one server (1: every rank alone in its server)
    double nvlinkGbps = 0;       ///< a step inside a server's rate (0: the job has none)
    /// A `training` job's plan (its transfers' JobFlow::step is their index in it); null
    /// for a collective.
    std::shared_ptr<const TrainingJob> training;
};

/** What a collective's flow is to its job: the iteration, step and channel it belongs to. */
struct JobFlow
{
    uint32_t job = UINT32_MAX; ///< index in Scenario::jobs; UINT32_MAX: not a collective's flow
    uint32_t iteration = 0;
    uint32_t step = 0;
    uint32_t channel = 0;
    uint64_t localNs = 0; ///< FlowSpec::local: the NVLink transfer's duration
};

/**
 * A collective's transfers as messages on persistent connections (docs/model.md,
 * "Collectives"): each connection is one flow (a QP, or an NVLink connection when
 * FlowSpec::local) that carries its transfers in order, one message each. A struct of arrays by
 * transfer index; the transfers of one flow are numbered consecutively in the order they are
 * posted (flow f carries [flowBegin[f], flowBegin[f + 1])). A transfer is posted when its inputs
 * are known (deps, the rules of FlowDependencies) and the one before it on its connection was;
 * its completion at the receiver is what the transfers waiting for it and the job's results see.
 * Empty in runs without collectives.
 */
/**
 * A ring collective whose transfers are not listed (docs/model.md, "Rings at scale"): the
 * packet model derives each transfer, its inputs and its dependents from the ring's shape, so a
 * ring costs memory per connection, not per transfer (an 8,192-rank ring all-reduce has 134 M
 * transfers on 8,192 connections). The same transfers, in the same order, with the same inputs
 * as the listed plan of a ring of one part per step (collective-plan.cc): transfer (iteration,
 * step) of position p sends its block to p + 1 once position p - 1's transfer of the step
 * before arrived (step 0 of a later iteration: once every transfer of the iteration before that
 * touched the sender arrived, + gapNs), and the one window places before it on its connection.
 *
 * Transfer indices follow the listed transfers: connection q = channel x ranks + position
 * carries [base + q x PerConnection(), base + (q + 1) x PerConnection()), message
 * m = iteration x steps + step.
 */
struct RingProgram
{
    uint32_t job = 0;        ///< index in Scenario::jobs
    uint32_t ranks = 0;      ///< n
    uint32_t channels = 1;
    uint32_t steps = 0;      ///< per iteration
    uint32_t iterations = 1;
    uint64_t blockBytes = 0; ///< every transfer's bytes
    uint64_t gapNs = 0;      ///< a later iteration's step 0 after its inputs (compute_us)
    uint32_t window = 0;     ///< message m also waits for m - window on its connection (m >= window)
    uint64_t nvlinkNs = 0;   ///< an NVLink connection's transfer time
    uint64_t base = 0;       ///< index of its first transfer
    std::vector<uint32_t> flows;  ///< [channel x ranks + position]: the connection to position + 1
    std::vector<uint32_t> rankAt; ///< [channel x ranks + position]: the rank there
    std::vector<uint32_t> posOf;  ///< [channel x ranks + rank]: its position on the channel

    uint64_t PerConnection() const { return static_cast<uint64_t>(iterations) * steps; }

    uint64_t Total() const { return PerConnection() * flows.size(); }
};

/**
 * One step (iteration, channel, step) of a ring program as one thread of a run saw its
 * transfers (FlowDependencyTracker): posted at their senders, completed at their receivers.
 */
struct RingStepTimes
{
    uint64_t posted = 0;
    uint64_t completed = 0;
    int64_t firstStartPs = INT64_MAX;
    int64_t lastCompletePs = -1;
    int64_t slowestPs = -1;    ///< the longest transfer, posted to completed
    uint64_t slowestIndex = 0; ///< its transfer index (the lowest of equals)
    uint32_t slowestFlow = 0;  ///< its connection
};

/** The ring step slot of (ring's first slot, iteration, channel, step) in ringSteps. */
inline std::size_t
RingStepSlot(const RingProgram& r, std::size_t first, uint32_t iteration, uint32_t channel, uint32_t step)
{
    return first + (static_cast<std::size_t>(iteration) * r.channels + channel) * r.steps + step;
}

/**
 * A collective inside one server (its transfers all over NVLink) kept as one stand-in transfer
 * per connection instead of its transfers (docs/model.md, "Flow-level engine"; only the flow
 * engine's loads ask for it): nothing on NVLink shares a link, so every transfer's times follow
 * from the stand-ins' ready times (each its connection's first transfer's inputs) by the plan's
 * own rules, computed when the last is known. The plan's shape is kept once per distinct
 * collective (NvlinkTemplate); each use of it is an NvlinkGroup.
 */
struct NvlinkTemplate
{
    uint32_t connections = 0;
    std::vector<uint32_t> connection; ///< per plan transfer (in plan order): its connection
    std::vector<uint64_t> localNs;    ///< per plan transfer: its NVLink time
    std::vector<uint32_t> inputBegin; ///< plan transfers + 1 offsets into inputs
    std::vector<uint32_t> inputs;     ///< plan transfers of this template each waits for
    std::vector<uint32_t> carried;    ///< per connection: how many plan transfers it carries
};

/** One use of an NvlinkTemplate: proxy[k] is connection k's stand-in (a transfer index). */
struct NvlinkGroup
{
    uint32_t tmpl = 0;
    std::vector<uint32_t> proxy;
};

struct Transfers
{
    std::vector<uint32_t> flow;      ///< per transfer: its connection (flow id)
    std::vector<uint64_t> bytes;     ///< per transfer
    std::vector<JobFlow> job;        ///< per transfer: job, iteration, step, channel, localNs
    FlowDependencies deps;           ///< by transfer index: the transfers each one waits for
    std::vector<uint32_t> flowBegin; ///< flows + 1 offsets (empty when there are no transfers)
    /// Ring collectives whose transfers are not listed, numbered after the listed ones.
    std::vector<RingProgram> rings;
    /// Per flow (empty without rings): the ring whose connection it is, else UINT32_MAX, and
    /// which of the ring's connections.
    std::vector<uint32_t> ringOf;
    std::vector<uint32_t> ringConnection;
    /// NVLink collectives kept as stand-ins (NvlinkTemplate), and per transfer (empty without
    /// them) the group whose stand-in it is, else UINT32_MAX.
    std::vector<NvlinkTemplate> nvlinkTemplates;
    std::vector<NvlinkGroup> nvlinkGroups;
    std::vector<uint32_t> groupOf;

    /** Listed transfers (the rings' come after them). */
    std::size_t Size() const { return flow.size(); }

    /** No listed transfer (a ring may still run without its list: Any). */
    bool Empty() const { return flow.empty(); }

    bool Any() const { return !flow.empty() || !rings.empty(); }

    /** Whether flow f is a ring's connection. */
    bool InRing(uint32_t f) const { return f < ringOf.size() && ringOf[f] != UINT32_MAX; }

    /** Whether flow f is a connection carrying listed transfers. */
    bool Lists(uint32_t f) const { return f + 1 < flowBegin.size() && flowBegin[f + 1] > flowBegin[f]; }

    /** Whether flow is a connection carrying transfers (else an ordinary flow). */
    bool Carries(uint32_t f) const { return Lists(f) || InRing(f); }

    /** The NvlinkGroup transfer t stands in for, or UINT32_MAX. */
    uint32_t GroupOf(std::size_t t) const { return t < groupOf.size() ? groupOf[t] : UINT32_MAX; }

    /** How many of the plan's transfers transfer t stands for (1 unless a stand-in). */
    uint32_t Stands(std::size_t t) const
    {
        uint32_t g = GroupOf(t);
        if (g == UINT32_MAX)
        {
            return 1;
        }
        const NvlinkGroup& group = nvlinkGroups[g];
        for (uint32_t k = 0; k < group.proxy.size(); ++k)
        {
            if (group.proxy[k] == t)
            {
                return nvlinkTemplates[group.tmpl].carried[k];
            }
        }
        return 1;
    }
};

/** A directed port/queue: node's egress toward neighbor. Named "node->neighbor". */
struct PortRef
{
    uint32_t node = 0;
    uint32_t neighbor = 0;
};

struct MonitorConfig
{
    double sampleIntervalUs = 10;
    std::vector<PortRef> queues; ///< egress queues to sample (bytes, data priority summed)
    std::vector<uint32_t> flows; ///< flow ids whose rate is sampled
    std::vector<PortRef> ports;  ///< ports whose pause state is sampled
    /** "auto" in the scenario: the runner samples every candidate and keeps the busiest after
     *  the run (helper/auto-monitor.h); the lists above are the fallback when it cannot. */
    bool queuesAuto = false;
    bool flowsAuto = false;
    bool portsAuto = false;
};

/** What a fault does (docs/scenario-format.md, "Faults"). */
enum class FaultKind
{
    LOSS,
    LINK_DOWN,
    LINK_UP,
    PFC_STORM,
    SLOW_RECEIVER,
    SET
};

/** A parameter a `set` fault changes at run time. */
enum class SetParamKind
{
    PFC_ALPHA,
    ECN_KMIN,
    ECN_KMAX,
    ECN_PMAX,
    RTO_US,
    CNP_INTERVAL_US
};

/** One scheduled fault, resolved to node indices. */
struct FaultSpec
{
    FaultKind kind = FaultKind::LOSS;
    std::string name;
    uint64_t startNs = 0;
    uint64_t endNs = 0; ///< 0: lasts to the end of the run
    PortRef link;       ///< loss, link_down, link_up: node -> neighbor
    bool bothDirections = true;
    double lossRate = 0;    ///< loss: probability (0 when everyN is used)
    uint64_t everyN = 0;    ///< loss: every n-th frame (0 when lossRate is used)
    bool dataOnly = true;   ///< loss: DATA frames only, else every frame but PAUSE
    uint64_t convergenceNs = 0; ///< link_down/link_up: routing convergence delay
    uint32_t host = 0;      ///< pfc_storm, slow_receiver
    uint8_t priority = 3;   ///< pfc_storm
    uint64_t intervalNs = 0; ///< pfc_storm: between pause frames (0: half the pause time)
    double drainGbps = 0;   ///< slow_receiver
    uint64_t bufferBytes = 131072; ///< slow_receiver
    std::vector<uint32_t> nodes; ///< set: the nodes changed
    SetParamKind param = SetParamKind::PFC_ALPHA;
    std::string paramName; ///< set: the document's name of param ("pfc.alpha"), for the log
    double value = 0;
};

struct WatchdogConfig
{
    bool switchEnabled = false;
    uint64_t switchDetectNs = 200000;
    uint64_t switchRestoreNs = 1000000;
    bool switchAllPorts = false; ///< false: only ports facing hosts
    bool nicEnabled = false;
    uint64_t nicDetectNs = 200000;
    uint64_t deadlockReportNs = 1000000;
};

/** topology.dci.accelerator: the RDMA WAN accelerator at both DCI site edges (NTT, seeds/002). */
struct DciAcceleratorConfig
{
    bool enabled = false;
    uint64_t bufferBytes = 268435456;   ///< data held per edge, all QPs together
    double retransmitTimeoutUs = 0;     ///< resolved: given, or 2 x long-haul RTT + 100 us
    std::array<uint32_t, 2> edges{};    ///< node indices of a-dci and b-dci
};

struct Scenario
{
    int schemaVersion = 1;
    std::string name;
    uint32_t seed = 1;
    uint64_t durationNs = 10000000;
    uint64_t warmupNs = 0;
    Topology topo;
    std::vector<SwitchConfig> switchCfg; ///< indexed by node index (entries for hosts unused)
    std::vector<NicConfig> nicCfg;       ///< indexed by node index (entries for switches unused)
    std::vector<FlowSpec> flows;         ///< sorted by startNs, then id
    FlowDependencies deps;               ///< empty unless some flow waits for others
    std::vector<JobSpec> jobs;           ///< collective jobs, in traffic order
    /// by flow id; empty when jobs is. A collective's connection names its job (its
    /// iteration, step and channel are its transfers', in transfers.job).
    std::vector<JobFlow> jobFlows;
    Transfers transfers;                 ///< collectives' transfers on their connections
    MonitorConfig monitor;
    std::vector<FaultSpec> faults; ///< in scenario order
    WatchdogConfig watchdogs;
    DciAcceleratorConfig dciAccelerator; ///< enabled only on a dci topology that asks for it
    bool portCounters = false; ///< telemetry.port_counters
    bool flowPaths = false;    ///< telemetry.flow_paths
    std::string sha256; ///< of the scenario file bytes
    std::unordered_set<uint32_t> rtoOverridden; ///< hosts whose nic_overrides entry sets rto_us
};

} // namespace fabric

#endif
