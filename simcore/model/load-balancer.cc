#include "model/load-balancer.h"

#include "model/fabric-switch.h"

namespace fabric
{

NS_OBJECT_ENSURE_REGISTERED(LoadBalancer);
NS_OBJECT_ENSURE_REGISTERED(PerPacketBalancer);
NS_OBJECT_ENSURE_REGISTERED(AdaptiveBalancer);

ns3::TypeId
LoadBalancer::GetTypeId()
{
    static ns3::TypeId tid =
        ns3::TypeId("fabric::LoadBalancer").SetParent<ns3::Object>().SetGroupName("Fabric");
    return tid;
}

std::string
LoadBalancer::TypeIdNameFor(const std::string& policy)
{
    return policy == "adaptive" ? "fabric::AdaptiveBalancer" : "fabric::PerPacketBalancer";
}

void
LoadBalancer::Init(uint32_t /* attachments */)
{
}

ns3::TypeId
PerPacketBalancer::GetTypeId()
{
    static ns3::TypeId tid = ns3::TypeId("fabric::PerPacketBalancer")
                                 .SetParent<LoadBalancer>()
                                 .SetGroupName("Fabric")
                                 .AddConstructor<PerPacketBalancer>();
    return tid;
}

void
PerPacketBalancer::Init(uint32_t attachments)
{
    m_next.assign(attachments, 0);
}

uint32_t
PerPacketBalancer::Choose(const FabricSwitch& /* sw */, const RocePacket& /* p */,
                          const uint16_t* ports, uint32_t n, uint32_t attach,
                          uint32_t /* hashIndex */)
{
    // One counter per destination: consecutive packets toward it, of one QP or of many,
    // take the next hops in turn, so each gets 1/n of them.
    uint32_t& next = m_next[attach];
    uint32_t port = ports[next % n];
    next = (next + 1) % n;
    return port;
}

ns3::TypeId
AdaptiveBalancer::GetTypeId()
{
    static ns3::TypeId tid = ns3::TypeId("fabric::AdaptiveBalancer")
                                 .SetParent<LoadBalancer>()
                                 .SetGroupName("Fabric")
                                 .AddConstructor<AdaptiveBalancer>();
    return tid;
}

uint32_t
AdaptiveBalancer::Choose(const FabricSwitch& sw, const RocePacket& p, const uint16_t* ports,
                         uint32_t n, uint32_t /* attach */, uint32_t hashIndex)
{
    // Scan from the hash's choice; only a strictly shorter queue wins, so ties keep ECMP's path.
    uint32_t best = ports[hashIndex];
    uint64_t bestBytes = sw.QueueBytes(best, p.priority);
    for (uint32_t i = 1; i < n && bestBytes > 0; ++i)
    {
        uint32_t port = ports[(hashIndex + i) % n];
        uint64_t bytes = sw.QueueBytes(port, p.priority);
        if (bytes < bestBytes)
        {
            best = port;
            bestBytes = bytes;
        }
    }
    return best;
}

} // namespace fabric
