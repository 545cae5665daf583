/*
 * The `collective` traffic generator (docs/scenario-format.md): a job's collective operation
 * (collective-plan.h) over its ranks, as flows that wait for flows. A step between two GPUs of
 * one server is an NVLink transfer (FlowSpec::local), not a network flow. Jobs given a number
 * of servers instead of hosts are placed on free servers (packed, spread, random).
 */
#ifndef FABRIC_COLLECTIVE_GENERATOR_H
#define FABRIC_COLLECTIVE_GENERATOR_H

#include "collective-plan.h"
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

/** Fills the pool from the topology's servers (once). */
void BuildPool(const Topology& topo, ServerPool& pool);

/** The server index of every host (pool order). */
std::vector<uint32_t> ServerIndex(const Topology& topo, const ServerPool& pool);

/** Picks `count` free servers by the placement rule and marks them taken; ascending order. */
std::vector<uint32_t> Place(GeneratorContext& g, ServerPool& pool, uint64_t count,
                            const std::string& placement);

/**
 * A job's ranks (host node indices in rank order) from `hosts`, or `servers` + `placement`;
 * `what` ("a collective") and minRanks for the message when too few.
 */
std::vector<uint32_t> ReadJobRanks(GeneratorContext& g, ServerPool& pool, const std::string& what,
                                   std::size_t minRanks);

/** `nvlink_gbps`: given, else the topology's, else 3600. */
double ReadNvlinkGbps(GeneratorContext& g);

/** `job` (default: the generator's name, else job{index}), refused when another job has it. */
std::string ReadJobName(GeneratorContext& g);

/** A planned job's transfers (job ranks) and where they go. */
struct JobTransfers
{
    uint32_t job = 0;                          ///< index in the relations' jobs
    const std::vector<uint32_t>* ranks = nullptr;    ///< host node index per job rank
    const std::vector<uint32_t>* serverOf = nullptr; ///< pool server index per job rank
    const ServerPool* pool = nullptr;
    const std::vector<Transfer>* plan = nullptr;
    double nvlinkGbps = 0;
};

/**
 * The one step from plan to flows (collective and training generators): a flow per transfer,
 * NVLink inside a server, at once from a rank to itself, waiting for what the transfer waits for;
 * returns the first flow's generation index (transfer i is flow base + i).
 */
uint32_t EmitTransfers(GeneratorContext& g, const JobTransfers& jt);

} // namespace fabric

#endif
