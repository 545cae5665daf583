/*
 * State shared by all devices of one simulated fabric: per-flow (QP) state, global counters
 * and the measurement window. Owned by the FabricNetwork; devices hold a raw pointer.
 */
#ifndef FABRIC_FABRIC_CONTEXT_H
#define FABRIC_FABRIC_CONTEXT_H

#include "model/congestion-ops.h"
#include "model/fabric-config.h"

#include "ns3/ptr.h"

#include <array>
#include <cstdint>
#include <limits>
#include <map>
#include <vector>

namespace fabric
{

/** Drop reasons, named as in the result format. */
enum DropReason : uint8_t
{
    DROP_HEADROOM_OVERFLOW = 0,
    DROP_BUFFER_OVERFLOW = 1,
    DROP_TAIL = 2,
    DROP_LINK_LOSS = 3,       ///< a loss fault on the link
    DROP_LINK_DOWN = 4,       ///< on the wire or queued toward a link that went down
    DROP_PFC_WATCHDOG = 5,    ///< dropped by a switch PFC watchdog toward a stormed port
    DROP_NIC_RX_OVERFLOW = 6, ///< a slow receiver's buffer was full
    DROP_REASONS = 7
};

constexpr uint64_t kUnboundedPackets = uint64_t(1) << 60;

/** ERD's per-flow counters (nic.transport "erd"; the result's flows[].erd). */
struct ErdCounters
{
    uint64_t nacksSent = 0;         ///< NACK frames (one per run of missing packets per scan)
    uint64_t packetsNacked = 0;     ///< packets those NACKs named
    uint64_t outOfOrder = 0;        ///< arrivals below the highest PSN already seen
    uint64_t duplicates = 0;        ///< arrivals of a packet already held or delivered
    uint64_t maxReorderPackets = 0; ///< most packets held undelivered at once
};

/** Sender and receiver state of one RC queue pair (one FlowSpec). */
struct FlowState
{
    const FlowSpec* spec = nullptr;
    uint64_t totalPkts = 0; ///< kUnboundedPackets for long-lived flows
    uint32_t mtu = 1000;
    uint32_t lastPayload = 1000; ///< payload of the last packet of a finite flow
    uint64_t windowPkts = 1;
    uint32_t qpDepth = 1; ///< the WQE window (spec window, or resolved from "bdp")
    bool valid = false; ///< false: unroutable or degenerate flow, never started
    double lineRateBps = 0;

    // Sender (requester)
    bool started = false;
    bool senderDone = false;
    uint64_t sndNxt = 0;
    uint64_t sndUna = 0;
    uint64_t maxSent = 0;
    int64_t nextSendPs = 0;
    int64_t lastProgressPs = 0;
    uint64_t retransmits = 0;
    uint64_t timeouts = 0;
    ns3::Ptr<CongestionOps> cc;

    // Receiver (responder)
    uint64_t expected = 0;
    bool nackSent = false;
    uint32_t ackCounter = 0;
    bool eceSinceAck = false; ///< a CE-marked packet arrived since the last ACK (ack_flag)
    int64_t lastCnpPs = -1;
    bool cnpPending = false; ///< a marked frame arrived since the last CNP (window mode)
    uint64_t bytesDelivered = 0;
    // Conservation (docs/result-format.md): DATA payload bytes; sent = received + dropped +
    // still in the network, exactly.
    uint64_t bytesSent = 0;          ///< put on the wire by the sender, retransmissions included
    uint64_t bytesRetransmitted = 0; ///< of bytesSent: PSNs sent before
    uint64_t bytesReceived = 0;      ///< reached the receiver (duplicates, out of order included)
    uint64_t bytesDropped = 0;       ///< dropped in the network (any reason)
    /// Of bytesDelivered, the payload that arrived after the warm-up (a frame straddling it
    /// counts its share, as hostRxBytes does).
    uint64_t bytesDeliveredInWindow = 0;
    int64_t startPs = 0;
    int64_t completePs = -1;  ///< receiver got the last byte
    int64_t senderDonePs = -1; ///< sender got the ACK of the last byte (a probe's RTT ends here)
    double idealPs = 0;
    int64_t baseRttPs = 0; ///< an MTU frame and its ACK over the idle path, both ways
    double smoothedRttPs = 0; ///< ERD: RTT measured from ACKs (EWMA 1/8), 0 before a sample
    ErdCounters erd;

    // A connection's messages (Scenario::transfers); msgCount 0 for an ordinary flow. The
    // sender posts them in order (totalPkts: the PSN after the last one posted); the receiver
    // completes each as its last packet is delivered in order.
    const uint64_t* msgEndPkt = nullptr;      ///< per message: the PSN after its last packet
    const uint32_t* msgLastPayload = nullptr; ///< per message: its last packet's payload
    uint32_t msgFirst = 0;  ///< the transfer index of its first message
    uint32_t msgCount = 0;
    uint32_t msgPosted = 0; ///< sender: messages posted
    uint32_t msgDone = 0;   ///< receiver: messages delivered whole
    bool parked = false;    ///< sender: every posted message acknowledged, more to come
    /// Receiver: the in-order count whose delivery completes something (totalPkts, or the end
    /// of the message being received).
    uint64_t rxMarkPkt = 0;
    uint64_t rxEndPkt = 0;    ///< receiver: packets it will ever get (totalPkts, or all messages')
    uint64_t partialFrom = 0; ///< Payload: a PSN + 1 below this is a whole MTU

