#include "model/transport.h"

#include "model/rdma-nic.h"

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
    if (f.expected == f.totalPkts && f.completePs < 0)
    {
        f.completePs = now;
        m_nic->m_completeTrace(f.spec->id);
    }
}

void
Transport::SendAck(FlowState& f, PacketKind kind, uint64_t cumulative, uint32_t sack)
{
    m_nic->SendControl(f, kind, static_cast<uint32_t>(cumulative), sack);
}

} // namespace fabric
