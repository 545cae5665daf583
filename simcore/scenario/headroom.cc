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

namespace
{
/** One link's headroom at node's port (the body of both SwitchPortHeadroom forms). */
uint64_t
LinkHeadroom(const Topology& topo,
             const SwitchConfig& cfg,
             const std::vector<NicConfig>& nicCfg,
             uint32_t node,
             uint32_t largestHostMtu,
             const LinkSpec& l)
{
    uint32_t neighbor = l.a == node ? l.b : l.a;
    if (!cfg.pfc.enabled)
    {
        return 0;
    }
    if (!cfg.pfc.headroomAuto)
    {
        return cfg.pfc.headroomBytes;
    }
    // The frame size that matters is the upstream neighbor's MTU when it is a host, else
    // the largest MTU of the hosts in the fabric.
    uint32_t mtu = largestHostMtu;
    if (neighbor < topo.nodes.size() && topo.nodes[neighbor].isHost && neighbor < nicCfg.size())
    {
        mtu = nicCfg[neighbor].mtuBytes;
    }
    return AutoHeadroomBytes(l.rateGbps, l.delayUs, std::max<uint32_t>(mtu, 1), cfg.cellBytes);
}
} // namespace

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
        headroom.push_back(LinkHeadroom(topo, cfg, nicCfg, node, largestHostMtu, l));
    }
    return headroom;
}

std::vector<uint64_t>
SwitchPortHeadroom(const Topology& topo,
                   const SwitchConfig& cfg,
                   const std::vector<NicConfig>& nicCfg,
                   uint32_t node,
                   uint32_t largestHostMtu,
                   const std::vector<uint32_t>& nodeLinks)
{
    std::vector<uint64_t> headroom;
    headroom.reserve(nodeLinks.size());
    for (uint32_t i : nodeLinks)
    {
        headroom.push_back(LinkHeadroom(topo, cfg, nicCfg, node, largestHostMtu, topo.links[i]));
    }
    return headroom;
}

std::vector<std::vector<uint32_t>>
LinksByNode(const Topology& topo)
{
    std::vector<std::vector<uint32_t>> out(topo.nodes.size());
    for (uint32_t i = 0; i < topo.links.size(); ++i)
    {
        const LinkSpec& l = topo.links[i];
        if (l.a == l.b)
        {
            continue;
        }
        if (l.a < out.size())
        {
            out[l.a].push_back(i);
        }
        if (l.b < out.size())
        {
            out[l.b].push_back(i);
        }
    }
    return out;
}

} // namespace fabric
