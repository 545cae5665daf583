/*
 * A shared-buffer switch: ECMP forwarding, ingress admission (SwitchMmu), PFC generation,
 * per-priority egress queues with RED/ECN marking and strict-priority scheduling.
 */
#ifndef FABRIC_FABRIC_SWITCH_H
#define FABRIC_FABRIC_SWITCH_H

#include "model/fabric-device.h"
#include "model/load-balancer.h"
#include "model/packet-queue.h"
#include "model/red-marker.h"
#include "model/switch-mmu.h"

#include "ns3/traced-callback.h"

#include <vector>

namespace fabric
{

/** Egress queue statistics of one (port, priority), over the measurement window. */
struct QueueStats
{
    uint64_t maxBytes = 0;    ///< after warm-up
    uint64_t maxBytesRun = 0; ///< over the whole run, warm-up included (what the series show)
    double byteTimePs = 0; ///< integral of depth over time after warm-up (bytes x ps)
    int64_t lastChangePs = 0;
    bool everUsed = false;
    uint32_t zeroSamplesBefore = 0; ///< samples taken before the queue was first used
    std::vector<uint32_t> samples;  ///< periodic depth samples (bytes) once used
};

/**
 * Ingress occupancy of one (port, priority): the bytes the MMU charges to it (shared pool plus
 * headroom, in whole cells), and how often this switch asserted XOFF for it.
 */
struct IngressStats : IngressOccupancy
{
    uint32_t xoffs = 0;       ///< XOFF assertions (not quanta refreshes), whole run
    uint32_t xoffsAfterWarmup = 0;
};

/** Forwarding state shared by all switches: where each host hangs and next hops per "attach". */
/** Where a host hangs off its plane: attachment index, the switch, that switch's port to it. */
struct HostRoute
{
    uint32_t attach = UINT32_MAX;
    uint32_t attachNode = UINT32_MAX;
    uint32_t port = UINT32_MAX;
};

struct RouteTable
{
    std::vector<uint32_t> offset; ///< per attachment index: start in ports
    std::vector<uint8_t> count;   ///< per attachment index: number of equal-cost next hops
    std::vector<uint16_t> ports;  ///< next-hop port indices
};

/** x mod d for 32-bit x and 1 <= d < 2^32 without a division (Lemire, Kaser and Kurz 2019). */
struct FastMod
{
    uint64_t m = 0;
    uint32_t d = 1;

    explicit FastMod(uint32_t divisor = 1)
        : m(UINT64_MAX / divisor + 1),
          d(divisor)
    {
    }

    uint32_t Mod(uint32_t x) const
    {
        uint64_t low = m * x;
        return static_cast<uint32_t>((static_cast<unsigned __int128>(low) * d) >> 64);
    }
};

class FabricSwitch : public FabricDevice
{
  public:
    static ns3::TypeId GetTypeId();
    FabricSwitch();

    /** Call after all ports are added. */
    void Configure(FabricContext* ctx, uint32_t node, const SwitchConfig& cfg,
                   const std::vector<uint64_t>& headroomPerPort, uint32_t rngStream);
    /**
     * hostRoutes[h]: where host h hangs off this switch's plane (attach UINT32_MAX if it does
     * not); kept by the caller, read until the next SetRoutes.
     */
    void SetRoutes(RouteTable table, const std::vector<HostRoute>* hostRoutes);

    void Receive(uint32_t port, RocePacket p) override;
    void PrefetchReceive(uint32_t port, const RocePacket& p, uint32_t stage) const override;
    void PrefetchTransmit(uint32_t port, uint32_t stage) const override;
    /** Fetches the lines of this switch a frame's path reads (PrefetchReceive's stage 0). */
    void PrefetchOwnFields() const;

    /** ECMP choice of the egress port for p; UINT32_MAX when unroutable. */
    uint32_t SelectEgress(const RocePacket& p) const;
    /** The egress p is forwarded to: SelectEgress under "ecmp", else the balancer's choice. */
    uint32_t ForwardEgress(const RocePacket& p)
    {
        return m_balancer ? BalancedEgress(p) : SelectEgress(p);
    }
    /** The 5-tuple hash with this switch's seed. */
    static uint32_t EcmpHash(uint32_t seed, uint32_t src, uint32_t dst, uint16_t udpSrc);

