#include "headroom.h"

#include "common/wire.h"

#include <algorithm>
#include <cmath>

namespace fabric
{

uint64_t
AutoHeadroomBytes(double rateGbps, double delayUs, uint32_t mtuPayload, uint32_t cellBytes)
{
    double bytesPerUs = rateGbps * 1e3 / 8.0; // bytes per microsecond
    double cable = 2.0 * bytesPerUs * delayUs;
    double frames = 2.0 * (mtuPayload + kDataOverheadBytes);
    double response = bytesPerUs * 1.0;
    uint64_t total = static_cast<uint64_t>(std::ceil(cable + frames + response));
    uint32_t cell = std::max<uint32_t>(1, cellBytes);
    return (total + cell - 1) / cell * cell;
}

uint32_t
LargestHostMtu(const Topology& topo, const std::vector<NicConfig>& nicCfg)
{
    uint32_t mtu = 0;
    for (std::size_t i = 0; i < topo.nodes.size() && i < nicCfg.size(); ++i)
    {
        if (topo.nodes[i].isHost)
        {
            mtu = std::max(mtu, nicCfg[i].mtuBytes);
        }
    }
    return mtu;
}

std::vector<uint64_t>
SwitchPortHeadroom(const Topology& topo,
                   const SwitchConfig& cfg,
                   const std::vector<NicConfig>& nicCfg,
                   uint32_t node,
                   uint32_t largestHostMtu)
{
    std::vector<uint64_t> headroom;
    for (const LinkSpec& l : topo.links)
    {
        if ((l.a != node && l.b != node) || l.a == l.b)
        {
            continue;
        }
        uint32_t neighbor = l.a == node ? l.b : l.a;
        if (!cfg.pfc.enabled)
        {
            headroom.push_back(0);
            continue;
        }
        if (!cfg.pfc.headroomAuto)
        {
            headroom.push_back(cfg.pfc.headroomBytes);
            continue;
        }
        // The frame size that matters is the upstream neighbor's MTU when it is a host, else
        // the largest MTU of the hosts in the fabric.
        uint32_t mtu = largestHostMtu;
        if (neighbor < topo.nodes.size() && topo.nodes[neighbor].isHost && neighbor < nicCfg.size())
        {
            mtu = nicCfg[neighbor].mtuBytes;
        }
        headroom.push_back(AutoHeadroomBytes(l.rateGbps, l.delayUs, std::max<uint32_t>(mtu, 1),
                                             cfg.cellBytes));
    }
    return headroom;
}

} // namespace fabric
