#include "model/rc-transport.h"

#include "model/rdma-nic.h"

#include <algorithm>

namespace fabric
{

NS_OBJECT_ENSURE_REGISTERED(RcTransport);
NS_OBJECT_ENSURE_REGISTERED(XrcTransport);

ns3::TypeId
RcTransport::GetTypeId()
{
    static ns3::TypeId tid = ns3::TypeId("fabric::RcTransport")
                                 .SetParent<Transport>()
                                 .SetGroupName("Fabric")
                                 .AddConstructor<RcTransport>();
    return tid;
}

bool
RcTransport::CanSend(const FlowState& f) const
{
    return CanSendRc(f);
}

uint64_t
RcTransport::NextPsn(FlowState& f, int64_t now, bool& retransmit)
{
    uint64_t psn = f.sndNxt;
    retransmit = psn < f.maxSent;
    if (f.sndUna == f.sndNxt)
    {
        f.lastProgressPs = now; // the RTO clock starts with the first outstanding packet
    }
    ++f.sndNxt;
    f.maxSent = std::max(f.maxSent, f.sndNxt);
    return psn;
}

uint16_t
RcTransport::SourcePort(const FlowState& f, uint64_t /* psn */) const
{
    return f.spec->udpSrcPort;
}

void
RcTransport::OnData(FlowState& f, const RocePacket& p, int64_t now)
{
    if (p.psn == f.expected)
    {
        ++f.expected;
        f.nackSent = false;
        Deliver(f, p, p.payload, now);
        bool last = f.expected == f.rxEndPkt;
        if (++f.ackCounter >= m_nic->Config().ackIntervalPackets || last)
        {
            f.ackCounter = 0;
            SendAck(f, PacketKind::ACK, f.expected);
        }
    }
    else if (p.psn > f.expected)
    {
        if (m_nic->Config().nackEnabled && !f.nackSent)
        {
            f.nackSent = true;
            SendAck(f, PacketKind::NACK, f.expected);
        }
    }
    else
    {
        // A duplicate (after a timeout): re-acknowledge so the sender moves on.
        SendAck(f, PacketKind::ACK, f.expected);
    }
}

void
RcTransport::OnTrimmed(FlowState& f, const RocePacket& p, int64_t /* now */)
{
    // The gap is known at once: ask for everything from the first missing packet (go-back-N).
    if (p.psn >= f.expected && m_nic->Config().nackEnabled && !f.nackSent)
    {
        f.nackSent = true;
        SendAck(f, PacketKind::NACK, f.expected);
    }
}

bool
RcTransport::OnAck(FlowState& f, const RocePacket& p, bool nack, int64_t now)
{
    uint64_t acked = p.psn;
    if (acked > f.sndUna && acked <= f.maxSent)
    {
        f.sndUna = acked;
        f.lastProgressPs = now;
        if (f.sndNxt < f.sndUna)
        {
            f.sndNxt = f.sndUna;
        }
    }
    if (nack && acked < f.sndNxt && acked >= f.sndUna)
    {
        f.sndNxt = acked; // go back N
        f.lastProgressPs = now;
    }
    return f.sndUna >= f.totalPkts;
}

void
RcTransport::OnTimeout(FlowState& f, int64_t /* now */)
{
    ++f.timeouts;
    f.sndNxt = f.sndUna;
}

uint64_t
RcTransport::QpsPerNic(uint64_t hosts, uint64_t processes) const
{
    // Every process holds one QP to every process of every other host.
    return hosts > 0 ? (hosts - 1) * processes * processes : 0;
}

uint64_t
RcTransport::ContextKey(const FlowSpec& spec, uint32_t /* processes */) const
{
    return spec.id; // each flow is its own QP
}

std::string
RcTransport::GetName() const
{
    return "rc";
}

ns3::TypeId
XrcTransport::GetTypeId()
{
    static ns3::TypeId tid = ns3::TypeId("fabric::XrcTransport")
                                 .SetParent<RcTransport>()
                                 .SetGroupName("Fabric")
                                 .AddConstructor<XrcTransport>();
    return tid;
}

uint64_t
XrcTransport::QpsPerNic(uint64_t hosts, uint64_t processes) const
{
    // One XRC send QP per (process, destination host) and one receive context per process,
    // as the ERD paper counts it: N x p.
    return hosts * processes;
}

uint64_t
XrcTransport::ContextKey(const FlowSpec& spec, uint32_t processes) const
{
    // Flows of one sending process toward one host share the XRC send QP.
    uint64_t process = processes > 0 ? spec.srcProcess % processes : 0;
    return (static_cast<uint64_t>(spec.dst) << 20) | process;
}

std::string
XrcTransport::GetName() const
{
    return "xrc";
}

} // namespace fabric