    const SwitchMmu& Mmu() const;
    const SwitchConfig& Config() const;
    /** The ECN marking of (egress port, priority): ecn_by_rate applied for the port's rate. */
    const EcnConfig& PortEcn(uint32_t port, uint8_t prio) const;
    uint64_t QueueBytes(uint32_t port, uint8_t prio) const;
    uint64_t DataQueueBytes(uint32_t port) const;
    QueueStats Stats(uint32_t port, uint8_t prio) const;
    /** Stats(port, prio).maxBytesRun without copying the samples. */
    uint64_t MaxBytesRun(uint32_t port, uint8_t prio) const
    {
        return m_queues.at(static_cast<size_t>(port) * kNumPriorities + (prio & 7)).maxBytesRun;
    }
    IngressStats Ingress(uint32_t port, uint8_t prio) const;
    /** Whether this switch is asserting XOFF toward the neighbor on port, any priority. */
    bool IsPausing(uint32_t port) const;
    /** Whether this switch is asserting XOFF toward the neighbor on port at prio. */
    bool IsPausingPrio(uint32_t port, uint8_t prio) const;

    // Fault hooks (model/fault-schedule.cc).
    void FlushPort(uint32_t port, uint8_t mask, DropReason reason) override;
    /** Forwards again, along the current routes, every frame queued toward port. */
    void RerouteQueued(uint32_t port);
    /** The dynamic-threshold alpha from now on (a `set` fault). */
    void SetAlpha(double alpha);
    /** ECN settings of every priority from now on (a `set` fault). */
    void SetEcn(const std::array<EcnConfig, kNumPriorities>& ecn);
    /** Each port's ECN and alpha from m_cfg (per-rate entries first): Configure, SetAlpha, SetEcn. */
    void ResolvePortSettings();

    /** Samples every data queue's depth for the p99 statistic. */
    void SampleQueues();
    /** Records the hops of each flow's first packet (telemetry.flow_paths). */
    void SetRecordPaths(bool on)
    {
        m_recordPaths = on;
    }
    /** Flushes the time integral of every queue to endPs. */
    void FinishStats(int64_t endPs);

  protected:
    bool Dequeue(uint32_t port, RocePacket& out) override;
    bool HasBacklog(uint32_t port) const override;

  public:
    /** Calls f on every frame waiting in an egress queue (end-of-run accounting). */
    template <typename F>
    void ForEachQueued(F f) const
    {
        for (const Queue& q : m_queues)
        {
            q.q.ForEach(f);
        }
    }

  private:
    /**
     * An egress queue of (port, priority) with the statistics every enqueue and dequeue update,
     * on one cache line (everUsed is maxBytesRun > 0: every counted frame has bytes).
     */
    struct alignas(64) Queue
    {
        PacketQueue q;
        uint64_t bytes = 0;
        uint64_t maxBytes = 0;    ///< after warm-up
        uint64_t maxBytesRun = 0; ///< whole run
        double byteTimePs = 0;    ///< integral of depth over time after warm-up (bytes x ps)
        int64_t lastChangePs = 0;
    };
    /** A queue's periodic depth samples (SampleQueues): not touched per frame. */
    struct QueueSamples
    {
        uint32_t zeroSamplesBefore = 0; ///< set at the first sample after the queue's first use
        std::vector<uint32_t> samples;
    };

    /**
     * What an XOFF of (ingress port, priority) counts (the per-frame part, statistics and XOFF
     * state, lives in the MMU's record of it: SwitchMmu::Ingress).
     */
    struct IngressXoffs
    {
        uint32_t xoffs = 0;
        uint32_t xoffsAfterWarmup = 0;
        uint32_t generation = 0; ///< XOFF and XON transitions (quanta mode's refreshes check it)
    };

    /** The equal-cost egress ports toward p's destination: n = 0 with `port` set when the
     *  destination hangs off this switch (or UINT32_MAX when unroutable). */
    struct Route
    {
        uint32_t port = UINT32_MAX;
        const uint16_t* ports = nullptr;
        uint32_t n = 0;
        uint32_t attach = 0;
    };
    Route RouteTo(const RocePacket& p) const;

