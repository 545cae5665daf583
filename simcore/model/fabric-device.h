/*
 * Base of switches and NICs: full-duplex ports with serialization, propagation, per-priority
 * PFC pause state of the egress, and the two events per hop (transmission done, arrival).
 */
#ifndef FABRIC_FABRIC_DEVICE_H
#define FABRIC_FABRIC_DEVICE_H

#include "model/fabric-context.h"
#include "model/fast-heap-scheduler.h"
#include "model/port-fault.h"
#include "model/packet-queue.h"
#include "model/roce-packet.h"

#include "ns3/object.h"
#include "ns3/simulator-impl.h"
#include "ns3/simulator.h"
#include "ns3/traced-callback.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <limits>
#include <vector>

namespace fabric
{

class FabricDevice;

constexpr int64_t kForeverPs = std::numeric_limits<int64_t>::max();

/** Current simulation time in picoseconds (the model runs at ps resolution). */
inline int64_t
NowPs()
{
    // The FastHeapScheduler knows the time of the event being run: no call into ns-3.
    if (const FastHeapScheduler* s = FastHeapScheduler::Active())
    {
        return s->NowTs();
    }
    return ns3::Simulator::Now().GetPicoSeconds();
}

/**
 * Schedules a reusable event delayPs from now (the per-packet events of the model). Through
 * the FastHeapScheduler's direct lane when it runs the simulation (no allocation, no EventId),
 * else Simulator::Schedule; same order, same event count either way.
 */
inline void
ScheduleEventPs(int64_t delayPs, const ns3::Ptr<ns3::EventImpl>& ev, uint32_t owner)
{
    if (FastHeapScheduler* s = FastHeapScheduler::Active())
    {
        s->InsertDirect(delayPs, ns3::PeekPointer(ev), owner);
        return;
    }
    ev->Ref(); // the simulator releases one reference after running it
    ns3::Simulator::GetImplementation()->ScheduleWithContext(owner, ns3::PicoSeconds(delayPs),
                                                             ns3::PeekPointer(ev));
}

/** Fetches every cache line of [from, from + bytes) (a prefetch's hint; bytes > 0). */
inline void
PrefetchSpan(const void* from, size_t bytes)
{
    const char* a = static_cast<const char*>(from);
    for (size_t i = 0; i < bytes; i += 64)
    {
        __builtin_prefetch(a + i);
    }
    __builtin_prefetch(a + bytes - 1);
}

/** A frame sent toward a device of another partition (parallel runs). */
struct OutFrame
{
    FabricDevice* dev; ///< the sender
    uint32_t port;     ///< the sender's port
    InFlight f;
};

/**
 * Frames one partition sent to another during a window of a parallel run, handed over at the
 * window's end: the sender appends to frames[cur], the receiver takes frames[cur ^ 1] after the
 * simulator flipped cur at the barrier. Every frame arrives at least one lookahead later.
 */
struct Mailbox
{
    std::vector<OutFrame> frames[2];
    uint32_t cur = 0;
    int64_t minArrivePs = std::numeric_limits<int64_t>::max(); ///< over frames[cur]
};

/** One direction of a link as seen from its sending device, plus that device's pause state. */
/// 64-byte aligned, the fields a frame touches first: a frame's arrival reads the first line
/// only, a transmission the first two, a switch's dequeue the first (pausedMask) and the third
/// only while a pause is in force. On a large fabric each line is a cache miss
/// (docs/benchmarks.md, "Cost per event and fabric size").
struct alignas(64) Port
{
    // Line 0: the link direction, what a frame's arrival reads (and a transmission too).
    /** Frames on the wire, in order; one scheduler event is pending for the head only. */
    RingQueue<InFlight> inFlight;
    FabricDevice* peer = nullptr;
    PortFault* fault = nullptr; ///< set only while a fault or watchdog concerns this port
    /// Tie key of arrivals on this link direction (FastHeapScheduler::ArrivalKey of this node and
    /// port): one per direction, as its frames never arrive at the same time.
    uint64_t arrivalKey = 0;
    uint32_t peerPort = 0;
    uint32_t neighbor = 0; ///< node index of the peer
    bool txPending = false;
    bool arrivalPending = false;
    /// Bit prio set while pausedUntil[prio] != 0 (SetPausedUntil): a dequeue reads line 2 only
    /// when a pause was received and not yet accounted.
    uint8_t pausedMask = 0;

