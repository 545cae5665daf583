/*
 * Topology generators: leaf_spine, fat_tree, three_tier, dci, rail_optimized, multi_plane and
 * explicit, each
 * expanded to
 * explicit nodes and links with the ids documented in docs/scenario-format.md.
 */
#ifndef FABRIC_TOPOLOGY_GENERATOR_H
#define FABRIC_TOPOLOGY_GENERATOR_H

#include "model/fabric-config.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>
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
    bool dciBufferAuto = false; ///< dci_buffer_bytes absent
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

/**
 * Reads scenario.topology (at path "topology"), checks limits before expanding, expands and
 * checks connectivity. Records the normalized fields in out when given.
 */
TopologyBuild BuildTopology(const nlohmann::json& value, nlohmann::ordered_json* out = nullptr);

/** Throws ScenarioError("topology", "disconnected ...") unless every node reaches node 0. */
void CheckConnected(const Topology& topo);

/** Neighbor node indices of every node (one entry per link end). */
std::vector<std::vector<uint32_t>> Adjacency(const Topology& topo);

/** For every node: the node a host hangs off (its first link's other end: a multi-plane host's
 *  plane-0 leaf); kNoNode else. */
std::vector<uint32_t> HostAttachments(const Topology& topo);

constexpr uint32_t kNoNode = 0xffffffffu;

/** Host node indices in node order. */
std::vector<uint32_t> HostIndices(const Topology& topo);

} // namespace fabric

#endif