    uint32_t Payload(uint64_t psn) const
    {
        return __builtin_expect(psn + 1 < partialFrom, 1) ? mtu : PayloadNearEnd(psn);
    }

    /** Payload of a PSN that may end a flow or a message (out of the per-packet path). */
    uint32_t PayloadNearEnd(uint64_t psn) const;

    /** The PSN after the end of the message holding psn (an ordinary flow: totalPkts). */
    uint64_t MessageEndAfter(uint64_t psn) const;
};

struct FabricCounters
{
    uint64_t packetsTx = 0;
    uint64_t ecnMarked = 0;
    uint64_t cnpsSent = 0;
    uint64_t retransmitted = 0;
    uint64_t pausesSent = 0;
    uint64_t pausesReceived = 0;
    std::array<uint64_t, DROP_REASONS> drops{};
    std::array<uint64_t, DROP_REASONS> dropDataBytes{}; ///< DATA payload bytes of those drops
    uint64_t unroutableDataBytes = 0; ///< DATA payload a switch had no route for
    uint64_t trimmedPackets = 0;      ///< DATA frames cut to their header (switch.trimming)
    uint64_t trimmedDataBytes = 0;    ///< the payload those frames lost
};

/**
 * In a parallel run each partition's thread adds to its own counters (summed at the end);
 * nullptr on the main thread, which adds to the context's.
 */
inline thread_local FabricCounters* t_partitionCounters
    __attribute__((tls_model("initial-exec"))) = nullptr;

/** Adds to a per-flow total that devices of several partitions add to (drops). */
inline void
AddShared(uint64_t& total, uint64_t v)
{
    __atomic_fetch_add(&total, v, __ATOMIC_RELAXED);
}

/** A collective job's DATA frames that started on one direction of a link (jobs[].links). */
struct JobLinkLoad
{
    uint64_t bytes = 0;  ///< payload, retransmissions included
    uint64_t frames = 0;
};

struct FabricContext
{
    const Scenario* scenario = nullptr;
    std::vector<FlowState> flows;
    FabricCounters counters;
    int64_t warmupPs = 0;
    /// telemetry.flow_paths: per flow, the nodes its first packet crossed (else empty)
    std::vector<std::vector<uint32_t>> flowPaths;
    std::vector<uint64_t> hostRxBytes; ///< payload delivered in order after warm-up, per node
    /// Parallel runs: the counters of partitions 1.. (partition 0 adds to counters)
    std::vector<FabricCounters> partitionCounters;
    /// Collective jobs only (helper/job-links.h): per (job, link id, direction 0 a->b / 1 b->a)
    /// at [(job x jobLinkCount + link) x 2 + direction]; empty for other runs.
    std::vector<JobLinkLoad> jobLinks;
    uint32_t jobLinkCount = 0;
    /// Collectives (Scenario::transfers): per transfer, the PSN after its last packet on its
    /// connection and that packet's payload (network connections only), and when it was posted
    /// and completed at its receiver (-1: not yet), as FlowDependencyTracker records them.
    std::vector<uint64_t> transferEndPkt;
    std::vector<uint32_t> transferLastPayload;
    std::vector<int64_t> transferStartPs;
    std::vector<int64_t> transferCompletePs;
    /// Ring programs (Transfers::rings): the messages of a connection of ring r with MTU m, as
    /// msgEndPkt and msgLastPayload point at them (every connection of a ring sends the same).
    std::map<std::pair<uint32_t, uint32_t>, std::pair<std::vector<uint64_t>, std::vector<uint32_t>>>
        ringMessages;
    /// Ring programs: per recording slot (0 the main thread, 1 + k partition k's) and ring step
    /// (RingStepSlot), what that thread saw; the job report adds the slots up.
    std::vector<std::vector<RingStepTimes>> ringSteps;
};

/** The counters of the whole fabric: the context's plus every partition's. */
inline FabricCounters
TotalCounters(const FabricContext& ctx)
{
    FabricCounters t = ctx.counters;
    for (const FabricCounters& c : ctx.partitionCounters)
    {
        t.packetsTx += c.packetsTx;
        t.ecnMarked += c.ecnMarked;
        t.cnpsSent += c.cnpsSent;
        t.retransmitted += c.retransmitted;
        t.pausesSent += c.pausesSent;
        t.pausesReceived += c.pausesReceived;
        for (size_t r = 0; r < t.drops.size(); ++r)
        {
            t.drops[r] += c.drops[r];
            t.dropDataBytes[r] += c.dropDataBytes[r];
        }
        t.unroutableDataBytes += c.unroutableDataBytes;
        t.trimmedPackets += c.trimmedPackets;
        t.trimmedDataBytes += c.trimmedDataBytes;
    }
    return t;
}

/** The counters the calling thread adds to (its partition's in a parallel run). */
inline FabricCounters&
Counters(FabricContext* ctx)
{
    return t_partitionCounters ? *t_partitionCounters : ctx->counters;
}


} // namespace fabric

#endif
