/*
 * The Pingmesh scope of a host pair (Guo et al. 2016, section 5.3: probes at ToR, podset and
 * data-centre level). Header-only: used by the pingmesh generator (scenario layer) and by the
 * result (model layer).
 */
#ifndef FABRIC_PINGMESH_SCOPE_H
#define FABRIC_PINGMESH_SCOPE_H

#include "model/fabric-config.h"

#include <string>
#include <vector>

namespace fabric
{

/**
 * "tor" (same ToR), "podset" (ToRs of the same podset or pod: same switch group; a leaf-spine
 * is one podset) or "fabric". attach[h]: the switch host h hangs off (0xffffffff if none).
 */
inline std::string
PingmeshScope(const Topology& topo, const std::vector<uint32_t>& attach, uint32_t a, uint32_t b)
{
    constexpr uint32_t kNone = 0xffffffffu;
    uint32_t ta = a < attach.size() ? attach[a] : kNone;
    uint32_t tb = b < attach.size() ? attach[b] : kNone;
    if (ta == tb)
    {
        return "tor";
    }
    if (ta != kNone && tb != kNone && topo.nodes[ta].group == topo.nodes[tb].group)
    {
        return "podset";
    }
    return "fabric";
}

} // namespace fabric

#endif