    void Enqueue(uint32_t port, const RocePacket& p);
    uint32_t BalancedEgress(const RocePacket& p);
    /** RED/ECN on a DATA frame leaving (or joining) egress port's queue of queueBytes. */
    void MaybeMark(uint32_t port, uint8_t prio, uint64_t queueBytes, RocePacket& p);
    void Drop(uint32_t port, const RocePacket& p, DropReason reason);
    /** switch.trimming: the frame the buffer could not hold, cut to its header, to egress out. */
    __attribute__((noinline)) void Trim(uint32_t out, RocePacket p);
    void SendPause(uint32_t port, uint8_t prio, bool resume);
    void CheckXoff(uint32_t port, uint8_t prio);
    void CheckXon(uint32_t port, uint8_t prio);
    void RefreshPause(uint32_t port, uint8_t prio, uint32_t generation);
    void UpdateStats(uint32_t idx, uint64_t newBytes);
    /** Takes the first frame of (port, prio)'s queue with its dequeue accounting (statistics,
     *  the port's data bytes and non-empty bits), leaving its buffer charge: a fault's flush or
     *  reroute (FlushPort, RerouteQueued), not the per-frame path. */
    RocePacket PopQueued(uint32_t port, uint32_t prio);
    /** Drops a frame PopQueued took: releases its buffer charge and may resume its ingress. */
    void DropQueued(uint32_t port, uint32_t prio, const RocePacket& f, DropReason reason);
    /** The MMU's charge to (port, prio) changed: occupancy statistics. */
    void UpdateIngressStats(uint32_t port, uint8_t prio);
    void RecordHop(uint32_t inPort, uint32_t outPort, const RocePacket& p);

    SwitchConfig m_cfg;
    bool m_markOnDequeue = false; ///< Attribute EcnMarkOnDequeue
    bool m_recordPaths = false;
    SwitchMmu m_mmu;
    RedMarker m_red;
    /// The distinct per-priority ECN settings (the switch's, then each switch.ecn_by_rate
    /// entry's), 8 each; a port's set is its PortSummary::ecnSet (read on the summary's line).
    std::vector<EcnConfig> m_ecnSets;
    std::vector<Queue> m_queues;       ///< port x 8
    std::vector<QueueSamples> m_samples; ///< port x 8
    std::vector<IngressXoffs> m_xoffs; ///< port x 8
    /**
     * Per egress port, four to a cache line: what the per-frame path and the periodic samplers
     * read without visiting each (port, priority) (on a large fabric those scans were a cache
     * miss per queue and sample).
     */
    struct PortSummary
    {
        uint64_t dataBytes = 0; ///< bytes in the data queues (priorities other than control)
        uint8_t nonEmpty = 0;   ///< bit prio set when that egress queue holds frames
        uint8_t used = 0;       ///< bit prio set once a data frame joined that queue
        uint8_t xoff = 0;       ///< bit prio set while this ingress asserts XOFF (PFC)
        uint16_t ecnSet = 0;    ///< the port's ECN settings: m_ecnSets[ecnSet * 8 + prio]
    };
    std::vector<PortSummary> m_summary;
    uint32_t m_sampleCount = 0; ///< SampleQueues calls so far
    /// Per attachment index: start in m_routePorts << 8 | next-hop count, read with one load.
    std::vector<uint32_t> m_routeEntries;
    std::vector<uint16_t> m_routePorts; ///< each distinct next-hop set once
    /// What a route lookup reads, on one cache line (the vectors' data, the ECMP seed).
    struct alignas(64) RouteView
    {
        const HostRoute* hosts = nullptr;
        const uint32_t* entries = nullptr;
        const uint16_t* ports = nullptr;
        uint32_t nHosts = 0;
        uint32_t nEntries = 0;
        uint32_t node = 0;
        uint32_t ecmpSeed = 0;
    };
    RouteView m_rv;
    ns3::Ptr<LoadBalancer> m_balancer; ///< null under "ecmp"

    ns3::TracedCallback<uint32_t, uint8_t> m_dropTrace;      ///< port, reason
    ns3::TracedCallback<uint32_t, uint8_t, bool> m_pfcTrace; ///< port, priority, pause (else resume)
    ns3::TracedCallback<uint32_t, uint64_t> m_xoffTrace;     ///< port, ingress bytes at XOFF
};

} // namespace fabric

#endif
