/*
 * How a switch picks among equal-cost next hops (switch.load_balancing), swappable by TypeId.
 * "ecmp" (the 5-tuple hash, one path per QP) is the switch's own inline path and needs no
 * object; the policies here decide per packet: "per_packet" sprays round robin, "adaptive"
 * takes the next hop whose egress queue holds the fewest bytes (Spectrum-X-style adaptive
 * routing), ties going to the hash's choice so an idle fabric routes as ECMP does.
 */
#ifndef FABRIC_LOAD_BALANCER_H
#define FABRIC_LOAD_BALANCER_H

#include "model/roce-packet.h"

#include "ns3/object.h"

#include <cstdint>
#include <string>
#include <vector>

namespace fabric
{

class FabricSwitch;

class LoadBalancer : public ns3::Object
{
  public:
    static ns3::TypeId GetTypeId();
    /** "per_packet" or "adaptive" to a TypeId name ("ecmp" has none: the switch hashes). */
    static std::string TypeIdNameFor(const std::string& policy);

    /** Sizes per-destination state: routes toward `attachments` host attachment points. */
    virtual void Init(uint32_t attachments);
    /**
     * Picks one of the n next-hop ports for p (n >= 2) toward attachment point attach;
     * hashIndex: the index ECMP would take.
     */
    virtual uint32_t Choose(const FabricSwitch& sw, const RocePacket& p, const uint16_t* ports,
                            uint32_t n, uint32_t attach, uint32_t hashIndex) = 0;
};

class PerPacketBalancer : public LoadBalancer
{
  public:
    static ns3::TypeId GetTypeId();
    void Init(uint32_t attachments) override;
    uint32_t Choose(const FabricSwitch& sw, const RocePacket& p, const uint16_t* ports,
                    uint32_t n, uint32_t attach, uint32_t hashIndex) override;

  private:
    std::vector<uint32_t> m_next; ///< per attachment: the next hop index the next packet takes
};

class AdaptiveBalancer : public LoadBalancer
{
  public:
    static ns3::TypeId GetTypeId();
    uint32_t Choose(const FabricSwitch& sw, const RocePacket& p, const uint16_t* ports,
                    uint32_t n, uint32_t attach, uint32_t hashIndex) override;
};

} // namespace fabric

#endif
