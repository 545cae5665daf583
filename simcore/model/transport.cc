#include "model/transport.h"

#include "model/rdma-nic.h"

#include <algorithm>

namespace fabric
{

NS_OBJECT_ENSURE_REGISTERED(Transport);

ns3::TypeId
Transport::GetTypeId()
{
    static ns3::TypeId tid =
        ns3::TypeId("fabric::Transport").SetParent<ns3::Object>().SetGroupName("Fabric");
    return tid;
}

std::string
Transport::TypeIdNameFor(const std::string& transport)
{
    if (transport == "xrc")
    {
        return "fabric::XrcTransport";
    }
    if (transport == "sprayed")
    {
        return "fabric::SprayedTransport";
    }
    if (transport == "erd")
    {
        return "fabric::ErdTransport";
    }
    return "fabric::RcTransport";
}

void
Transport::Attach(RdmaNic* nic, FabricContext* ctx)
{
    m_nic = nic;
    m_ctx = ctx;
}

void
Transport::OnRetire(uint32_t /* flow */)
{
}

void
Transport::OnTrimmed(FlowState& /* f */, const RocePacket& /* p */, int64_t /* now */)
{
}

uint32_t
Transport::ExtraHeaderBytes() const
{
    return 0;
}

void
Transport::DoDispose()
{
    m_nic = nullptr;
    m_ctx = nullptr;
    ns3::Object::DoDispose();
}

void
Transport::Deliver(FlowState& f, const RocePacket& p, uint32_t payload, int64_t now)
{
    f.bytesDelivered += payload;
    uint32_t node = m_nic->GetNode();
    if (now >= m_ctx->warmupPs && node < m_ctx->hostRxBytes.size())
    {
        // The frame that completes delivery is the one whose tail may straddle the warm-up.
        RocePacket part = p;
        part.payload = payload;
        uint64_t inWindow = m_nic->PayloadInWindow(part, now);
        m_ctx->hostRxBytes[node] += inWindow;
        f.bytesDeliveredInWindow += inWindow;
    }
    if (f.expected == f.rxMarkPkt)
    {
        ReachedMark(f, now);
    }
}

void
Transport::ReachedMark(FlowState& f, int64_t now)
{
    if (f.msgCount > 0)
    {
        // A connection: every message whose last packet is now delivered completes at this
        // receiver (its transfer's dependents and the job's results see it).
        while (f.msgDone < f.msgCount && f.msgEndPkt[f.msgDone] <= f.expected)
        {
            m_nic->m_messageTrace(f.msgFirst + f.msgDone);
            ++f.msgDone;
        }
        f.rxMarkPkt = f.msgDone < f.msgCount ? f.msgEndPkt[f.msgDone] : kUnboundedPackets;
        if (f.msgDone < f.msgCount)
        {
            return;
        }
    }
    if (f.completePs < 0)
    {
        f.completePs = now;
        m_nic->m_completeTrace(f.spec->id);
    }
}

uint32_t
FlowState::PayloadNearEnd(uint64_t psn) const
{
    if (msgCount == 0)
    {
        return (totalPkts != kUnboundedPackets && psn + 1 == totalPkts) ? lastPayload : mtu;
    }
    const uint64_t* end = msgEndPkt + msgCount;
    const uint64_t* m = std::upper_bound(msgEndPkt, end, psn);
    return m != end && *m == psn + 1 ? msgLastPayload[m - msgEndPkt] : mtu;
}

uint64_t
FlowState::MessageEndAfter(uint64_t psn) const
{
    if (msgCount == 0)
    {
        return totalPkts;
    }
    const uint64_t* end = msgEndPkt + msgCount;
    const uint64_t* m = std::upper_bound(msgEndPkt, end, psn);
    return m != end ? *m : rxEndPkt;
}

void
Transport::SendAck(FlowState& f, PacketKind kind, uint64_t cumulative, uint32_t sack)
{
    m_nic->SendControl(f, kind, static_cast<uint32_t>(cumulative), sack);
}

} // namespace fabric
