#include "model/dci-accelerator.h"

#include <algorithm>

namespace fabric
{

NS_OBJECT_ENSURE_REGISTERED(DciAccelerator);

ns3::TypeId
DciAccelerator::GetTypeId()
{
    static ns3::TypeId tid = ns3::TypeId("fabric::DciAccelerator")
                                 .SetParent<FabricSwitch>()
                                 .SetGroupName("Fabric")
                                 .AddConstructor<DciAccelerator>();
    return tid;
}

DciAccelerator::DciAccelerator() = default;

void
DciAccelerator::Attach(uint32_t longPort, uint64_t bufferBytes, int64_t retransmitTimeoutPs)
{
    m_longPort = longPort;
    m_bufferBytes = bufferBytes;
    m_rtoPs = std::max<int64_t>(1, retransmitTimeoutPs);
}

const DciAcceleratorStats&
DciAccelerator::Stats() const
{
    return m_stats;
}

uint64_t
DciAccelerator::HeldBytes() const
{
    return m_heldBytes;
}

void
DciAccelerator::Receive(uint32_t port, RocePacket p)
{
    if (p.kind == PacketKind::DATA && port != m_longPort && p.flow < m_ctx->flows.size() &&
        SelectEgress(p) == m_longPort)
    {
        OnLocalData(port, p);
        return;
    }
    if ((p.kind == PacketKind::ACK || p.kind == PacketKind::NACK) && port == m_longPort &&
        OnFarAck(p))
    {
        return;
    }
    FabricSwitch::Receive(port, p);
}

void
DciAccelerator::OnLocalData(uint32_t inPort, const RocePacket& p)
{
    Proxy& x = m_proxies[p.flow];
    uint32_t bytes = FrameBytes(p);
    if (p.psn >= x.pseudoAcked && m_heldBytes + bytes <= m_bufferBytes &&
        x.held.find(p.psn) == x.held.end())
    {
        RocePacket copy = p;
        copy.inPort = static_cast<uint16_t>(inPort);
        if (!x.HoldsPseudoAcked())
        {
            x.lastProgressPs = NowPs(); // the resend clock starts with the first answered frame
        }
        x.held.emplace(p.psn, copy);
        m_heldBytes += bytes;
        m_stats.maxHeldBytes = std::max(m_stats.maxHeldBytes, m_heldBytes);
        AnswerHeld(x, p);
    }
    else
    {
        ++m_stats.passedUnheld;
    }
    FabricSwitch::Receive(inPort, p);
}

bool
DciAccelerator::AnswerHeld(Proxy& x, const RocePacket& any)
{
    uint64_t from = x.pseudoAcked;
    for (auto it = x.held.find(x.pseudoAcked); it != x.held.end() && it->first == x.pseudoAcked;
         ++it)
    {
        ++x.pseudoAcked;
    }
    if (x.pseudoAcked == from)
    {
        return false;
    }
    ArmTimer(any.flow, x);
    SendPseudoAck(any, x.pseudoAcked);
    return true;
}

bool
DciAccelerator::OnFarAck(const RocePacket& p)
{
    auto it = m_proxies.find(p.flow);
    if (it == m_proxies.end())
    {
        return false; // a QP this edge never saw leave: not ours
    }
    Proxy& x = it->second;
    uint64_t psn = p.psn;
    ReleaseUpTo(x, psn);
    if (p.kind == PacketKind::NACK)
    {
        if (psn < x.pseudoAcked)
        {
            ++m_stats.absorbedAcks;
            ResendHeld(p.flow, x); // the sender believes it delivered: go back N from here
            return true;
        }
        // Unheld data was lost: the sender goes back N from psn and resends what is held
        // beyond it too, so those copies are dropped.
        x.pseudoAcked = psn;
        DropFrom(x, psn);
        return false;
    }
    if (psn > x.pseudoAcked)
    {
        // Covers frames passed unheld: the sender needs this ACK. Held frames that follow are
        // answered right after it (ACKs to the sender stay in PSN order).
        x.pseudoAcked = psn;
        FabricSwitch::Receive(m_longPort, p);
        AnswerHeld(x, p);
        return true;
    }
    if (p.ece)
    {
        return false; // carries a congestion flag: the sender ignores its stale PSN
    }
    ++m_stats.absorbedAcks;
    return true;
}

void
DciAccelerator::ReleaseUpTo(Proxy& x, uint64_t psn)
{
    bool progress = false;
    while (!x.held.empty() && x.held.begin()->first < psn)
    {
        m_heldBytes -= FrameBytes(x.held.begin()->second);
        x.held.erase(x.held.begin());
        progress = true;
    }
    if (psn > x.acked)
    {
        x.acked = psn;
    }
    if (progress)
    {
        x.lastProgressPs = NowPs();
    }
}

void
DciAccelerator::DropFrom(Proxy& x, uint64_t psn)
{
    for (auto it = x.held.lower_bound(psn); it != x.held.end();)
    {
        m_heldBytes -= FrameBytes(it->second);
        it = x.held.erase(it);
    }
}

void
DciAccelerator::ResendHeld(uint32_t flow, Proxy& x)
{
    FlowState& f = m_ctx->flows[flow];
    // Only the pseudo-ACKed frames are the accelerator's to resend; the rest are the sender's.
    // Copied first: forwarding may run a NIC's receive path, which never touches this proxy,
    // but the held frames must not be iterated while anything else could change them.
    std::vector<RocePacket> frames;
    for (auto it = x.held.begin(); it != x.held.end() && it->first < x.pseudoAcked; ++it)
    {
        frames.push_back(it->second);
    }
    for (const RocePacket& copy : frames)
    {
        f.bytesSent += copy.payload;
        f.bytesRetransmitted += copy.payload;
        ++m_stats.retransmitted;
        FabricSwitch::Receive(copy.inPort, copy);
    }
    x.lastProgressPs = NowPs();
}

void
DciAccelerator::SendPseudoAck(const RocePacket& data, uint64_t psn)
{
    const FlowState& f = m_ctx->flows[data.flow];
    RocePacket ack;
    ack.kind = PacketKind::ACK;
    ack.flow = data.flow;
    ack.src = data.dst;
    ack.dst = data.src;
    ack.psn = static_cast<uint32_t>(psn);
    ack.udpSrc = data.udpSrc;
    ack.priority = kControlPriority;
    uint32_t header = kDataOverheadBytes - kPreambleIfgBytes;
    uint32_t gap = kPreambleIfgBytes;
    if (m_ctx->scenario != nullptr && f.spec != nullptr &&
        f.spec->dst < m_ctx->scenario->nicCfg.size())
    {
        // Framed as the receiving NIC frames its own ACKs.
        const NicConfig& rx = m_ctx->scenario->nicCfg[f.spec->dst];
        header = rx.headerBytes;
        gap = rx.preambleIfgBytes;
    }
    ack.wire = header + gap + kAethBytes;
    ack.gap = static_cast<uint8_t>(gap);
    ++m_stats.pseudoAcks;
    FabricSwitch::Receive(m_longPort, ack); // control priority: straight to the egress queue
}

void
DciAccelerator::ArmTimer(uint32_t flow, Proxy& x)
{
    if (x.timerArmed || !x.HoldsPseudoAcked())
    {
        return;
    }
    x.timerArmed = true;
    int64_t delay = std::max<int64_t>(1, x.lastProgressPs + m_rtoPs - NowPs());
    ns3::Simulator::Schedule(ns3::PicoSeconds(delay), &DciAccelerator::CheckTimer, this, flow);
}

void
DciAccelerator::CheckTimer(uint32_t flow)
{
    Proxy& x = m_proxies[flow];
    x.timerArmed = false;
    if (!x.HoldsPseudoAcked())
    {
        return; // nothing the accelerator answers for; CoverHeldRun re-arms
    }
    if (NowPs() - x.lastProgressPs >= m_rtoPs)
    {
        ++m_stats.retransmitTimeouts;
        ResendHeld(flow, x);
    }
    ArmTimer(flow, x);
}

} // namespace fabric
