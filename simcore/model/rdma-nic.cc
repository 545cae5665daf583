#include "model/rdma-nic.h"
#include "common/ecmp-hash.h"

#include "model/dcqcn-sampled.h"
#include "model/dcqcn.h"
#include "model/erd-transport.h"
#include "model/fabric-switch.h"
#include "model/nic-faults.h"
#include "model/rc-transport.h"
#include "model/sprayed-transport.h"

#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/nstime.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <mutex>

namespace fabric
{

NS_OBJECT_ENSURE_REGISTERED(RdmaNic);
NS_OBJECT_ENSURE_REGISTERED(MultiPlaneNic);

ns3::TypeId
RdmaNic::GetTypeId()
{
    using namespace ns3;
    static TypeId tid = TypeId("fabric::RdmaNic")
                            .SetParent<FabricDevice>()
                            .SetGroupName("Fabric")
                            .AddConstructor<RdmaNic>()
                            .AddTraceSource("CnpTx", "The notification point sent a CNP (flow)",
                                            MakeTraceSourceAccessor(&RdmaNic::m_cnpTxTrace),
                                            "fabric::RdmaNic::FlowCallback")
                            .AddTraceSource("CnpRx", "The reaction point got a CNP (flow)",
                                            MakeTraceSourceAccessor(&RdmaNic::m_cnpRxTrace),
                                            "fabric::RdmaNic::FlowCallback")
                            .AddTraceSource("FlowComplete", "Last byte delivered (flow)",
                                            MakeTraceSourceAccessor(&RdmaNic::m_completeTrace),
                                            "fabric::RdmaNic::FlowCallback")
                            .AddTraceSource("MessageComplete",
                                            "A connection's message delivered whole (transfer)",
                                            MakeTraceSourceAccessor(&RdmaNic::m_messageTrace),
                                            "fabric::RdmaNic::FlowCallback")
                            .AddTraceSource("MessagePosted",
                                            "A message was posted on a connection (flow)",
                                            MakeTraceSourceAccessor(&RdmaNic::m_postTrace),
                                            "fabric::RdmaNic::FlowCallback");
    return tid;
}

RdmaNic::RdmaNic() = default;

ns3::TypeId
MultiPlaneNic::GetTypeId()
{
    static ns3::TypeId tid = ns3::TypeId("fabric::MultiPlaneNic")
                                 .SetParent<RdmaNic>()
                                 .SetGroupName("Fabric")
                                 .AddConstructor<MultiPlaneNic>();
    return tid;
}

void
MultiPlaneNic::Receive(uint32_t port, RocePacket p)
{
    m_rxPort = port; // control frames answering this one leave by the plane it came by
    RdmaNic::Receive(port, p);
    // What the frame freed (an ACK opening a window) may leave by any plane.
    KickPorts();
}

bool
MultiPlaneNic::Dequeue(uint32_t port, RocePacket& out)
{
    return DequeuePlane(port, out);
}

bool
MultiPlaneNic::HasBacklog(uint32_t port) const
{
    return !(port == 0 ? m_ctrl : m_portCtrl[port - 1]).Empty() || !m_active.empty();
}

void
RdmaNic::Configure(FabricContext* ctx, uint32_t node, const NicConfig& cfg)
{
    using namespace ns3;
    m_ctx = ctx;
    m_node = node;
    m_cfg = cfg;
    m_rtoPs = static_cast<int64_t>(std::max(0.001, cfg.rtoUs) * 1e6);
    m_cnpIntervalPs = static_cast<int64_t>(std::max(0.0, cfg.cnpIntervalUs) * 1e6);
    m_cnpWindow = cfg.cnpMode != "holdoff";
    // Referencing the TypeIds registers them even when the static library drops unused objects.
    Dcqcn::GetTypeId();
    DcqcnSampled::GetTypeId();
    NoCongestionControl::GetTypeId();
    RcTransport::GetTypeId();
    XrcTransport::GetTypeId();
    SprayedTransport::GetTypeId();
    ErdTransport::GetTypeId();
    ns3::ObjectFactory transportFactory(Transport::TypeIdNameFor(cfg.transport));
    m_transport = transportFactory.Create<Transport>();
    m_transport->Attach(this, ctx);
    m_dataOverheadBytes = cfg.headerBytes + m_transport->ExtraHeaderBytes() + cfg.preambleIfgBytes;
    m_goBackN = m_transport->GetInstanceTypeId() == RcTransport::GetTypeId() ||
                m_transport->GetInstanceTypeId() == XrcTransport::GetTypeId();
    m_qpCache.SetCapacity(cfg.qpCacheEntries);
    m_multiPort = m_ports.size() > 1;
    if (m_multiPort)
    {
        m_portCtrl.resize(m_ports.size() - 1);
        m_portRr.assign(m_ports.size(), 0);
        m_nicRateBps = 0;
        for (const Port& port : m_ports)
        {
            m_nicRateBps += port.rateBps;
        }
    }
    m_qpMissPs = static_cast<int64_t>(cfg.qpCacheMissNs * 1e3 + 0.5);
    m_ccFactory.SetTypeId(CongestionOps::TypeIdNameFor(cfg.cc.algorithm));
    if (cfg.cc.algorithm != "none")
    {
        const CcConfig& c = cfg.cc;
        m_ccFactory.Set("G", DoubleValue(c.g));
        m_ccFactory.Set("AlphaUpdatePeriod", TimeValue(NanoSeconds(int64_t(c.alphaUpdateUs * 1e3))));
        m_ccFactory.Set("RateDecreaseInterval",
                        TimeValue(NanoSeconds(int64_t(c.rateDecreaseIntervalUs * 1e3))));
        m_ccFactory.Set("RateIncreaseTimer",
                        TimeValue(NanoSeconds(int64_t(c.rateIncreaseTimerUs * 1e3))));
        m_ccFactory.Set("ByteCounter", UintegerValue(c.byteCounterBytes));
        m_ccFactory.Set("FastRecoverySteps", UintegerValue(c.fastRecoverySteps));
        m_ccFactory.Set("RaiBps", DoubleValue(c.raiMbps * 1e6));
        m_ccFactory.Set("RhaiBps", DoubleValue(c.rhaiMbps * 1e6));
        m_ccFactory.Set("MinRateBps", DoubleValue(c.minRateMbps * 1e6));
        m_ccFactory.Set("ClampTargetRate", BooleanValue(c.clampTargetRate));
        m_ccFactory.Set("ClampTargetAfterTimerIncrease",
                        BooleanValue(c.clampTargetAfterTimerIncrease));
        m_ccFactory.Set("MaxDecrease", DoubleValue(c.maxDecrease));
        if (m_ccFactory.GetTypeId() == Dcqcn::GetTypeId())
        {
            // The sampled variant's alpha runs on its own periodic timer by definition.
            m_ccFactory.Set("AlphaTimerRestartsOnCnp",
                            BooleanValue(c.alphaTimer == "restart_on_cnp"));
        }
    }
}

const NicConfig&
RdmaNic::Config() const
{
    return m_cfg;
}

const Transport&
RdmaNic::GetTransport() const
{
    return *m_transport;
}

uint64_t
RdmaNic::QpCacheMisses() const
{
    return m_qpCache.Misses();
}

void
RdmaNic::StartFlow(uint32_t flow)
{
    if (flow >= m_ctx->flows.size() || m_ports.empty())
    {
        return;
    }
    FlowState& f = m_ctx->flows[flow];
    if (!f.valid || f.started)
    {
        return;
    }
    f.started = true;
    f.startPs = NowPs();
    // A spraying QP of a multi-plane NIC may use every port: its line rate is their sum.
    f.lineRateBps = SpraysPlanes() ? m_nicRateBps : m_ports[0].rateBps;
    {
        // ns-3's attribute system shares its accessors and checkers between all objects with
        // reference counts that are not atomic: partitions' threads create objects one at a time.
        static std::mutex createMutex;
        std::lock_guard<std::mutex> lock(createMutex);
        f.cc = m_ccFactory.Create<CongestionOps>();
    }
    f.cc->Init(f.lineRateBps);
    f.nextSendPs = f.startPs;
    f.lastProgressPs = f.startPs;
    m_active.push_back(flow);
    ns3::Simulator::Schedule(ns3::PicoSeconds(m_rtoPs), &RdmaNic::CheckRto, this, flow);
    Kick();
}

void
RdmaNic::PostMessage(uint32_t flow)
{
    if (flow >= m_ctx->flows.size() || m_ports.empty())
    {
        return;
    }
    FlowState& f = m_ctx->flows[flow];
    if (!f.valid || f.msgPosted >= f.msgCount)
    {
        return;
    }
    f.totalPkts = f.msgEndPkt[f.msgPosted++];
    m_postTrace(flow); // (before the QP sends: a test reads its rate as the message starts)
    if (!f.started)
    {
        StartFlow(flow);
    }
    else
    {
        if (f.parked)
        {
            f.parked = false;
            m_active.push_back(flow);
        }
        Kick();
    }
}

bool
RdmaNic::HasBacklog(uint32_t port) const
{
    return !m_ctrl.Empty() || !m_active.empty();
}

bool
RdmaNic::BuildData(uint32_t flow, RocePacket& out, int64_t now)
{
    FlowState& f = m_ctx->flows[flow];
    bool retransmit = false;
    uint64_t psn = m_transport->NextPsn(f, now, retransmit);
    out = RocePacket();
    out.kind = PacketKind::DATA;
    out.flow = flow;
    out.src = f.spec->src;
    out.dst = f.spec->dst;
    out.psn = static_cast<uint32_t>(psn);
    out.payload = f.Payload(psn);
    out.wire = out.payload + m_dataOverheadBytes;
    out.gap = static_cast<uint8_t>(m_cfg.preambleIfgBytes);
    out.udpSrc = m_goBackN ? f.spec->udpSrcPort : m_transport->SourcePort(f, psn);
    out.priority = f.spec->priority & 7;
    f.bytesSent += out.payload;
    if (retransmit)
    {
        ++f.retransmits;
        ++Counters(m_ctx).retransmitted;
        f.bytesRetransmitted += out.payload;
    }
    double rate = f.cc->GetRateBps();
    if (rate < f.lineRateBps && rate > 0)
    {
        f.nextSendPs = now + static_cast<int64_t>(out.wire * 8e12 / rate);
    }
    else
    {
        f.nextSendPs = now;
    }
    f.cc->OnBytesSent(out.wire);
    return true;
}

bool
RdmaNic::Dequeue(uint32_t port, RocePacket& out)
{
    if (!m_ctrl.Empty())
    {
        out = m_ctrl.Pop();
        return true;
    }
    return DequeueData<false>(port, out);
}

template <bool kPlanes>
inline bool
RdmaNic::DequeueData(uint32_t port, RocePacket& out)
{
    size_t n = m_active.size();
    if (n == 0)
    {
        return false;
    }
    int64_t now = NowPs();
    if (m_stallUntilPs > now)
    {
        ScheduleWake(m_stallUntilPs); // fetching a QP context: nothing leaves meanwhile
        return false;
    }
    int64_t earliest = kForeverPs;
    // Each port of a multi-plane NIC keeps its own round robin (one shared pointer, moved by
    // every port in turn, starves the QPs some port never reaches).
    size_t& rr = kPlanes ? m_portRr[port] : m_rr;
    for (size_t i = 0; i < n; ++i)
    {
        size_t slot = (rr + i) % n;
        uint32_t flow = m_active[slot];
        FlowState& f = m_ctx->flows[flow];
        if (m_goBackN ? !RcTransport::CanSendRc(f) : !m_transport->CanSend(f))
        {
            continue;
        }
        if constexpr (kPlanes)
        {
            // Pinned QPs leave by their plane only; spraying ones by any plane reaching dst.
            if (m_goBackN ? PathPort(*f.spec) != port : !PlaneUsable(port, f.spec->dst))
            {
                continue;
            }
        }
        if (IsPaused(port, f.spec->priority & 7))
        {
            continue;
        }
        if (f.nextSendPs > now)
        {
            earliest = std::min(earliest, f.nextSendPs);
            continue;
        }
        if (m_qpCache.Limited() &&
            !m_qpCache.Touch(m_transport->ContextKey(*f.spec, m_cfg.processesPerHost)))
        {
            // A miss: the context is fetched (now cached) and this QP sends when it arrives.
            m_stallUntilPs = now + m_qpMissPs;
            ScheduleWake(m_stallUntilPs);
            return false;
        }
        rr = (slot + 1) % n;
        return BuildData(flow, out, now);
    }
    if (earliest != kForeverPs)
    {
        ScheduleWake(earliest);
    }
    return false;
}

void
RdmaNic::ScheduleWake(int64_t atPs)
{
    int64_t now = NowPs();
    if (m_wakeAtPs > now && m_wakeAtPs <= atPs)
    {
        return; // an earlier wake-up is already pending
    }
    m_wakeAtPs = atPs;
    ns3::Simulator::Schedule(ns3::PicoSeconds(atPs - now), &RdmaNic::Wake, this);
}

void
RdmaNic::Wake()
{
    if (NowPs() >= m_wakeAtPs)
    {
        m_wakeAtPs = kForeverPs;
    }
    Kick();
}

namespace
{
/**
 * A flow's state, then (next stage) its spec and, at the flow's sender, its congestion control:
 * the receiving NIC reads nothing the sender writes (in a parallel run the two may run on two
 * threads). A prefetch's hint.
 */
void
PrefetchFlow(const FabricContext* ctx, uint32_t flow, bool second, bool sender)
{
    if (ctx == nullptr || flow >= ctx->flows.size())
    {
        return;
    }
    const FlowState& f = ctx->flows[flow];
    if (!second)
    {
        PrefetchSpan(&f, sizeof(FlowState));
        return;
    }
    __builtin_prefetch(f.spec);
    if (sender && f.cc)
    {
        PrefetchSpan(ns3::PeekPointer(f.cc), 128);
    }
}
} // namespace

/** This NIC's lines from the port table to its end (about 13: every per-frame field). */
void
RdmaNic::PrefetchOwnFields() const
{
    const char* from = reinterpret_cast<const char*>(&m_ports);
    PrefetchSpan(from, sizeof(RdmaNic) - static_cast<size_t>(from - reinterpret_cast<const char*>(this)));
}

/**
 * A frame arriving on port, stage by stage (FabricDevice::kReceiveStages): this NIC's own
 * fields, then the frame's flow state, then its spec and congestion control. Writes nothing.
 */
void
RdmaNic::PrefetchReceive(uint32_t /*port*/, const RocePacket& p, uint32_t stage) const
{
    if (p.kind == PacketKind::PAUSE)
    {
        return;
    }
    switch (stage)
    {
    case 0:
        PrefetchOwnFields();
        return;
    case 1:
        PrefetchFlow(m_ctx, p.flow, false, p.kind != PacketKind::DATA);
        return;
    case 2:
        // DATA and trimmed frames arrive at the flow's receiver, ACK, NACK and CNP at its sender.
        PrefetchFlow(m_ctx, p.flow, true,
                     p.kind != PacketKind::DATA && p.kind != PacketKind::TRIMMED);
        return;
    default:
        return;
    }
}

/**
 * Port's next transmission, stage by stage: this NIC's fields, the control queue's head or the
 * round robin's next flow, that flow's state, then its spec and congestion control.
 */
void
RdmaNic::PrefetchTransmit(uint32_t /*port*/, uint32_t stage) const
{
    if (stage == 0)
    {
        PrefetchOwnFields();
        return;
    }
    if (!m_ctrl.Empty() || m_active.empty() || stage > 3)
    {
        return;
    }
    if (stage == 1)
    {
        __builtin_prefetch(&m_active[m_rr % m_active.size()]);
        return;
    }
    PrefetchFlow(m_ctx, m_active[m_rr % m_active.size()], stage == 3, true);
}

void
RdmaNic::Receive(uint32_t port, RocePacket p)
{
    switch (p.kind)
    {
    case PacketKind::DATA:
        if (m_rxHook != nullptr)
        {
            m_rxHook->Arrive(p);
            break;
        }
        OnData(p);
        break;
    case PacketKind::ACK:
        OnAck(p, false);
        break;
    case PacketKind::NACK:
        OnAck(p, true);
        break;
    case PacketKind::CNP:
        OnCnp(p);
        break;
    case PacketKind::PAUSE:
        HandlePause(port, p);
        break;
    case PacketKind::TRIMMED:
        OnTrimmedFrame(p);
        break;
    }
}

void
RdmaNic::OnTrimmedFrame(const RocePacket& p)
{
    if (p.flow < m_ctx->flows.size())
    {
        m_transport->OnTrimmed(m_ctx->flows[p.flow], p, NowPs());
    }
}

void
RdmaNic::SendControl(const FlowState& f, PacketKind kind, uint32_t psn, uint32_t sack)
{
    RocePacket c;
    c.kind = kind;
    c.flow = static_cast<uint32_t>(&f - m_ctx->flows.data());
    c.src = f.spec->dst;
    c.dst = f.spec->src;
    c.psn = psn;
    c.payload = sack; // selective transports: the PSN acknowledged selectively + 1
    c.udpSrc = f.spec->udpSrcPort;
    // CNPs always ride the control priority; ACKs/NACKs too unless nic.ack_priority is "data"
    // (then the switches queue them behind the flow's data, as RoCE NICs send them).
    c.priority = kind != PacketKind::CNP && m_cfg.ackDataPriority
                     ? static_cast<uint8_t>(f.spec->priority & 7)
                     : kControlPriority;
    c.wire = m_cfg.headerBytes + m_cfg.preambleIfgBytes +
             (kind == PacketKind::CNP ? kCnpPadBytes : kAethBytes);
    c.gap = static_cast<uint8_t>(m_cfg.preambleIfgBytes);
    if (kind != PacketKind::CNP && m_cfg.ackFlagFeedback)
    {
        FlowState& mutableFlow = m_ctx->flows[c.flow];
        c.ece = mutableFlow.eceSinceAck;
        mutableFlow.eceSinceAck = false;
    }
    PushControl(c);
}

void
RdmaNic::OnData(const RocePacket& p)
{
    if (p.flow >= m_ctx->flows.size())
    {
        return;
    }
    FlowState& f = m_ctx->flows[p.flow];
    f.bytesReceived += p.payload;
    int64_t now = NowPs();
    if (p.ecn && m_cfg.ackFlagFeedback)
    {
        // The flag rides on the next ACK/NACK (every marked packet with an ACK per packet);
        // no CNP and no pacing. Counted as a CNP so the summary stays comparable.
        f.eceSinceAck = true;
        ++Counters(m_ctx).cnpsSent;
        m_cnpTxTrace(f.spec->id);
    }
    else if (p.ecn)
    {
        OnMarked(p.flow, now);
    }
    m_transport->OnData(f, p, now);
}

void
RdmaNic::OnMarked(uint32_t flow, int64_t now)
{
    FlowState& f = m_ctx->flows[flow];
    if (f.lastCnpPs < 0 || now - f.lastCnpPs >= m_cnpIntervalPs)
    {
        SendCnp(flow); // no CNP in the last interval: at once
        return;
    }
    if (m_cnpWindow && !f.cnpPending)
    {
        // DCQCN paper: at most one CNP per interval, if a frame arriving in it was marked; the
        // interval that began with the last CNP owes one at its end.
        f.cnpPending = true;
        ns3::Simulator::Schedule(ns3::PicoSeconds(f.lastCnpPs + m_cnpIntervalPs - now),
                                 &RdmaNic::SendPendingCnp, this, flow);
    }
}

void
RdmaNic::SendPendingCnp(uint32_t flow)
{
    m_ctx->flows[flow].cnpPending = false;
    SendCnp(flow);
}

void
RdmaNic::SendCnp(uint32_t flow)
{
    FlowState& f = m_ctx->flows[flow];
    f.lastCnpPs = NowPs();
    ++Counters(m_ctx).cnpsSent;
    m_cnpTxTrace(f.spec->id);
    SendControl(f, PacketKind::CNP, 0);
}

void
RdmaNic::OnAck(const RocePacket& p, bool nack)
{
    if (p.flow >= m_ctx->flows.size())
    {
        return;
    }
    FlowState& f = m_ctx->flows[p.flow];
    if (!f.started || f.senderDone)
    {
        return;
    }
    bool allAcked = m_transport->OnAck(f, p, nack, NowPs());
    if (p.ece && f.cc)
    {
        m_cnpRxTrace(f.spec->id);
        f.cc->OnCnp();
    }
    if (allAcked)
    {
        if (f.msgPosted < f.msgCount)
        {
            // A connection between messages: it leaves the round robin until the next post,
            // keeping its congestion control, PSNs and window.
            f.parked = true;
            Deactivate(p.flow);
        }
        else
        {
            RetireFlow(p.flow); // sets senderDonePs: the sender FCT ends here
        }
    }
    TryTransmit(0); // a multi-plane NIC kicks its other ports after every frame it receives
}

void
RdmaNic::OnCnp(const RocePacket& p)
{
    if (p.flow >= m_ctx->flows.size())
    {
        return;
    }
    FlowState& f = m_ctx->flows[p.flow];
    if (!f.started || f.senderDone || !f.cc)
    {
        return;
    }
    m_cnpRxTrace(f.spec->id);
    f.cc->OnCnp();
}

void
RdmaNic::RetireFlow(uint32_t flow)
{
    FlowState& f = m_ctx->flows[flow];
    f.senderDone = true;
    f.senderDonePs = NowPs();
    if (f.cc)
    {
        f.cc->Stop();
        f.cc->Dispose();
        f.cc = nullptr;
    }
    m_transport->OnRetire(flow);
    Deactivate(flow);
}

void
RdmaNic::Deactivate(uint32_t flow)
{
    auto it = std::find(m_active.begin(), m_active.end(), flow);
    if (it != m_active.end())
    {
        size_t slot = static_cast<size_t>(it - m_active.begin());
        m_active.erase(it);
        auto keep = [this, slot](size_t& rr) {
            if (rr > slot)
            {
                --rr;
            }
            if (rr >= m_active.size())
            {
                rr = 0;
            }
        };
        keep(m_rr);
        for (size_t& rr : m_portRr)
        {
            keep(rr);
        }
    }
}

void
RdmaNic::CheckRto(uint32_t flow)
{
    FlowState& f = m_ctx->flows[flow];
    if (f.senderDone)
    {
        return;
    }
    int64_t now = NowPs();
    if (f.sndNxt > f.sndUna && now - f.lastProgressPs >= m_rtoPs)
    {
        m_transport->OnTimeout(f, now);
        f.lastProgressPs = now;
        Kick();
    }
    // The deadline has passed only when nothing is outstanding (a QP paced far below line rate,
    // or between messages): look again one RTO later instead of re-arming at once.
    int64_t next = f.lastProgressPs + m_rtoPs;
    if (next <= now)
    {
        next = now + m_rtoPs;
    }
    ns3::Simulator::Schedule(ns3::PicoSeconds(next - now), &RdmaNic::CheckRto, this, flow);
}

bool
RdmaNic::SendPause(uint8_t prio, uint16_t quanta, bool indefinite)
{
    if (m_ports.empty() || prio >= kNumPriorities)
    {
        return false;
    }
    int64_t now = NowPs();
    bool resume = quanta == 0 && !indefinite;
    if (!resume)
    {
        if (m_wdFiredPs >= 0)
        {
            return false; // the watchdog disabled pause generation on this NIC
        }
        if (m_pauseSincePs < 0 || now > m_pauseLapsePs)
        {
            m_pauseSincePs = now;
            if (m_wdEnabled)
            {
                ns3::Simulator::Schedule(ns3::PicoSeconds(m_wdDetectPs),
                                         &RdmaNic::CheckPauseWatchdog, this, now);
            }
        }
        m_pauseLapsePs =
            indefinite ? kForeverPs
                       : now + static_cast<int64_t>(quanta * 64.0 * m_ports[0].psPerByte + 0.5);
        for (uint32_t port = 0; port < (m_multiPort ? m_ports.size() : 1); ++port)
        {
            ++m_ports[port].pausesSent[prio]; // a multi-plane NIC pauses every plane
            ++Counters(m_ctx).pausesSent;
        }
        m_pausedPrios |= static_cast<uint8_t>(1u << prio);
    }
    else
    {
        m_pausedPrios &= static_cast<uint8_t>(~(1u << prio));
        if (m_pausedPrios == 0)
        {
            m_pauseSincePs = -1;
            m_pauseLapsePs = -1;
        }
    }
    RocePacket f;
    f.kind = PacketKind::PAUSE;
    f.src = m_node;
    f.dst = m_ports[0].neighbor;
    f.wire = kPauseWireBytes;
    f.priority = kControlPriority;
    f.pausePriority = prio;
    f.quanta = quanta;
    f.indefinite = indefinite;
    PushControl(f);
    return true;
}

void
RdmaNic::CheckPauseWatchdog(int64_t since)
{
    int64_t now = NowPs();
    if (m_wdFiredPs >= 0 || m_pauseSincePs != since || now > m_pauseLapsePs)
    {
        return; // the pause ended (or a later episode has its own check)
    }
    m_wdFiredPs = now;
    // Release the ToR at once: the NIC stops asserting pauses it can no longer justify.
    uint8_t paused = m_pausedPrios;
    for (uint8_t prio = 0; prio < kControlPriority; ++prio)
    {
        if ((paused >> prio) & 1)
        {
            SendPause(prio, 0, false);
        }
    }
}

void
RdmaNic::SetPauseWatchdog(bool enabled, int64_t detectPs)
{
    m_wdEnabled = enabled;
    m_wdDetectPs = std::max<int64_t>(1, detectPs);
}

bool
RdmaNic::PauseWatchdogFired() const
{
    return m_wdFiredPs >= 0;
}

int64_t
RdmaNic::PauseWatchdogFiredPs() const
{
    return m_wdFiredPs;
}

void
RdmaNic::SetRxHook(SlowReceiver* hook)
{
    m_rxHook = hook;
}

void
RdmaNic::DeliverData(const RocePacket& p)
{
    OnData(p);
}

void
RdmaNic::SetRtoUs(double rtoUs)
{
    m_cfg.rtoUs = rtoUs;
    m_rtoPs = static_cast<int64_t>(std::max(0.001, rtoUs) * 1e6);
}

void
RdmaNic::SetCnpIntervalUs(double us)
{
    m_cfg.cnpIntervalUs = us;
    m_cnpIntervalPs = static_cast<int64_t>(std::max(0.0, us) * 1e6);
}

void
RdmaNic::DoDispose()
{
    for (uint32_t flow : m_active)
    {
        if (!m_ctx)
        {
            break;
        }
        if (flow < m_ctx->flows.size() && m_ctx->flows[flow].cc)
        {
            m_ctx->flows[flow].cc->Dispose();
            m_ctx->flows[flow].cc = nullptr;
        }
    }
    m_active.clear();
    if (m_transport)
    {
        m_transport->Dispose();
        m_transport = nullptr;
    }
    FabricDevice::DoDispose();
}

void
RdmaNic::SetPlaneRoutes(std::vector<const std::vector<uint32_t>*> portAttach)
{
    m_portAttach = std::move(portAttach);
}

bool
RdmaNic::PlaneUsable(uint32_t port, uint32_t dst) const
{
    const Port& p = m_ports[port];
    if (p.fault != nullptr && p.fault->down)
    {
        return false; // the NIC sees its own link fail at once
    }
    const std::vector<uint32_t>* attach = port < m_portAttach.size() ? m_portAttach[port] : nullptr;
    return attach == nullptr || dst >= attach->size() || (*attach)[dst] != UINT32_MAX;
}

uint32_t
RdmaNic::PathPort(const FlowSpec& f) const
{
    uint32_t n = static_cast<uint32_t>(m_ports.size());
    if (n <= 1 || !m_goBackN)
    {
        return 0;
    }
    // A QP's plane: a hash of its 5-tuple (as ECMP picks a path), moved to the next plane
    // that is up and reaches the destination when it is not.
    uint32_t h = FabricSwitch::EcmpHash(kPlaneHashSeed, f.src, f.dst, f.udpSrcPort) % n;
    for (uint32_t i = 0; i < n; ++i)
    {
        uint32_t port = (h + i) % n;
        if (PlaneUsable(port, f.dst))
        {
            return port;
        }
    }
    return h;
}

void
RdmaNic::KickPorts()
{
    for (uint32_t port = 0; port < m_ports.size(); ++port)
    {
        TryTransmit(port);
    }
}

void
RdmaNic::PushControlPlane(const RocePacket& c)
{
    uint32_t n = static_cast<uint32_t>(m_ports.size());
    if (c.kind == PacketKind::PAUSE)
    {
        for (uint32_t port = 0; port < n; ++port)
        {
            RocePacket pause = c;
            pause.dst = m_ports[port].neighbor;
            (port == 0 ? m_ctrl : m_portCtrl[port - 1]).Push(pause);
            TryTransmit(port);
        }
        return;
    }
    uint32_t port = m_rxPort < n ? m_rxPort : 0;
    for (uint32_t i = 0; i < n && !PlaneUsable(port, c.dst); ++i)
    {
        port = (m_rxPort + i + 1) % n;
    }
    (port == 0 ? m_ctrl : m_portCtrl[port - 1]).Push(c);
    TryTransmit(port);
}

bool
RdmaNic::DequeuePlane(uint32_t port, RocePacket& out)
{
    PacketQueue& ctrl = port == 0 ? m_ctrl : m_portCtrl[port - 1];
    if (!ctrl.Empty())
    {
        out = ctrl.Pop();
        return true;
    }
    return DequeueData<true>(port, out);
}

uint64_t
RdmaNic::PayloadInWindow(const RocePacket& p, int64_t now) const
{
    int64_t inWindow = now - m_ctx->warmupPs;
    int64_t serPs = GetNPorts() > 0 ? GetPort(0).SerializationPs(p.wire) : 0;
    if (inWindow >= serPs)
    {
        return p.payload;
    }
    // Only the bits that reached the host after the warm-up count (rounded down), so the
    // host's throughput never exceeds its line rate x payload / wire bytes.
    return static_cast<uint64_t>(p.payload) * static_cast<uint64_t>(inWindow) /
           static_cast<uint64_t>(serPs);
}

} // namespace fabric
