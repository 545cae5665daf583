/*
 * Graph queries over an expanded topology: neighbours, the switch a host hangs off, the hosts in
 * node order. The traffic generators and monitors ask these; they read no JSON.
 */
#ifndef FABRIC_TOPOLOGY_QUERIES_H
#define FABRIC_TOPOLOGY_QUERIES_H

#include "model/fabric-config.h"

#include <cstdint>
#include <vector>

namespace fabric
{

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
