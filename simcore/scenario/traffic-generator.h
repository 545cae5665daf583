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

#include "collective-plan.h"
#include "model/fabric-config.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <vector>

namespace fabric
{

/**
 * The packet model's loads run a streamable ring collective of more planned transfers than this
 * as a RingProgram (model/fabric-config.h), its transfers unlisted (`fabricsim run
 * --collective-streams`: auto this, on every ring, off none).
 */
constexpr uint64_t kRingProgramsAboveTransfers = 1000000;

/** A ring program's transfers are numbered in 32 bits after the listed ones. */
constexpr uint64_t kMaxRingProgramTransfers = 4000000000ULL;

/** What the traffic generators need to know about the rest of the scenario. */
struct TrafficContext
{
    const Topology* topo = nullptr;
    const std::vector<NicConfig>* nicCfg = nullptr; ///< by node index
    uint8_t dataPriority = 3;                       ///< switch.data_priority
    uint64_t durationNs = 0;
    double durationUs = 0;
    uint32_t seed = 1;
    /// A streamable ring collective (collective-plan.h, Streamable) whose plan has more
    /// transfers than this is kept as a StreamedCollective instead of its transfers; 0: never
    /// (the packet model's loads). Only the flow engine asks for it.
    uint64_t streamRingsAbove = 0;
    /// A streamable ring collective whose plan has more transfers than this is kept as a
    /// RingProgram (Transfers::rings) instead of its transfers; 0: never. The packet model's.
    uint64_t ringProgramsAbove = 0;
    /// A training job's collectives inside one server are kept as stand-ins (Transfers::
    /// nvlinkGroups) instead of their transfers. Only the flow engine asks for it.
    bool nvlinkGroups = false;
};

/**
 * A ring collective kept whole for the flow engine's streams (docs/model.md, "Flow-level
 * engine"): its job is in GeneratedTraffic::jobs, its transfers are not in the flow list.
 */
struct StreamedCollective
{
    uint32_t job = 0;            ///< index in jobs
    CollectiveRequest request;   ///< as planned (serverOf per rank)
    std::vector<uint32_t> ranks; ///< host node indices in rank order
    /// Flows generated before it (and by earlier streamed jobs): connection k of the plan uses
    /// UDP source port kFirstUdpPort + (flowBase + k) mod kUdpPortSpan, as if expanded.
    uint64_t flowBase = 0;
    double nvlinkGbps = 0;       ///< a transfer inside a server's rate
    uint8_t priority = 3;
    uint64_t startNs = 0;
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
    Transfers transfers;           ///< collectives' transfers on their connections, or empty
    std::vector<StreamedCollective> streamed; ///< empty unless ctx.streamRingsAbove asked
};

/** Reads scenario.traffic (null when absent) and generates the flows. */
GeneratedTraffic GenerateTraffic(const nlohmann::json* traffic,
                                 const TrafficContext& ctx,
                                 nlohmann::ordered_json* out = nullptr);

} // namespace fabric

#endif
