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
std::vector<uint32_t> Place(GeneratorContext& g,
                            ServerPool& pool,
                            uint64_t count,
                            const std::string& placement);

/**
 * A job's ranks (host node indices in rank order) from `hosts`, or `servers` + `placement`;
 * `what` ("a collective") and minRanks for the message when too few.
 */
std::vector<uint32_t> ReadJobRanks(GeneratorContext& g,
                                   ServerPool& pool,
                                   const std::string& what,
                                   std::size_t minRanks);

/** `nvlink_gbps`: given, else the topology's, else 3600. */
double ReadNvlinkGbps(GeneratorContext& g);

/** `job` (default: the generator's name, else job{index}), refused when another job has it. */
std::string ReadJobName(GeneratorContext& g);

/** Where a job's ranks are: what EmitPlan needs to turn rank numbers into hosts and links. */
struct JobRanks
{
    std::vector<uint32_t> hosts; ///< per rank: its host (node index)
    /// per rank: its server when it shares that server with other GPUs (a step between two
    /// ranks of one server is an NVLink transfer), UINT32_MAX for a rank alone in its server
    std::vector<uint32_t> nvlinkServer;
    double nvlinkGbps = 0; ///< an NVLink transfer's rate (Gbit/s)
};

/**
 * The one way a plan (collective-plan.h: transfers between ranks, each waiting for the
 * transfers of its After(i), plus its gapNs) becomes traffic of job `job` (an index into
 * g.Relations().jobs, pushed by the caller): network transfers, NVLink transfers (two ranks of
 * one server) and markers (0 bytes, src == dst: complete at once, after their inputs + gapNs).
 * The collective generator calls it with PlanCollective's transfers; a generator that composes
 * several plans (a training iteration) calls it once with all of them. Returns each plan
 * transfer's row in g.Relations()'s transfer lists.
 */
/** An NVLink transfer's time, ns: bytes x 8 over the NVLink rate, at least 1. */
uint64_t NvlinkNs(uint64_t bytes, double nvlinkGbps);

std::vector<uint32_t> EmitPlan(GeneratorContext& g,
                               uint32_t job,
                               const JobRanks& ranks,
                               const TransferPlan& plan);

/**
 * A streamable ring (collective-plan.h, Streamable) as a RingProgram: the connections EmitPlan
 * would open for its plan, in the same order, and the ring's shape instead of its transfers.
 */
void EmitRingProgram(GeneratorContext& g,
                     uint32_t job,
                     const JobRanks& ranks,
                     const CollectiveRequest& req);

} // namespace fabric

#endif
