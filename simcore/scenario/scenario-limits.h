/*
 * Size limits of scenario v1 (docs/scenario-format.md). Checked before anything runs, so
 * the API refuses what would not finish.
 */
#ifndef FABRIC_SCENARIO_LIMITS_H
#define FABRIC_SCENARIO_LIMITS_H

#include <cstdint>

namespace fabric
{

constexpr uint64_t kMaxNodes = 20000;
constexpr uint64_t kMaxLinks = 100000;
constexpr uint64_t kMaxFlows = 2000000;
constexpr double kMaxDurationUs = 1000000;
constexpr double kMaxRateGbps = 1600;
constexpr double kMaxDelayUs = 100000;
constexpr double kFibreUsPerKm = 5;
constexpr uint64_t kMaxTrafficGenerators = 64;
constexpr uint64_t kMaxMonitorSamples = 100000;

} // namespace fabric

#endif
