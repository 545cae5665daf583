#include "topology-queries.h"

namespace fabric
{

std::vector<std::vector<uint32_t>>
Adjacency(const Topology& topo)
{
    std::vector<std::vector<uint32_t>> adj(topo.nodes.size());
    for (const auto& l : topo.links)
    {
        adj[l.a].push_back(l.b);
        adj[l.b].push_back(l.a);
    }
    return adj;
}

std::vector<uint32_t>
HostAttachments(const Topology& topo)
{
    std::vector<uint32_t> att(topo.nodes.size(), kNoNode);
    for (const auto& l : topo.links)
    {
        // A multi-plane host has a link per plane: it hangs off its first (plane 0's leaf).
        if (topo.nodes[l.a].isHost && att[l.a] == kNoNode)
        {
            att[l.a] = l.b;
        }
        if (topo.nodes[l.b].isHost && att[l.b] == kNoNode)
        {
            att[l.b] = l.a;
        }
    }
    return att;
}

std::vector<uint32_t>
HostIndices(const Topology& topo)
{
    std::vector<uint32_t> hosts;
    for (std::size_t i = 0; i < topo.nodes.size(); ++i)
    {
        if (topo.nodes[i].isHost)
        {
            hosts.push_back(static_cast<uint32_t>(i));
        }
    }
    return hosts;
}

} // namespace fabric
