#include "topology-generators.h"

#include "scenario-contract.h"

#include <algorithm>

namespace fabric
{

namespace
{

/** Adds one leaf-spine; returns the spine node indices. */
std::vector<uint32_t>
AddLeafSpine(TopologyBuilder& b,
             const LeafSpineParams& p,
             const std::string& prefix,
             const std::string& group)
{
    std::vector<uint32_t> hosts;
    std::vector<uint32_t> leaves;
    std::vector<uint32_t> spines;
    for (int64_t i = 0; i < p.leaves * p.hostsPerLeaf; ++i)
    {
        std::string leafId = prefix + "leaf" + std::to_string(i / p.hostsPerLeaf);
        hosts.push_back(b.AddNode(prefix + "h" + std::to_string(i), true, 0, leafId));
    }
    for (int64_t i = 0; i < p.leaves; ++i)
    {
        leaves.push_back(b.AddNode(prefix + "leaf" + std::to_string(i), false, 1, group));
    }
    for (int64_t j = 0; j < p.spines; ++j)
    {
        spines.push_back(b.AddNode(prefix + "spine" + std::to_string(j), false, 2, group));
    }
    for (std::size_t i = 0; i < hosts.size(); ++i)
    {
        b.AddLink(hosts[i], leaves[i / p.hostsPerLeaf], p.hostRateGbps, p.linkDelayUs);
    }
    for (uint32_t leaf : leaves)
    {
        for (uint32_t spine : spines)
        {
            b.AddLink(leaf, spine, p.fabricRateGbps, p.linkDelayUs);
        }
    }
    return spines;
}

double
LeafSpineOversubscription(const LeafSpineParams& p)
{
    return static_cast<double>(p.hostsPerLeaf) * p.hostRateGbps /
           (static_cast<double>(p.spines) * p.fabricRateGbps);
}

} // namespace

Topology
GenerateLeafSpine(const LeafSpineParams& p)
{
    TopologyBuilder b;
    AddLeafSpine(b, p, "", "");
    b.CountStats();
    b.Topo().stats["oversubscription"] = LeafSpineOversubscription(p);
    return b.Topo();
}

Topology
GenerateFatTree(const FatTreeParams& p)
{
    TopologyBuilder b;
    int64_t k = p.k;
    int64_t half = k / 2;
    std::vector<uint32_t> hosts;
    std::vector<uint32_t> edges;
    std::vector<uint32_t> aggs;
    std::vector<uint32_t> cores;
    for (int64_t i = 0; i < k * k * k / 4; ++i)
    {
        int64_t edge = i / half;
        std::string edgeId =
            "edge" + std::to_string(edge / half) + "_" + std::to_string(edge % half);
        hosts.push_back(b.AddNode("h" + std::to_string(i), true, 0, edgeId));
    }
    for (int64_t pod = 0; pod < k; ++pod)
    {
        for (int64_t i = 0; i < half; ++i)
        {
            edges.push_back(b.AddNode("edge" + std::to_string(pod) + "_" + std::to_string(i), false,
                                      1, "pod" + std::to_string(pod)));
        }
    }
    for (int64_t pod = 0; pod < k; ++pod)
    {
        for (int64_t i = 0; i < half; ++i)
        {
            aggs.push_back(b.AddNode("agg" + std::to_string(pod) + "_" + std::to_string(i), false,
                                     2, "pod" + std::to_string(pod)));
        }
    }
    for (int64_t i = 0; i < half * half; ++i)
    {
        cores.push_back(b.AddNode("core" + std::to_string(i), false, 3, "core"));
    }
    for (std::size_t i = 0; i < hosts.size(); ++i)
    {
        b.AddLink(hosts[i], edges[i / half], p.hostRateGbps, p.linkDelayUs);
    }
    for (int64_t pod = 0; pod < k; ++pod)
    {
        for (int64_t e = 0; e < half; ++e)
        {
            for (int64_t a = 0; a < half; ++a)
            {
                b.AddLink(edges[pod * half + e], aggs[pod * half + a], p.fabricRateGbps,
                          p.linkDelayUs);
            }
        }
    }
    for (int64_t pod = 0; pod < k; ++pod)
    {
        for (int64_t a = 0; a < half; ++a)
        {
            for (int64_t c = 0; c < half; ++c)
            {
                b.AddLink(aggs[pod * half + a], cores[a * half + c], p.fabricRateGbps,
                          p.linkDelayUs);
            }
        }
    }
    b.CountStats();
    b.Topo().stats["oversubscription"] = p.hostRateGbps / p.fabricRateGbps;
    return b.Topo();
}

Topology
GenerateThreeTier(const ThreeTierParams& p)
{
    TopologyBuilder b;
    int64_t perPlane = p.spines / p.leafsPerPodset;
    std::vector<uint32_t> tors;
    std::vector<uint32_t> leafs;
    std::vector<uint32_t> spines;
    std::vector<uint32_t> hosts;
    for (int64_t i = 0; i < p.podsets * p.torsPerPodset * p.hostsPerTor; ++i)
    {
        int64_t tor = i / p.hostsPerTor;
        std::string torId = "tor" + std::to_string(tor / p.torsPerPodset) + "_" +
                            std::to_string(tor % p.torsPerPodset);
        hosts.push_back(b.AddNode("h" + std::to_string(i), true, 0, torId));
    }
    for (int64_t ps = 0; ps < p.podsets; ++ps)
    {
        for (int64_t i = 0; i < p.torsPerPodset; ++i)
        {
            tors.push_back(b.AddNode("tor" + std::to_string(ps) + "_" + std::to_string(i), false, 1,
                                     "podset" + std::to_string(ps)));
        }
    }
    for (int64_t ps = 0; ps < p.podsets; ++ps)
    {
        for (int64_t j = 0; j < p.leafsPerPodset; ++j)
        {
            leafs.push_back(b.AddNode("leaf" + std::to_string(ps) + "_" + std::to_string(j), false,
                                      2, "podset" + std::to_string(ps)));
        }
    }
    for (int64_t s = 0; s < p.spines; ++s)
    {
        spines.push_back(b.AddNode("spine" + std::to_string(s), false, 3,
                                   "plane" + std::to_string(s / perPlane)));
    }
    for (std::size_t i = 0; i < hosts.size(); ++i)
    {
        b.AddLink(hosts[i], tors[i / p.hostsPerTor], p.hostRateGbps, p.linkDelayUs);
    }
    for (int64_t ps = 0; ps < p.podsets; ++ps)
    {
        for (int64_t t = 0; t < p.torsPerPodset; ++t)
        {
            for (int64_t j = 0; j < p.leafsPerPodset; ++j)
            {
                b.AddLink(tors[ps * p.torsPerPodset + t], leafs[ps * p.leafsPerPodset + j],
                          p.torUplinkGbps, p.linkDelayUs);
            }
        }
    }
    for (int64_t ps = 0; ps < p.podsets; ++ps)
    {
        for (int64_t j = 0; j < p.leafsPerPodset; ++j)
        {
            for (int64_t s = 0; s < perPlane; ++s)
            {
                b.AddLink(leafs[ps * p.leafsPerPodset + j], spines[j * perPlane + s],
                          p.leafUplinkGbps, p.linkDelayUs);
            }
        }
    }
    b.CountStats();
    double torOver = static_cast<double>(p.hostsPerTor) * p.hostRateGbps /
                     (static_cast<double>(p.leafsPerPodset) * p.torUplinkGbps);
    double leafOver = static_cast<double>(p.torsPerPodset) * p.torUplinkGbps /
                      (static_cast<double>(perPlane) * p.leafUplinkGbps);
    b.Topo().stats["tor_oversubscription"] = torOver;
    b.Topo().stats["leaf_oversubscription"] = leafOver;
    b.Topo().stats["oversubscription"] = torOver * leafOver;
    return b.Topo();
}

TopologyBuild
GenerateDci(const DciParams& p)
{
    TopologyBuilder b;
    TopologyBuild build;
    std::vector<uint32_t> edges;
    for (const char* site : {"a", "b"})
    {
        std::string prefix = std::string(site) + "-";
        std::vector<uint32_t> spines = AddLeafSpine(b, p.site, prefix, site);
        uint32_t edge = b.AddNode(prefix + "dci", false, 4, site);
        for (uint32_t spine : spines)
        {
            b.AddLink(spine, edge, p.site.fabricRateGbps, p.site.linkDelayUs);
        }
        edges.push_back(edge);
        build.bufferBytes.emplace_back(edge, p.dciBufferBytes);
    }
    double delayUs = p.lengthKm * kFibreUsPerKm;
    b.AddLink(edges[0], edges[1], p.dciRateGbps, delayUs);
    build.dciAccelerator = p.accelerator;
    build.dciAccelerator.edges = {edges[0], edges[1]};
    build.dciBufferAuto = p.dciBufferAuto;
    b.CountStats();
    b.Topo().stats["oversubscription"] = LeafSpineOversubscription(p.site);
    b.Topo().stats["length_km"] = p.lengthKm;
    b.Topo().stats["long_haul_delay_us"] = delayUs;
    build.topo = b.Topo();
    return build;
}

namespace
{

/**
 * rail_optimized (planes 0: no prefix) and multi_plane (planes >= 1: every host has one port
 * per plane, plane k a rail-optimized leaf-spine of its own, ids prefixed "p{k}-"). Nodes: hosts,
 * then the leaves plane by plane, then the spines plane by plane; links: plane by plane, the
 * host links first, so a host's k-th link (its NIC's port k) is on plane k.
 */
Topology
GenerateRailPlanes(const RailOptimizedParams& p, int64_t planes)
{
    TopologyBuilder b;
    const bool multi = planes > 0;
    planes = std::max<int64_t>(planes, 1);
    const int64_t servers = p.units * p.serversPerUnit;
    std::vector<uint32_t> hosts;
    std::vector<uint32_t> leaves; ///< plane x unit x rail
    std::vector<uint32_t> spines; ///< plane x spine
    auto prefix = [multi](int64_t plane)
    {
        return multi ? "p" + std::to_string(plane) + "-" : std::string();
    };
    auto leafId = [&prefix](int64_t plane, int64_t unit, int64_t rail)
    {
        return prefix(plane) + "leaf" + std::to_string(unit) + "_" + std::to_string(rail);
    };
    for (int64_t s = 0; s < servers; ++s)
    {
        for (int64_t rail = 0; rail < p.nicsPerServer; ++rail)
        {
            int64_t i = s * p.nicsPerServer + rail;
            uint32_t h =
                b.AddNode("h" + std::to_string(i), true, 0, leafId(0, s / p.serversPerUnit, rail));
            b.Topo().nodes[h].server = "srv" + std::to_string(s);
            b.Topo().nodes[h].rail = static_cast<int>(rail);
            hosts.push_back(h);
        }
    }
    for (int64_t k = 0; k < planes; ++k)
    {
        for (int64_t u = 0; u < p.units; ++u)
        {
            for (int64_t rail = 0; rail < p.nicsPerServer; ++rail)
            {
                leaves.push_back(b.AddNode(leafId(k, u, rail), false, 1, "su" + std::to_string(u)));
            }
        }
    }
    for (int64_t k = 0; k < planes; ++k)
    {
        for (int64_t j = 0; j < p.spines; ++j)
        {
            spines.push_back(
                b.AddNode(prefix(k) + "spine" + std::to_string(j), false, 2, prefix(k) + "spines"));
        }
    }
    const std::size_t leavesPerPlane = static_cast<std::size_t>(p.units * p.nicsPerServer);
    for (int64_t k = 0; k < planes; ++k)
    {
        const uint32_t* planeLeaves = &leaves[static_cast<std::size_t>(k) * leavesPerPlane];
        for (std::size_t i = 0; i < hosts.size(); ++i)
        {
            int64_t s = static_cast<int64_t>(i) / p.nicsPerServer;
            int64_t rail = static_cast<int64_t>(i) % p.nicsPerServer;
            b.AddLink(hosts[i], planeLeaves[(s / p.serversPerUnit) * p.nicsPerServer + rail],
                      p.hostRateGbps, p.linkDelayUs);
        }
        for (std::size_t l = 0; l < leavesPerPlane; ++l)
        {
            for (int64_t j = 0; j < p.spines; ++j)
            {
                b.AddLink(planeLeaves[l], spines[static_cast<std::size_t>(k * p.spines + j)],
                          p.fabricRateGbps, p.linkDelayUs);
            }
        }
    }
    b.CountStats();
    Topology& t = b.Topo();
    t.stats["servers"] = static_cast<double>(servers);
    t.stats["rails"] = static_cast<double>(p.nicsPerServer);
    t.stats["oversubscription"] = static_cast<double>(p.serversPerUnit) * p.hostRateGbps /
                                  (static_cast<double>(p.spines) * p.fabricRateGbps);
    t.stats["nvlink_gbps"] = p.nvlinkGbps;
    if (multi)
    {
        t.stats["planes"] = static_cast<double>(planes);
        t.stats["nic_rate_gbps"] = static_cast<double>(planes) * p.hostRateGbps;
    }
    return t;
}

} // namespace

Topology
GenerateRailOptimized(const RailOptimizedParams& p)
{
    return GenerateRailPlanes(p, 0);
}

Topology
GenerateMultiPlane(const RailOptimizedParams& p, int64_t planes)
{
    return GenerateRailPlanes(p, planes);
}

} // namespace fabric
