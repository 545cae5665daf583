#include "model/fabric-switch.h"
#include "common/ecmp-hash.h"

#include "ns3/boolean.h"
#include "ns3/object-factory.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <stdexcept>

namespace fabric
{

NS_OBJECT_ENSURE_REGISTERED(FabricSwitch);

namespace
{

/** x mod n for every next-hop count n (RouteTable counts are 8-bit), shared by all switches. */
const std::array<FastMod, 256> kEcmpMod = [] {
    std::array<FastMod, 256> t;
    for (uint32_t d = 1; d < t.size(); ++d)
    {
        t[d] = FastMod(d);
    }
    return t;
}();

} // namespace

ns3::TypeId
FabricSwitch::GetTypeId()
{
    using namespace ns3;
    static TypeId tid =
        TypeId("fabric::FabricSwitch")
            .SetParent<FabricDevice>()
            .SetGroupName("Fabric")
            .AddConstructor<FabricSwitch>()
            .AddAttribute("EcnMarkOnDequeue",
                          "Mark ECN on the queue left behind at dequeue instead of at enqueue",
                          BooleanValue(false),
                          MakeBooleanAccessor(&FabricSwitch::m_markOnDequeue),
                          MakeBooleanChecker())
            .AddTraceSource("Drop", "A frame was dropped (port, DropReason)",
                            MakeTraceSourceAccessor(&FabricSwitch::m_dropTrace),
                            "fabric::FabricSwitch::DropCallback")
            .AddTraceSource("Pfc", "A PFC frame was sent (port, priority, pause)",
                            MakeTraceSourceAccessor(&FabricSwitch::m_pfcTrace),
                            "fabric::FabricSwitch::PfcCallback")
            .AddTraceSource("Xoff", "XOFF asserted (port, ingress bytes incl. the frame that crossed the threshold)",
                            MakeTraceSourceAccessor(&FabricSwitch::m_xoffTrace),
                            "fabric::FabricSwitch::XoffCallback");
    return tid;
}

FabricSwitch::FabricSwitch() = default;

void
FabricSwitch::Configure(FabricContext* ctx, uint32_t node, const SwitchConfig& cfg,
                        const std::vector<uint64_t>& headroomPerPort, uint32_t rngStream)
{
    m_ctx = ctx;
    m_node = node;
    m_cfg = cfg;
    uint32_t n = GetNPorts();
    m_mmu.Configure(n, cfg.bufferBytes, cfg.cellBytes, cfg.pfc, headroomPerPort);
    m_queues.assign(static_cast<size_t>(n) * kNumPriorities, Queue());
    m_samples.assign(static_cast<size_t>(n) * kNumPriorities, QueueSamples());
    m_xoffs.assign(static_cast<size_t>(n) * kNumPriorities, IngressXoffs());
    m_summary.assign(n, PortSummary());
    ResolvePortSettings();
    if (cfg.loadBalancing != LoadBalancing::ECMP)
    {
        PerPacketBalancer::GetTypeId(); // registered even when the static library drops objects
        AdaptiveBalancer::GetTypeId();
        ns3::ObjectFactory factory(LoadBalancer::TypeIdNameFor(
            cfg.loadBalancing == LoadBalancing::ADAPTIVE ? "adaptive" : "per_packet"));
        m_balancer = factory.Create<LoadBalancer>();
    }
    auto rng = ns3::CreateObject<ns3::UniformRandomVariable>();
    rng->SetStream(rngStream);
    m_red.SetStream(rng);
}

void
FabricSwitch::SetRoutes(RouteTable table, const std::vector<HostRoute>* hostRoutes)
{
    // The builder stores each distinct next-hop set once (helper/network-builder.cc), so the
    // tables of a large fabric stay small enough for the cache (docs/benchmarks.md).
    if (table.ports.size() >= (1u << 24))
    {
        throw std::length_error("route table: more than 2^24 next-hop entries at one switch");
    }
    m_routeEntries.assign(table.count.size(), 0);
    for (size_t a = 0; a < table.count.size(); ++a)
    {
        uint32_t offset = a < table.offset.size() ? table.offset[a] : 0;
        m_routeEntries[a] = table.count[a] ? (offset << 8) | table.count[a] : 0;
    }
    m_routePorts = std::move(table.ports);
    if (m_balancer)
    {
        m_balancer->Init(static_cast<uint32_t>(m_routeEntries.size()));
    }
    m_rv.hosts = hostRoutes ? hostRoutes->data() : nullptr;
    m_rv.nHosts = hostRoutes ? static_cast<uint32_t>(hostRoutes->size()) : 0;
    m_rv.entries = m_routeEntries.data();
    m_rv.nEntries = static_cast<uint32_t>(m_routeEntries.size());
    m_rv.ports = m_routePorts.data();
    m_rv.node = m_node;
    m_rv.ecmpSeed = m_cfg.ecmpSeed;
}

uint32_t
FabricSwitch::EcmpHash(uint32_t seed, uint32_t src, uint32_t dst, uint16_t udpSrc)
{
    return EcmpHash5Tuple(seed, src, dst, udpSrc);
}

[[gnu::always_inline]] inline void
FabricSwitch::UpdateStats(uint32_t idx, uint64_t newBytes)
{
    Queue& s = m_queues[idx];
    int64_t now = NowPs();
    int64_t warmup = m_ctx->warmupPs;
    int64_t from = std::max(s.lastChangePs, warmup);
    if (now > from)
    {
        s.byteTimePs += static_cast<double>(s.bytes) * static_cast<double>(now - from);
    }
    s.lastChangePs = now;
    if (newBytes > s.maxBytesRun)
    {
        s.maxBytesRun = newBytes;
    }
    if (now >= warmup && newBytes > s.maxBytes)
    {
        s.maxBytes = newBytes;
    }
}

[[gnu::always_inline]] inline void
FabricSwitch::UpdateIngressStats(uint32_t port, uint8_t prio)
{
    SwitchMmu::Ingress& r = m_mmu.Record(port, prio);
    IngressOccupancy& s = r.occupancy;
    int64_t now = NowPs();
    int64_t warmup = m_ctx->warmupPs;
    int64_t from = std::max(s.lastChangePs, warmup);
    if (now > from)
    {
        s.byteTimePs += static_cast<double>(s.bytes) * static_cast<double>(now - from);
    }
    s.lastChangePs = now;
    uint64_t bytes = r.shared + r.headroom;
    s.bytes = bytes;
    if (bytes > s.maxBytesRun)
    {
        s.maxBytesRun = bytes;
    }
    if (now >= warmup && bytes > s.maxBytes)
    {
        s.maxBytes = bytes;
    }
}

[[gnu::always_inline]] inline FabricSwitch::Route
FabricSwitch::RouteTo(const RocePacket& p) const
{
    Route r;
    if (p.dst >= m_rv.nHosts)
    {
        return r;
    }
    const HostRoute& h = m_rv.hosts[p.dst];
    if (h.attachNode == m_rv.node)
    {
        r.port = h.port;
        return r;
    }
    r.attach = h.attach;
    if (r.attach >= m_rv.nEntries)
    {
        return r;
    }
    uint32_t e = m_rv.entries[r.attach];
    r.n = e & 0xff;
    r.ports = r.n ? &m_rv.ports[e >> 8] : nullptr;
    return r;
}

uint32_t
FabricSwitch::SelectEgress(const RocePacket& p) const
{
    Route r = RouteTo(p);
    if (r.n <= 1)
    {
        return r.n == 1 ? r.ports[0] : r.port;
    }
    uint32_t h = EcmpHash(m_rv.ecmpSeed, p.src, p.dst, p.udpSrc);
    return r.ports[kEcmpMod[r.n].Mod(h)]; // = h % n
}

uint32_t
FabricSwitch::BalancedEgress(const RocePacket& p)
{
    Route r = RouteTo(p);
    if (r.n <= 1)
    {
        return r.n == 1 ? r.ports[0] : r.port;
    }
    uint32_t h = EcmpHash(m_rv.ecmpSeed, p.src, p.dst, p.udpSrc);
    return m_balancer->Choose(*this, p, r.ports, r.n, r.attach, kEcmpMod[r.n].Mod(h));
}

/**
 * The lines of this object a frame's path reads: the device's port table and context, then
 * everything from the configuration's per-frame flags to the route view and the balancer (the
 * MMU's counters and tables, the ECN sets, queues, summaries). About ten lines per switch,
 * evicted between its frames on a large fabric.
 */
void
FabricSwitch::PrefetchOwnFields() const
{
    __builtin_prefetch(&m_ports);
    const char* from = reinterpret_cast<const char*>(&m_cfg.trimming);
    const char* to = reinterpret_cast<const char*>(&m_balancer);
    PrefetchSpan(from, static_cast<size_t>(to - from) + sizeof(m_balancer));
}

/**
 * A frame arriving on port, stage by stage (FabricDevice::kReceiveStages): the switch's own
 * fields with the host route and the ingress record, then the route entry, then the egress
 * queue, summary and port, then the queue's tail and the link's tail. Reads only lines earlier
 * stages fetched (or small tables the caches keep); writes nothing.
 */
void
FabricSwitch::PrefetchReceive(uint32_t port, const RocePacket& p, uint32_t stage) const
{
    if (p.kind == PacketKind::PAUSE)
    {
        return;
    }
    uint8_t prio = p.priority & 7;
    if (p.dst >= m_rv.nHosts)
    {
        return;
    }
    const HostRoute& h = m_rv.hosts[p.dst];
    if (stage == 0)
    {
        // The switch's own lines, and (reading the route view and the MMU's table, mostly in
        // the cache) the frame's host route and ingress record.
        PrefetchOwnFields();
        __builtin_prefetch(&h);
        if (prio != kControlPriority)
        {
            __builtin_prefetch(m_mmu.RecordHint(port, prio));
        }
        return;
    }
    if (stage == 1)
    {
        if (h.attachNode != m_rv.node && h.attach < m_rv.nEntries)
        {
            __builtin_prefetch(&m_rv.entries[h.attach]);
        }
        return;
    }
    if (m_balancer)
    {
        return; // the balancer's choice depends on state the frames before this one change
    }
    uint32_t out = SelectEgress(p);
    if (out >= m_ports.size())
    {
        return;
    }
    const Queue& q = m_queues[static_cast<size_t>(out) * kNumPriorities + prio];
    const Port& e = m_ports[out];
    if (stage == 2)
    {
        __builtin_prefetch(&q);
        __builtin_prefetch(&m_summary[out]);
        __builtin_prefetch(&e);
        __builtin_prefetch(reinterpret_cast<const char*>(&e) + 64);
        return;
    }
    q.q.PrefetchTail();
    if (e.mailbox == nullptr) // else the ring is the peer partition's (a parallel run)
    {
        e.inFlight.PrefetchTail();
    }
}

/**
 * Port's next transmission, stage by stage: the switch's fields with the port's summary, then
 * the queue it will take from, that queue's head frame, then that frame's ingress record and the
 * link's tail.
 */
void
FabricSwitch::PrefetchTransmit(uint32_t port, uint32_t stage) const
{
    if (port >= m_summary.size())
    {
        return;
    }
    const PortSummary& sum = m_summary[port];
    if (stage == 0)
    {
        PrefetchOwnFields();
        __builtin_prefetch(&sum);
        return;
    }
    if (sum.nonEmpty == 0)
    {
        return;
    }
    int prio = 31 - __builtin_clz(sum.nonEmpty); // the highest; a pause may pick another
    const Queue& q = m_queues[static_cast<size_t>(port) * kNumPriorities + prio];
    if (stage == 1)
    {
        __builtin_prefetch(&q);
        return;
    }
    if (q.q.Empty())
    {
        return;
    }
    if (stage == 2)
    {
        __builtin_prefetch(&q.q.Front());
        return;
    }
    if (prio != kControlPriority)
    {
        __builtin_prefetch(m_mmu.RecordHint(q.q.Front().inPort, static_cast<uint8_t>(prio)));
    }
    if (m_ports[port].mailbox == nullptr) // else the ring is the peer partition's
    {
        m_ports[port].inFlight.PrefetchTail();
    }
}

void
FabricSwitch::Receive(uint32_t inPort, RocePacket p)
{
    if (p.kind == PacketKind::PAUSE)
    {
        HandlePause(inPort, p);
        return;
    }
    uint32_t out = ForwardEgress(p);
    if (out >= m_ports.size())
    {
        // Unroutable (the scenario layer rejects disconnected topologies): counted, not lost.
        if (p.kind == PacketKind::DATA && p.flow < m_ctx->flows.size())
        {
            Counters(m_ctx).unroutableDataBytes += p.payload;
            AddShared(m_ctx->flows[p.flow].bytesDropped, p.payload);
        }
        return;
    }
    uint8_t prio = p.priority & 7;
    if (prio == kControlPriority)
    {
        Enqueue(out, p); // control frames bypass buffer accounting (docs/model.md)
        return;
    }
    uint32_t charge = m_mmu.Charge(FrameBytes(p));
    SwitchMmu::Verdict v = m_mmu.Admit(inPort, prio, charge, QueueBytes(out, prio));
    if (v != SwitchMmu::ADMIT)
    {
        if (m_cfg.trimming && p.kind == PacketKind::DATA)
        {
            Trim(out, p); // off the admitted path: a run without trimming never gets here
            return;
        }
        Drop(inPort, p,
             v == SwitchMmu::DROP_HEADROOM   ? DROP_HEADROOM_OVERFLOW
             : v == SwitchMmu::DROP_BUFFER ? DROP_BUFFER_OVERFLOW
                                           : DROP_TAIL);
        return;
    }
    p.inPort = static_cast<uint16_t>(inPort);
    if (m_recordPaths && p.kind == PacketKind::DATA && p.psn == 0)
    {
        RecordHop(inPort, out, p);
    }
    if (!m_markOnDequeue)
    {
        MaybeMark(out, prio, QueueBytes(out, prio), p);
    }
    CheckXoff(inPort, prio);
    Enqueue(out, p);
}

void
FabricSwitch::MaybeMark(uint32_t port, uint8_t prio, uint64_t queueBytes, RocePacket& p)
{
    if (p.kind != PacketKind::DATA ||
        !m_red.ShouldMark(queueBytes,
                          m_ecnSets[m_summary[port].ecnSet * kNumPriorities + prio]))
    {
        return;
    }
    if (!p.ecn) // counts packets newly marked here, not ones marked upstream
    {
        ++Counters(m_ctx).ecnMarked;
        ++m_ports[port].ecnMarked;
    }
    p.ecn = true;
}

void
FabricSwitch::Trim(uint32_t out, RocePacket p)
{
    ++Counters(m_ctx).trimmedPackets;
    if (p.flow < m_ctx->flows.size())
    {
        Counters(m_ctx).trimmedDataBytes += p.payload;
        AddShared(m_ctx->flows[p.flow].bytesDropped, p.payload); // the payload leaves the network here
    }
    p.kind = PacketKind::TRIMMED;
    p.payload = 0;
    p.wire = kTrimmedFrameBytes + p.gap;
    p.priority = kControlPriority; // ahead of the data, outside the buffer accounting
    p.ecn = false;
    Enqueue(out, p);
}

void
FabricSwitch::Drop(uint32_t port, const RocePacket& p, DropReason reason)
{
    ++Counters(m_ctx).drops[reason];
    if (m_ports[port].fault != nullptr)
    {
        ++m_ports[port].fault->drops[reason];
    }
    if (p.kind == PacketKind::DATA && p.flow < m_ctx->flows.size())
    {
        Counters(m_ctx).dropDataBytes[reason] += p.payload;
        AddShared(m_ctx->flows[p.flow].bytesDropped, p.payload);
    }
    m_dropTrace(port, reason);
}

void
FabricSwitch::RecordHop(uint32_t inPort, uint32_t outPort, const RocePacket& p)
{
    // The hops of PSN 0, the flow's first packet: with per-flow ECMP every packet of the flow
    // takes them while the routes stay. A copy entering the fabric again (a retransmission of
    // PSN 0) starts the path over; once a copy left the last switch the path stays.
    if (p.flow >= m_ctx->flowPaths.size())
    {
        return;
    }
    std::vector<uint32_t>& path = m_ctx->flowPaths[p.flow];
    if (!path.empty() && path.back() == p.dst)
    {
        return;
    }
    if (m_ports[inPort].neighbor == p.src)
    {
        path.assign(1, p.src);
    }
    path.push_back(m_node);
    if (m_ports[outPort].neighbor == p.dst)
    {
        path.push_back(p.dst);
    }
}

void
FabricSwitch::Enqueue(uint32_t port, const RocePacket& p)
{
    uint32_t prio = p.priority & 7;
    uint32_t idx = port * kNumPriorities + prio;
    Queue& q = m_queues[idx];
    uint32_t bytes = FrameBytes(p);
    PortSummary& sum = m_summary[port];
    if (prio != kControlPriority)
    {
        UpdateStats(idx, q.bytes + bytes);
        sum.dataBytes += bytes;
        sum.used |= static_cast<uint8_t>(1u << prio);
    }
    q.q.Push(p);
    q.bytes += bytes;
    sum.nonEmpty |= static_cast<uint8_t>(1u << prio);
    TryTransmit(port);
}

bool
FabricSwitch::HasBacklog(uint32_t port) const
{
    return m_summary[port].nonEmpty != 0;
}

bool
FabricSwitch::Dequeue(uint32_t port, RocePacket& out)
{
    // Strict priority over the non-empty queues, highest first; control (7) is never paused.
    PortSummary& sum = m_summary[port];
    uint32_t mask = sum.nonEmpty;
    while (mask != 0)
    {
        int prio = 31 - __builtin_clz(mask);
        mask &= ~(1u << prio);
        if (prio != kControlPriority && IsPaused(port, static_cast<uint8_t>(prio)))
        {
            continue;
        }
        uint32_t idx = port * kNumPriorities + prio;
        Queue& q = m_queues[idx];
        out = q.q.Pop();
        if (q.q.Empty())
        {
            sum.nonEmpty &= static_cast<uint8_t>(~(1u << prio));
        }
        uint32_t bytes = FrameBytes(out);
        if (prio != kControlPriority)
        {
            UpdateStats(idx, q.bytes - bytes);
            sum.dataBytes -= bytes;
        }
        q.bytes -= bytes;
        if (m_markOnDequeue)
        {
            MaybeMark(port, static_cast<uint8_t>(prio), q.bytes, out);
        }
        if (prio != kControlPriority)
        {
            m_mmu.Release(out.inPort, static_cast<uint8_t>(prio), m_mmu.Charge(bytes));
            CheckXon(out.inPort, static_cast<uint8_t>(prio));
        }
        return true;
    }
    return false;
}

void
FabricSwitch::CheckXoff(uint32_t port, uint8_t prio)
{
    UpdateIngressStats(port, prio); // called after every admission
    SwitchMmu::Ingress& r = m_mmu.Record(port, prio);
    if (r.xoff || !m_mmu.ShouldPause(port, prio))
    {
        return;
    }
    r.xoff = true;
    m_summary[port].xoff |= static_cast<uint8_t>(1u << prio);
    IngressXoffs& st = m_xoffs[port * kNumPriorities + prio];
    ++st.xoffs;
    if (NowPs() >= m_ctx->warmupPs)
    {
        ++st.xoffsAfterWarmup;
    }
    ++st.generation;
    m_xoffTrace(port, m_mmu.IngressShared(port, prio) + m_mmu.IngressHeadroom(port, prio));
    SendPause(port, prio, false);
    if (m_cfg.pfc.pauseMode == PauseMode::QUANTA)
    {
        int64_t pausePs =
            static_cast<int64_t>(m_cfg.pfc.pauseQuanta * 64.0 * m_ports[port].psPerByte);
        ns3::Simulator::Schedule(ns3::PicoSeconds(std::max<int64_t>(1, pausePs / 2)),
                                 &FabricSwitch::RefreshPause, this, port, prio, st.generation);
    }
}

void
FabricSwitch::CheckXon(uint32_t port, uint8_t prio)
{
    if (port >= m_ports.size())
    {
        return;
    }
    UpdateIngressStats(port, prio); // called after every release
    SwitchMmu::Ingress& r = m_mmu.Record(port, prio);
    if (!r.xoff || !m_mmu.ShouldResume(port, prio))
    {
        return;
    }
    r.xoff = false;
    m_summary[port].xoff &= static_cast<uint8_t>(~(1u << prio));
    ++m_xoffs[port * kNumPriorities + prio].generation;
    SendPause(port, prio, true);
}

void
FabricSwitch::RefreshPause(uint32_t port, uint8_t prio, uint32_t generation)
{
    if (!m_mmu.Record(port, prio).xoff || m_xoffs[port * kNumPriorities + prio].generation != generation)
    {
        return;
    }
    SendPause(port, prio, false);
    int64_t pausePs = static_cast<int64_t>(m_cfg.pfc.pauseQuanta * 64.0 * m_ports[port].psPerByte);
    ns3::Simulator::Schedule(ns3::PicoSeconds(std::max<int64_t>(1, pausePs / 2)),
                             &FabricSwitch::RefreshPause, this, port, prio, generation);
}

void
FabricSwitch::SendPause(uint32_t port, uint8_t prio, bool resume)
{
    RocePacket f;
    f.kind = PacketKind::PAUSE;
    f.src = m_node;
    f.dst = m_ports[port].neighbor;
    f.wire = kPauseWireBytes;
    f.priority = kControlPriority;
    f.pausePriority = prio;
    bool xoffXon = m_cfg.pfc.pauseMode == PauseMode::XOFF_XON;
    f.quanta = resume ? 0 : static_cast<uint16_t>(std::min<uint32_t>(m_cfg.pfc.pauseQuanta, 65535));
    f.indefinite = !resume && xoffXon;
    if (!resume)
    {
        ++m_ports[port].pausesSent[prio];
        ++Counters(m_ctx).pausesSent;
    }
    m_pfcTrace(port, prio, !resume);
    Enqueue(port, f);
}

bool
FabricSwitch::IsPausing(uint32_t port) const
{
    return m_summary.at(port).xoff != 0;
}

bool
FabricSwitch::IsPausingPrio(uint32_t port, uint8_t prio) const
{
    return m_mmu.RecordAt(port, prio).xoff;
}

RocePacket
FabricSwitch::PopQueued(uint32_t port, uint32_t prio)
{
    uint32_t idx = port * kNumPriorities + prio;
    Queue& q = m_queues[idx];
    RocePacket f = q.q.Pop();
    uint32_t bytes = FrameBytes(f);
    if (prio != kControlPriority)
    {
        UpdateStats(idx, q.bytes - bytes);
        m_summary[port].dataBytes -= bytes;
    }
    q.bytes -= bytes;
    if (q.q.Empty())
    {
        m_summary[port].nonEmpty &= static_cast<uint8_t>(~(1u << prio));
    }
    return f;
}

void
FabricSwitch::DropQueued(uint32_t port, uint32_t prio, const RocePacket& f, DropReason reason)
{
    m_mmu.Release(f.inPort, static_cast<uint8_t>(prio), m_mmu.Charge(FrameBytes(f)));
    Drop(port, f, reason);
    CheckXon(f.inPort, static_cast<uint8_t>(prio));
}

void
FabricSwitch::FlushPort(uint32_t port, uint8_t mask, DropReason reason)
{
    for (uint32_t prio = 0; prio < kNumPriorities; ++prio)
    {
        if (!((mask >> prio) & 1))
        {
            continue;
        }
        while (!m_queues[port * kNumPriorities + prio].q.Empty())
        {
            RocePacket f = PopQueued(port, prio);
            if (prio != kControlPriority)
            {
                DropQueued(port, prio, f, reason);
            }
        }
    }
}

void
FabricSwitch::RerouteQueued(uint32_t port)
{
    for (uint32_t prio = 0; prio < kNumPriorities; ++prio)
    {
        std::vector<RocePacket> held;
        while (!m_queues[port * kNumPriorities + prio].q.Empty())
        {
            held.push_back(PopQueued(port, prio));
        }
        for (const RocePacket& f : held)
        {
            uint32_t out = f.kind == PacketKind::PAUSE ? UINT32_MAX : ForwardEgress(f);
            if (out < m_ports.size() && out != port)
            {
                Enqueue(out, f); // keeps its buffer charge on the same ingress
            }
            else if (prio != kControlPriority)
            {
                DropQueued(port, prio, f, DROP_LINK_DOWN);
            }
        }
    }
}

void
FabricSwitch::SetAlpha(double alpha)
{
    m_cfg.pfc.alpha = alpha;
    m_mmu.SetAlpha(alpha);
    ResolvePortSettings();
}

void
FabricSwitch::SetEcn(const std::array<EcnConfig, kNumPriorities>& ecn)
{
    m_cfg.ecn = ecn;
    ResolvePortSettings();
}

void
FabricSwitch::ResolvePortSettings()
{
    // Each port's ECN and PFC alpha: the switch's setting, or switch.ecn_by_rate's and
    // switch.pfc.alpha_by_rate's for the port's rate (a `set` fault changes the switch's
    // setting: ports under a per-rate entry keep theirs, as in the static configuration).
    m_ecnSets.assign(m_cfg.ecn.begin(), m_cfg.ecn.end());
    for (const auto& entry : m_cfg.ecnByRate)
    {
        m_ecnSets.insert(m_ecnSets.end(), entry.second.begin(), entry.second.end());
    }
    for (uint32_t port = 0; port < GetNPorts(); ++port)
    {
        double gbps = m_ports[port].rateBps / 1e9;
        size_t set = 0;
        for (size_t i = 0; i < m_cfg.ecnByRate.size(); ++i) // switch.ecn_by_rate: the last match
        {
            double rate = m_cfg.ecnByRate[i].first;
            set = std::abs(rate - gbps) <= 1e-9 * rate ? i + 1 : set;
        }
        if (set > UINT16_MAX)
        {
            throw std::length_error("switch.ecn_by_rate: more than 65,535 entries");
        }
        m_summary[port].ecnSet = static_cast<uint16_t>(set);
        double alpha = m_cfg.pfc.alpha;
        for (const auto& [rate, a] : m_cfg.pfc.alphaByRate) // switch.pfc.alpha_by_rate
        {
            alpha = std::abs(rate - gbps) <= 1e-9 * rate ? a : alpha;
        }
        m_mmu.SetPortAlpha(port, alpha);
    }
}

const SwitchMmu&
FabricSwitch::Mmu() const
{
    return m_mmu;
}

const SwitchConfig&
FabricSwitch::Config() const
{
    return m_cfg;
}

const EcnConfig&
FabricSwitch::PortEcn(uint32_t port, uint8_t prio) const
{
    return m_ecnSets.at(static_cast<size_t>(m_summary.at(port).ecnSet) * kNumPriorities + (prio & 7));
}

uint64_t
FabricSwitch::QueueBytes(uint32_t port, uint8_t prio) const
{
    size_t idx = static_cast<size_t>(port) * kNumPriorities + (prio & 7);
    return idx < m_queues.size() ? m_queues[idx].bytes : 0;
}

uint64_t
FabricSwitch::DataQueueBytes(uint32_t port) const
{
    return port < m_summary.size() ? m_summary[port].dataBytes : 0;
}

QueueStats
FabricSwitch::Stats(uint32_t port, uint8_t prio) const
{
    size_t idx = static_cast<size_t>(port) * kNumPriorities + (prio & 7);
    const Queue& q = m_queues.at(idx);
    QueueStats s;
    s.maxBytes = q.maxBytes;
    s.maxBytesRun = q.maxBytesRun;
    s.byteTimePs = q.byteTimePs;
    s.lastChangePs = q.lastChangePs;
    s.everUsed = q.maxBytesRun > 0;
    // A queue never sampled after its first use: every sample so far was a zero.
    s.zeroSamplesBefore = m_samples[idx].samples.empty() ? m_sampleCount
                                                         : m_samples[idx].zeroSamplesBefore;
    s.samples = m_samples[idx].samples;
    return s;
}

IngressStats
FabricSwitch::Ingress(uint32_t port, uint8_t prio) const
{
    const IngressOccupancy& o = m_mmu.RecordAt(port, prio).occupancy;
    const IngressXoffs& x = m_xoffs.at(static_cast<size_t>(port) * kNumPriorities + (prio & 7));
    IngressStats s;
    static_cast<IngressOccupancy&>(s) = o;
    s.xoffs = x.xoffs;
    s.xoffsAfterWarmup = x.xoffsAfterWarmup;
    return s;
}

void
FabricSwitch::SampleQueues()
{
    // Only queues that have held data: a queue not used yet counts its samples as zeros, by
    // the number of samples taken before its first one (m_sampleCount then).
    for (size_t port = 0; port < m_summary.size(); ++port)
    {
        uint32_t used = m_summary[port].used & ~(1u << kControlPriority);
        while (used != 0)
        {
            uint32_t prio = static_cast<uint32_t>(__builtin_ctz(used));
            used &= used - 1;
            size_t i = port * kNumPriorities + prio;
            QueueSamples& s = m_samples[i];
            if (s.samples.empty())
            {
                s.zeroSamplesBefore = m_sampleCount;
            }
            s.samples.push_back(
                static_cast<uint32_t>(std::min<uint64_t>(m_queues[i].bytes, UINT32_MAX)));
        }
    }
    ++m_sampleCount;
}

void
FabricSwitch::FinishStats(int64_t endPs)
{
    for (Queue& s : m_queues)
    {
        int64_t from = std::max(s.lastChangePs, m_ctx->warmupPs);
        if (endPs > from)
        {
            s.byteTimePs += static_cast<double>(s.bytes) * static_cast<double>(endPs - from);
        }
        s.lastChangePs = endPs;
    }
    for (uint32_t port = 0; port < GetNPorts(); ++port)
    {
        for (uint8_t prio = 0; prio < kNumPriorities; ++prio)
        {
            IngressOccupancy& s = m_mmu.Record(port, prio).occupancy;
            int64_t from = std::max(s.lastChangePs, m_ctx->warmupPs);
            if (endPs > from)
            {
                s.byteTimePs += static_cast<double>(s.bytes) * static_cast<double>(endPs - from);
            }
            s.lastChangePs = endPs;
        }
    }
}

} // namespace fabric
