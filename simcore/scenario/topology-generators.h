/*
 * Topology generators: leaf_spine, fat_tree, three_tier, dci, rail_optimized and multi_plane, each
 * expanded from its parameters to explicit nodes and links with the ids documented in
 * docs/scenario-format.md. No JSON here: topology-reader.h reads the parameters.
 */
#ifndef FABRIC_TOPOLOGY_GENERATORS_H
#define FABRIC_TOPOLOGY_GENERATORS_H

#include "model/fabric-config.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace fabric
{

struct LeafSpineParams
{
    int64_t leaves = 2;
    int64_t spines = 2;
    int64_t hostsPerLeaf = 2;
    double hostRateGbps = 100;
    double fabricRateGbps = 100;
    double linkDelayUs = 1;
};

struct FatTreeParams
{
    int64_t k = 4;
    double hostRateGbps = 100;
    double fabricRateGbps = 100;
    double linkDelayUs = 1;
};

struct ThreeTierParams
{
    int64_t podsets = 2;
    int64_t torsPerPodset = 4;
    int64_t leafsPerPodset = 2;
    int64_t spines = 4;
    int64_t hostsPerTor = 4;
    double hostRateGbps = 100;
    double torUplinkGbps = 100;
    double leafUplinkGbps = 100;
    double linkDelayUs = 1;
};

struct DciParams
{
    LeafSpineParams site;
    double lengthKm = 100;
    double dciRateGbps = 100;
    uint64_t dciBufferBytes = 64000000;
    bool dciBufferAuto = false;       ///< dci_buffer_bytes absent
    DciAcceleratorConfig accelerator; ///< edges filled in by GenerateDci
};

/** rail_optimized: scalable units of servers, one leaf per rail per unit, spines across leaves. */
struct RailOptimizedParams
{
    int64_t units = 2;
    int64_t serversPerUnit = 4;
    int64_t nicsPerServer = 8;
    int64_t spines = 4;
    double hostRateGbps = 400;
    double fabricRateGbps = 400;
    double linkDelayUs = 1;
    double nvlinkGbps = 3600; ///< a documented cost reported by expand, not a link
};

/** A generated topology plus the per-node switch buffers the generator itself sets. */
struct TopologyBuild
{
    Topology topo;
    std::vector<std::pair<uint32_t, uint64_t>> bufferBytes; ///< (node index, buffer) for DCI edges
    /// dci without dci_buffer_bytes: an edge whose long link needs more PFC headroom than the
    /// 64 MB default leaves room for gets headroom + kDciAutoPoolBytes (SizeDciEdgeBuffers)
    bool dciBufferAuto = false;
    DciAcceleratorConfig dciAccelerator; ///< dci only (disabled elsewhere)
};

/** The shared pool an automatically sized DCI edge buffer keeps beside its headroom. */
constexpr uint64_t kDciAutoPoolBytes = 12000000;

Topology GenerateLeafSpine(const LeafSpineParams& p);
Topology GenerateFatTree(const FatTreeParams& p);
Topology GenerateThreeTier(const ThreeTierParams& p);
TopologyBuild GenerateDci(const DciParams& p);
Topology GenerateRailOptimized(const RailOptimizedParams& p);
/** multi_plane: the rail-optimized fabric p once per plane, every host with a port per plane. */
Topology GenerateMultiPlane(const RailOptimizedParams& p, int64_t planes);

/** Appends nodes and links, keeping the id -> index map (the generators and the explicit
 *  reader both build with it). */
class TopologyBuilder
{
  public:
    uint32_t AddNode(const std::string& id, bool isHost, int tier, const std::string& group)
    {
        NodeSpec n;
        n.id = id;
        n.isHost = isHost;
        n.tier = tier;
        n.group = group;
        uint32_t index = static_cast<uint32_t>(m_topo.nodes.size());
        m_topo.nodes.push_back(n);
        m_topo.index[id] = index;
        return index;
    }

    void AddLink(uint32_t a, uint32_t b, double rateGbps, double delayUs)
    {
        LinkSpec l;
        l.id = static_cast<uint32_t>(m_topo.links.size());
        l.a = a;
        l.b = b;
        l.rateGbps = rateGbps;
        l.delayUs = delayUs;
        m_topo.links.push_back(l);
    }

    Topology& Topo() { return m_topo; }

    void CountStats()
    {
        double hosts = 0;
        for (const auto& n : m_topo.nodes)
        {
            hosts += n.isHost ? 1 : 0;
        }
        m_topo.stats["hosts"] = hosts;
        m_topo.stats["switches"] = static_cast<double>(m_topo.nodes.size()) - hosts;
        m_topo.stats["links"] = static_cast<double>(m_topo.links.size());
    }

  private:
    Topology m_topo;
};

} // namespace fabric

#endif
