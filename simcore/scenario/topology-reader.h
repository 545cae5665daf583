/*
 * Reading scenario.topology: every kind's fields with their ranges and defaults (the contract),
 * the node and link limits checked before expanding, the explicit kind's nodes and links, and
 * connectivity. The generators (topology-generators.h) do the expanding.
 */
#ifndef FABRIC_TOPOLOGY_READER_H
#define FABRIC_TOPOLOGY_READER_H

#include "topology-generators.h"

#include <nlohmann/json.hpp>

namespace fabric
{

/**
 * Reads scenario.topology (at path "topology"), checks limits before expanding, expands and
 * checks connectivity. Records the normalized fields in out when given.
 */
TopologyBuild BuildTopology(const nlohmann::json& value, nlohmann::ordered_json* out = nullptr);

/** Throws ScenarioError("topology", "disconnected ...") unless every node reaches node 0. */
void CheckConnected(const Topology& topo);

} // namespace fabric

#endif