    // Line 1: the transmitter and the utilization counts.
    double psPerByte = 80.0;
    int64_t delayPs = 1000000;
    int64_t busyUntil = 0;
    /// Parallel runs: the peer runs in another partition, frames go through this mailbox (and
    /// inFlight and arrivalPending belong to the peer's partition).
    Mailbox* mailbox = nullptr;
    uint64_t txWireBytesWarm = 0; ///< wire bytes of frames started after warm-up
    /// Serialization time inside [warm-up, busyUntil]: utilization counts only the bits sent
    /// inside the measurement window (a frame started before the warm-up ends counts its part
    /// after it; the part of the last frame past the end of the run is taken off at the end).
    int64_t txBusyPsWarm = 0;

    // Line 2: PFC state, read by a dequeue while pausedMask has the priority's bit.
    std::array<int64_t, kNumPriorities> pausedUntil{}; ///< egress paused while now < this

    /** Sets pausedUntil[prio] and its bit of pausedMask (every write goes through here). */
    void SetPausedUntil(uint8_t prio, int64_t until)
    {
        pausedUntil[prio] = until;
        uint8_t bit = static_cast<uint8_t>(1u << prio);
        pausedMask = static_cast<uint8_t>(until != 0 ? (pausedMask | bit) : (pausedMask & ~bit));
    }

    // Cold: set up once, or counted per PAUSE.
    ns3::Ptr<ns3::EventImpl> txDoneEvent;  ///< transmission done (schedulers other than ours)
    ns3::Ptr<ns3::EventImpl> arrivalEvent; ///< arrival (schedulers other than ours)
    uint32_t linkId = 0;
    double rateBps = 100e9;
    uint64_t ecnMarked = 0;       ///< DATA frames this egress (a switch's) newly CE-marked
    std::array<int64_t, kNumPriorities> pauseStart{};  ///< -1 when not paused
    std::array<uint32_t, kNumPriorities> pausesSent{};
    std::array<uint32_t, kNumPriorities> pausesReceived{};
    std::array<int64_t, kNumPriorities> pausePs{}; ///< accumulated paused time
    // Their values when the warm-up ended: RunController's WarmupBaseline (helper/).

    /** Paused time of prio until now, a pause still in force included. */
    int64_t PausedPsUntil(uint8_t prio, int64_t now) const
    {
        int64_t open = pauseStart[prio] >= 0
                           ? std::max<int64_t>(0, std::min(now, pausedUntil[prio]) - pauseStart[prio])
                           : 0;
        return pausePs[prio] + open;
    }

    int64_t SerializationPs(uint32_t wireBytes) const
    {
        return static_cast<int64_t>(wireBytes * psPerByte + 0.5);
    }
};

/// 16-byte aligned: the scheduler's handler lane keeps tags in a device pointer's low bits.
class alignas(16) FabricDevice : public ns3::Object
{
  public:
    static ns3::TypeId GetTypeId();
    FabricDevice();

    /** A frame's last bit arrived on port. */
    virtual void Receive(uint32_t port, RocePacket p) = 0;

    /**
     * Stages of PrefetchReceive and PrefetchTransmit: what a device reads for a frame arriving
     * on port (or for port's next transmission), asked for a few events ahead of it, one stage
     * at a time (FastHeapScheduler::PrefetchAhead): each stage may read what the one before
     * fetched. Hints only: they read valid memory and change nothing. A device without them
     * fetches nothing.
     */
    static constexpr uint32_t kReceiveStages = 4;
    virtual void PrefetchReceive(uint32_t /*port*/, const RocePacket& /*p*/, uint32_t /*stage*/) const
    {
    }
    virtual void PrefetchTransmit(uint32_t /*port*/, uint32_t /*stage*/) const
    {
    }

