#include "model/congestion-ops.h"

namespace fabric
{

NS_OBJECT_ENSURE_REGISTERED(CongestionOps);
NS_OBJECT_ENSURE_REGISTERED(NoCongestionControl);

ns3::TypeId
CongestionOps::GetTypeId()
{
    static ns3::TypeId tid =
        ns3::TypeId("fabric::CongestionOps").SetParent<ns3::Object>().SetGroupName("Fabric");
    return tid;
}

std::string
CongestionOps::TypeIdNameFor(const std::string& algorithm)
{
    if (algorithm == "none")
    {
        return "fabric::NoCongestionControl";
    }
    if (algorithm == "dcqcn_sampled")
    {
        return "fabric::DcqcnSampled";
    }
    return "fabric::Dcqcn";
}

ns3::TypeId
NoCongestionControl::GetTypeId()
{
    static ns3::TypeId tid = ns3::TypeId("fabric::NoCongestionControl")
                                 .SetParent<CongestionOps>()
                                 .SetGroupName("Fabric")
                                 .AddConstructor<NoCongestionControl>();
    return tid;
}

void
NoCongestionControl::Init(double lineRateBps)
{
    m_lineRate = lineRateBps;
}

double
NoCongestionControl::GetRateBps() const
{
    return m_lineRate;
}

void
NoCongestionControl::OnCnp()
{
}

void
NoCongestionControl::OnBytesSent(uint32_t bytes)
{
}

void
NoCongestionControl::Stop()
{
}

std::string
NoCongestionControl::GetName() const
{
    return "none";
}

} // namespace fabric
