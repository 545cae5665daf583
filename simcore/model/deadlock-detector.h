/*
 * PFC deadlock detection (Guo et al. 2016, section 4.2): a cycle of switch egress queues, each
 * holding frames, each paused continuously for longer than a threshold by the next switch of
 * the cycle, which pauses because its own ingress from the previous switch cannot drain.
 */
#ifndef FABRIC_DEADLOCK_DETECTOR_H
#define FABRIC_DEADLOCK_DETECTOR_H

#include "model/fabric-switch.h"

#include <cstdint>
#include <vector>

namespace fabric
{

/** One egress queue of a cycle: switch node, its port toward the next switch. */
struct DeadlockHop
{
    uint32_t node = 0;
    uint32_t neighbor = 0;
};

struct DeadlockCycle
{
    std::vector<DeadlockHop> hops; ///< in cycle order, starting at the smallest (node, neighbor)
    uint8_t priority = 0;
    int64_t formedPs = 0;  ///< when the last queue of the cycle became paused
    int64_t detectedPs = 0;
};

/** The cycles present now among switches (indexed by node; nullptr for hosts). */
std::vector<DeadlockCycle> FindPfcDeadlocks(const std::vector<FabricSwitch*>& switches,
                                           int64_t thresholdPs);

} // namespace fabric

#endif
