/*
 * The `collective` traffic generator (docs/scenario-format.md): a job's collective operation
 * (collective-plan.h) over its ranks, as flows that wait for flows. A step between two GPUs of
 * one server is an NVLink transfer (FlowSpec::local), not a network flow. Jobs given a number
 * of servers instead of hosts are placed on free servers (packed, spread, random).
 */
#ifndef FABRIC_COLLECTIVE_GENERATOR_H
#define FABRIC_COLLECTIVE_GENERATOR_H

#include "generator-context.h"

#include <cstdint>
#include <string>
#include <vector>

namespace fabric
{

/** The fabric's servers and which placed jobs took them (shared by the traffic list). */
struct ServerPool
{
    bool built = false;
    std::vector<std::vector<uint32_t>> hosts; ///< per server, its hosts in node order
    std::vector<std::string> pod;             ///< per server: its first host's pod (HostPods)
    std::vector<bool> taken;
};

/** Reads the collective generator behind g and adds its flows, dependencies and job. */
void GenerateCollective(GeneratorContext& g, ServerPool& pool);

} // namespace fabric

#endif
