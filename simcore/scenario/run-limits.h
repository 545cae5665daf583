/*
 * What bounds a run and what it reports while it runs, for either engine: the packet model's
 * FabricRunner (helper/fabric-runner.h) and the flow engine's FlowRunner (flow/flow-runner.h).
 */
#ifndef FABRIC_RUN_LIMITS_H
#define FABRIC_RUN_LIMITS_H

#include <cstdint>

namespace fabric
{

struct RunLimits
{
    double maxWallS = 0;      ///< 0 = no limit
    uint64_t maxEvents = 0;   ///< 0 = no limit
    uint64_t maxMemoryMb = 0; ///< 0 = no limit (checked against peak RSS)
    uint32_t threads = 1;     ///< partitions run at once (results identical for every count)
    /** Partitions the threads take in turn: 0 = by the fabric's size (RunController); at least
     *  threads. Results are identical for every count. */
    uint32_t partitions = 0;
};

struct Progress
{
    uint64_t simTimeNs = 0;
    uint64_t durationNs = 0;
    uint64_t events = 0;
    double wallS = 0;
};

enum class RunStatus
{
    OK,
    LIMIT ///< stopped early by a RunLimits bound; results cover the time simulated
};

} // namespace fabric

#endif
