/*
 * Traffic generators (incast, pairs, permutation, all_to_all, perftest, workload, pingmesh,
 * stride, inter_pod_permutation; the explicit `flows` list is read by flow-list-generator.h,
 * collectives by collective-generator.h)
 * expanded to a list of FlowSpec, one per QP. Randomness comes from ns-3 RandomVariableStreams
 * seeded from the scenario seed with fixed stream numbers, so a scenario and seed always give
 * the same flows.
 */
#ifndef FABRIC_TRAFFIC_GENERATOR_H
#define FABRIC_TRAFFIC_GENERATOR_H

#include "model/fabric-config.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <vector>

namespace fabric
{

/** What the traffic generators need to know about the rest of the scenario. */
struct TrafficContext
{
    const Topology* topo = nullptr;
    const std::vector<NicConfig>* nicCfg = nullptr; ///< by node index
    uint8_t dataPriority = 3;                       ///< switch.data_priority
    uint64_t durationNs = 0;
    double durationUs = 0;
    uint32_t seed = 1;
};

/** First ns-3 RNG stream number used by the traffic generators (8 per generator). */
constexpr int64_t kTrafficStreamBase = 1000;

/** The flows of the traffic list and what relates them (both empty unless a generator asks). */
struct GeneratedTraffic
{
    std::vector<FlowSpec> flows; ///< sorted by start time; ids equal their index
    FlowDependencies deps;       ///< by flow id
    std::vector<JobSpec> jobs;
    std::vector<JobFlow> jobFlows; ///< by flow id, or empty
};

/** Reads scenario.traffic (null when absent) and generates the flows. */
GeneratedTraffic GenerateTraffic(const nlohmann::json* traffic,
                                 const TrafficContext& ctx,
                                 nlohmann::ordered_json* out = nullptr);

} // namespace fabric

#endif
