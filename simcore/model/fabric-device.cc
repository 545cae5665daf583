#include "model/fabric-device.h"

#include <algorithm>

namespace fabric
{

NS_OBJECT_ENSURE_REGISTERED(FabricDevice);

ns3::TypeId
FabricDevice::GetTypeId()
{
    static ns3::TypeId tid =
        ns3::TypeId("fabric::FabricDevice")
            .SetParent<ns3::Object>()
            .SetGroupName("Fabric")
            .AddTraceSource("Tx", "A frame started transmission (port, frame)",
                            ns3::MakeTraceSourceAccessor(&FabricDevice::m_txTrace),
                            "fabric::FabricDevice::TxCallback");
    return tid;
}

FabricDevice::FabricDevice() = default;

/** A reusable event calling F(port) on a device: one per port and kind, never reallocated. */
template <void (FabricDevice::*F)(uint32_t)>
class FabricDevice::PortEvent : public ns3::EventImpl
{
  public:
    PortEvent(FabricDevice* dev, uint32_t port)
        : m_dev(dev),
          m_port(port)
    {
    }

  protected:
    void Notify() override
    {
        (m_dev->*F)(m_port);
    }

  private:
    FabricDevice* m_dev;
    uint32_t m_port;
};

uint32_t
FabricDevice::AddPort(uint32_t neighbor, uint32_t linkId, double rateBps, double delayUs)
{
    Port p;
    p.neighbor = neighbor;
    p.linkId = linkId;
    p.rateBps = rateBps > 0 ? rateBps : 1e9;
    p.psPerByte = 8e12 / p.rateBps;
    p.delayPs = static_cast<int64_t>(std::max(0.0, delayUs) * 1e6 + 0.5);
    p.pauseStart.fill(-1);
    uint32_t index = static_cast<uint32_t>(m_ports.size());
    p.txDoneEvent = ns3::Create<PortEvent<&FabricDevice::TxDone>>(this, index);
    p.arrivalEvent = ns3::Create<PortEvent<&FabricDevice::DeliverHead>>(this, index);
    m_ports.push_back(p);
    return index;
}

void
FabricDevice::Connect(FabricDevice* a, uint32_t pa, FabricDevice* b, uint32_t pb)
{
    a->m_ports.at(pa).peer = b;
    a->m_ports.at(pa).peerPort = pb;
    b->m_ports.at(pb).peer = a;
    b->m_ports.at(pb).peerPort = pa;
    // Arrivals carry their sender's node (the neighbor as b sees it) and port.
    a->m_ports.at(pa).arrivalKey = FastHeapScheduler::ArrivalKey(b->m_ports.at(pb).neighbor, pa);
    b->m_ports.at(pb).arrivalKey = FastHeapScheduler::ArrivalKey(a->m_ports.at(pa).neighbor, pb);
}

uint32_t
FabricDevice::GetNode() const
{
    return m_node;
}

uint32_t
FabricDevice::GetNPorts() const
{
    return static_cast<uint32_t>(m_ports.size());
}

const Port&
FabricDevice::GetPort(uint32_t i) const
{
    return m_ports.at(i);
}

Port&
FabricDevice::GetPortMutable(uint32_t i)
{
    return m_ports.at(i);
}

uint32_t
FabricDevice::PortToward(uint32_t neighbor) const
{
    for (uint32_t i = 0; i < m_ports.size(); ++i)
    {
        if (m_ports[i].neighbor == neighbor)
        {
            return i;
        }
    }
    return UINT32_MAX;
}

bool
FabricDevice::PauseInForce(uint32_t port, uint8_t prio)
{
    Port& p = m_ports[port];
    int64_t now = NowPs();
    if (now < p.pausedUntil[prio])
    {
        return true;
    }
    // The pause expired (quanta mode): account its duration lazily.
    if (p.pauseStart[prio] >= 0)
    {
        p.pausePs[prio] += p.pausedUntil[prio] - p.pauseStart[prio];
        p.pauseStart[prio] = -1;
    }
    p.SetPausedUntil(prio, 0);
    return false;
}

void
FabricDevice::ClosePauses(int64_t endPs)
{
    for (auto& p : m_ports)
    {
        for (uint32_t prio = 0; prio < kNumPriorities; ++prio)
        {
            if (p.pauseStart[prio] >= 0)
            {
                int64_t end = std::min(endPs, p.pausedUntil[prio]);
                p.pausePs[prio] += std::max<int64_t>(0, end - p.pauseStart[prio]);
                p.pauseStart[prio] = -1;
                p.SetPausedUntil(prio, 0);
            }
        }
    }
}

void
FabricDevice::HandlePause(uint32_t port, const RocePacket& pkt)
{
    if (port >= m_ports.size() || pkt.pausePriority >= kNumPriorities)
    {
        return;
    }
    Port& p = m_ports[port];
    uint8_t prio = pkt.pausePriority;
    int64_t now = NowPs();
    if (p.fault != nullptr)
    {
        p.fault->lastPauseRxPs[prio] = now;
        if ((p.fault->dropMask >> prio) & 1)
        {
            // The switch PFC watchdog ignores pauses on a stormed queue (it drops instead).
            ++p.pausesReceived[prio];
            ++Counters(m_ctx).pausesReceived;
            return;
        }
    }
    bool wasPaused = IsPaused(port, prio);
    if (pkt.quanta == 0 && !pkt.indefinite)
    {
        if (wasPaused && p.pauseStart[prio] >= 0)
        {
            p.pausePs[prio] += now - p.pauseStart[prio];
        }
        p.pauseStart[prio] = -1;
        p.SetPausedUntil(prio, 0);
        TryTransmit(port);
        return;
    }
    ++p.pausesReceived[prio];
    ++Counters(m_ctx).pausesReceived;
    if (!wasPaused)
    {
        p.pauseStart[prio] = now;
    }
    if (pkt.indefinite)
    {
        p.SetPausedUntil(prio, kForeverPs);
    }
    else
    {
        // One quantum is 512 bit times at this link's rate.
        int64_t until = now + static_cast<int64_t>(pkt.quanta * 64.0 * p.psPerByte + 0.5);
        p.SetPausedUntil(prio, until);
        ns3::Simulator::Schedule(ns3::PicoSeconds(until - now), &FabricDevice::PauseExpired, this,
                                 port);
    }
}

void
FabricDevice::PauseExpired(uint32_t port)
{
    TryTransmit(port);
}

/**
 * The arrival event of frame f at the far end of port (p) of dev: at its time, with its sender's
 * tie key. On the FastHeapScheduler a handler-lane event (no event object to load when it runs).
 */
__attribute__((always_inline)) inline void
FabricDevice::ScheduleArrival(FabricDevice* dev, uint32_t port, Port& p, const InFlight& f)
{
    if (FastHeapScheduler* s = FastHeapScheduler::Active())
    {
        s->InsertHandler(static_cast<uint64_t>(f.arrivePs), p.arrivalKey, kArrivalHandler, dev,
                         port, p.neighbor);
        return;
    }
    p.arrivalEvent->Ref(); // the simulator releases one reference after running it
    ns3::Simulator::GetImplementation()->ScheduleWithContext(
        p.neighbor, ns3::PicoSeconds(f.arrivePs - NowPs()), ns3::PeekPointer(p.arrivalEvent));
}

/** A frame on the wire toward the peer of port (p) of dev: queued for its arrival event. */
__attribute__((always_inline)) inline void
FabricDevice::PutOnWire(FabricDevice* dev, uint32_t port, Port& p, const InFlight& f)
{
    p.inFlight.Push(f);
    if (!p.arrivalPending)
    {
        p.arrivalPending = true;
        ScheduleArrival(dev, port, p, f);
    }
}

/** Port's transmission-done event delayPs from now (owned by this node). */
__attribute__((always_inline)) inline void
FabricDevice::ScheduleTxDone(uint32_t port, int64_t delayPs)
{
    if (FastHeapScheduler* s = FastHeapScheduler::Active())
    {
        s->InsertHandlerIn(delayPs, kTxDoneHandler, this, port, m_node);
        return;
    }
    ScheduleEventPs(delayPs, m_ports[port].txDoneEvent, m_node);
}

void
FabricDevice::ArrivalThunk(void* dev, uint32_t port)
{
    static_cast<FabricDevice*>(dev)->DeliverHead(port);
}

void
FabricDevice::TxDoneThunk(void* dev, uint32_t port)
{
    static_cast<FabricDevice*>(dev)->TxDone(port);
}

void
FabricDevice::PrefetchArrival(const void* obj, uint32_t port, uint32_t stage)
{
    const auto* dev = static_cast<const FabricDevice*>(obj);
    if (stage == 0) // the link's line (the device's port table is read: mostly cached)
    {
        __builtin_prefetch(&dev->m_ports[port]);
        return;
    }
    const Port& p = dev->m_ports[port];
    if (p.inFlight.Empty() || p.peer == nullptr)
    {
        return;
    }
    const InFlight& f = p.inFlight.Front();
    if (stage == 1) // the frame at the head and the device it arrives at
    {
        const char* head = reinterpret_cast<const char*>(&f);
        __builtin_prefetch(head);
        __builtin_prefetch(head + sizeof(InFlight) - 1);
        __builtin_prefetch(p.peer);
        return;
    }
    p.peer->PrefetchReceive(p.peerPort, f.pkt, stage - 2);
}

void
FabricDevice::PrefetchTxDone(const void* obj, uint32_t port, uint32_t stage)
{
    const auto* dev = static_cast<const FabricDevice*>(obj);
    if (stage == 0)
    {
        const char* p = reinterpret_cast<const char*>(&dev->m_ports[port]);
        __builtin_prefetch(p);
        __builtin_prefetch(p + 64);
        return;
    }
    dev->PrefetchTransmit(port, stage - 1);
}

void
FabricDevice::PrefetchArrivalNext(const void* obj, uint32_t port)
{
    const Port& p = static_cast<const FabricDevice*>(obj)->m_ports[port];
    __builtin_prefetch(&p);
    if (!p.inFlight.Empty())
    {
        const char* head = reinterpret_cast<const char*>(&p.inFlight.Front());
        __builtin_prefetch(head);
        __builtin_prefetch(head + sizeof(InFlight) - 1);
    }
}

void
FabricDevice::PrefetchTxDoneNext(const void* obj, uint32_t port)
{
    const char* p = reinterpret_cast<const char*>(&static_cast<const FabricDevice*>(obj)->m_ports[port]);
    __builtin_prefetch(p);
    __builtin_prefetch(p + 64);
}

const bool FabricDevice::s_handlersSet =
    FastHeapScheduler::SetHandler(FabricDevice::kArrivalHandler, &FabricDevice::ArrivalThunk) &&
    FastHeapScheduler::SetHandler(FabricDevice::kTxDoneHandler, &FabricDevice::TxDoneThunk) &&
    FastHeapScheduler::SetPrefetcher(FabricDevice::kArrivalHandler, &FabricDevice::PrefetchArrival,
                                     2 + kReceiveStages) &&
    FastHeapScheduler::SetPrefetcher(FabricDevice::kTxDoneHandler, &FabricDevice::PrefetchTxDone,
                                     1 + kReceiveStages) &&
    FastHeapScheduler::SetNextPrefetcher(FabricDevice::kArrivalHandler,
                                         &FabricDevice::PrefetchArrivalNext) &&
    FastHeapScheduler::SetNextPrefetcher(FabricDevice::kTxDoneHandler,
                                         &FabricDevice::PrefetchTxDoneNext);

void
FabricDevice::TryTransmit(uint32_t port)
{
    if (port >= m_ports.size())
    {
        return;
    }
    Port& p = m_ports[port];
    if (p.fault != nullptr && (p.fault->down || p.fault->dropMask != 0))
    {
        bool down = p.fault->down;
        FlushPort(port, down ? 0xff : p.fault->dropMask, down ? DROP_LINK_DOWN : DROP_PFC_WATCHDOG);
        if (down)
        {
            return;
        }
    }
    if (p.txPending || p.peer == nullptr)
    {
        return;
    }
    int64_t now = NowPs();
    if (now < p.busyUntil)
    {
        p.txPending = true;
        ScheduleTxDone(port, p.busyUntil - now);
        return;
    }
    RocePacket pkt;
    if (!Dequeue(port, pkt))
    {
        return;
    }
    int64_t ser = p.SerializationPs(pkt.wire);
    p.busyUntil = now + ser;
    ++Counters(m_ctx).packetsTx;
    if (!m_txTrace.IsEmpty())
    {
        m_txTrace(port, pkt);
    }
    if (now >= m_ctx->warmupPs)
    {
        p.txWireBytesWarm += pkt.wire;
        p.txBusyPsWarm += ser;
    }
    else if (p.busyUntil > m_ctx->warmupPs)
    {
        p.txBusyPsWarm += p.busyUntil - m_ctx->warmupPs;
    }
    bool lost = false;
    if (p.fault != nullptr)
    {
        p.fault->CountTx(pkt);
        if (p.fault->LoseOnTx(pkt))
        {
            lost = true;
            ++Counters(m_ctx).drops[DROP_LINK_LOSS];
            ++p.fault->drops[DROP_LINK_LOSS];
            if (pkt.kind == PacketKind::DATA && pkt.flow < m_ctx->flows.size())
            {
                // Conservation: a lost DATA frame's payload is dropped, like any other drop.
                Counters(m_ctx).dropDataBytes[DROP_LINK_LOSS] += pkt.payload;
                AddShared(m_ctx->flows[pkt.flow].bytesDropped, pkt.payload);
            }
        }
    }
    if (!lost)
    {
        // Frames on a link arrive in the order sent, so the link keeps them in a FIFO and only
        // the head has an event in the scheduler: far fewer pending events than frames in flight.
        InFlight f;
        f.arrivePs = now + ser + p.delayPs;
        f.pkt = pkt;
        if (__builtin_expect(p.mailbox == nullptr, 1))
        {
            PutOnWire(this, port, p, f);
        }
        else
        {
            p.mailbox->frames[p.mailbox->cur].push_back(OutFrame{this, port, f});
            p.mailbox->minArrivePs = std::min(p.mailbox->minArrivePs, f.arrivePs);
        }
    }
    if (HasBacklog(port))
    {
        p.txPending = true;
        ScheduleTxDone(port, ser);
    }
}

void
FabricDevice::DeliverMailbox(std::vector<OutFrame>& frames)
{
    for (const OutFrame& o : frames)
    {
        PutOnWire(o.dev, o.port, o.dev->m_ports[o.port], o.f);
    }
    frames.clear();
}

// Inline into its handler (the per-frame path: one call less per arrival).
__attribute__((always_inline)) inline void
FabricDevice::DeliverHead(uint32_t port)
{
    Port& p = m_ports[port];
    p.arrivalPending = false;
    if (p.inFlight.Empty())
    {
        return;
    }
    InFlight f = p.inFlight.Pop();
    if (!p.inFlight.Empty())
    {
        p.arrivalPending = true;
        ScheduleArrival(this, port, p, p.inFlight.Front());
    }
    if (p.fault != nullptr &&
        p.fault->CutOnWire(f.arrivePs - p.delayPs - p.SerializationPs(f.pkt.wire)))
    {
        ++Counters(m_ctx).drops[DROP_LINK_DOWN];
        ++p.fault->drops[DROP_LINK_DOWN];
        return;
    }
    p.peer->Receive(p.peerPort, f.pkt);
}

void
FabricDevice::FlushPort(uint32_t port, uint8_t mask, DropReason reason)
{
}

void
FabricDevice::ClearPause(uint32_t port, uint8_t prio)
{
    Port& p = m_ports.at(port);
    if (p.pauseStart[prio] >= 0)
    {
        int64_t end = std::min(NowPs(), p.pausedUntil[prio]);
        p.pausePs[prio] += std::max<int64_t>(0, end - p.pauseStart[prio]);
    }
    p.pauseStart[prio] = -1;
    p.SetPausedUntil(prio, 0);
}

__attribute__((always_inline)) inline void
FabricDevice::TxDone(uint32_t port)
{
    m_ports[port].txPending = false;
    TryTransmit(port);
}

} // namespace fabric