    /** Adds a port; returns its index. */
    uint32_t AddPort(uint32_t neighbor, uint32_t linkId, double rateBps, double delayUs);
    /** Joins port pa of a and port pb of b into one full-duplex link. */
    static void Connect(FabricDevice* a, uint32_t pa, FabricDevice* b, uint32_t pb);

    uint32_t GetNode() const;
    uint32_t GetNPorts() const;
    const Port& GetPort(uint32_t i) const;
    Port& GetPortMutable(uint32_t i);
    /** Port index toward neighbor, or UINT32_MAX. */
    uint32_t PortToward(uint32_t neighbor) const;

    /** Whether the egress of port is paused for prio now. */
    bool IsPaused(uint32_t port, uint8_t prio)
    {
        if (prio >= kNumPriorities || ((m_ports[port].pausedMask >> prio) & 1) == 0)
        {
            return false; // the per-packet case: no pause ever received or it was accounted
        }
        return PauseInForce(port, prio);
    }
    /** Closes pause intervals still open at the end of the run (for pause duration). */
    void ClosePauses(int64_t endPs);

    /** Starts a transmission on port if the line is free and something may be sent. */
    void TryTransmit(uint32_t port);

    /** Puts the frames of a mailbox on their links' far ends (in the receiving partition). */
    static void DeliverMailbox(std::vector<OutFrame>& frames);

    /**
     * Drops what waits for port at the priorities in mask, counted as reason (a switch: link
     * down or PFC watchdog); a NIC keeps its frames (its QPs retry when the link returns).
     */
    virtual void FlushPort(uint32_t port, uint8_t mask, DropReason reason);
    /** Ends the pause of port's egress at prio now (a link went down, a watchdog fired). */
    void ClearPause(uint32_t port, uint8_t prio);

  protected:
    /** Picks the next frame for port; false if nothing may be sent now. */
    virtual bool Dequeue(uint32_t port, RocePacket& out) = 0;
    /** Whether port has frames waiting (so a transmission-done event is worth scheduling). */
    virtual bool HasBacklog(uint32_t port) const = 0;

    /** A PAUSE frame arrived on port: pause or resume that port's egress. */
    void HandlePause(uint32_t port, const RocePacket& p);

    FabricContext* m_ctx = nullptr;
    uint32_t m_node = 0;
    /** A frame started transmission (port, frame); checked for sinks before each call. */
    ns3::TracedCallback<uint32_t, const RocePacket&> m_txTrace;
    std::vector<Port> m_ports;

  private:
    template <void (FabricDevice::*F)(uint32_t)>
    class PortEvent;

    /** IsPaused with a pause set: still in force, or expired (then accounted and cleared). */
    bool PauseInForce(uint32_t port, uint8_t prio);
    void TxDone(uint32_t port);
    void PauseExpired(uint32_t port);
    void DeliverHead(uint32_t port);

    // The per-port events on the FastHeapScheduler's handler lane (PortEvent objects otherwise).
    static void ArrivalThunk(void* dev, uint32_t port);
    static void TxDoneThunk(void* dev, uint32_t port);
    /**
     * What an arrival reads (the link's first line, its head frame and the receiving device, then
     * that device's PrefetchReceive) and a transmission (the port's lines, then
     * PrefetchTransmit), by stage (FastHeapScheduler::Prefetcher).
     */
    static void PrefetchArrival(const void* dev, uint32_t port, uint32_t stage);
    static void PrefetchTxDone(const void* dev, uint32_t port, uint32_t stage);
    /** The one-event forms (PrefetchNext): the link's first line and head frame; the port's lines. */
    static void PrefetchArrivalNext(const void* dev, uint32_t port);
    static void PrefetchTxDoneNext(const void* dev, uint32_t port);
    static constexpr uint32_t kArrivalHandler = 0; ///< the scheduler's handler indices
    static constexpr uint32_t kTxDoneHandler = 1;
    static const bool s_handlersSet;
    static void ScheduleArrival(FabricDevice* dev, uint32_t port, Port& p, const InFlight& f);
    static void PutOnWire(FabricDevice* dev, uint32_t port, Port& p, const InFlight& f);
    void ScheduleTxDone(uint32_t port, int64_t delayPs);
};

} // namespace fabric

#endif
