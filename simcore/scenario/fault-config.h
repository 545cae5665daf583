/*
 * The `faults` list and the `watchdogs` object of a scenario (docs/scenario-format.md,
 * "Faults"): read, checked against the topology and resolved to node indices. The same rules
 * as backend/app/scenarios/faults.py.
 */
#ifndef FABRIC_FAULT_CONFIG_H
#define FABRIC_FAULT_CONFIG_H

#include "model/fabric-config.h"

#include <nlohmann/json.hpp>

#include <vector>

namespace fabric
{

constexpr std::size_t kMaxFaults = 256;

/** Reads scenario.faults (null when absent). */
std::vector<FaultSpec> ResolveFaults(const nlohmann::json* faults,
                                     const Topology& topo,
                                     uint8_t dataPriority,
                                     double durationUs,
                                     nlohmann::ordered_json* out = nullptr);

/** Reads scenario.watchdogs (null when absent). */
WatchdogConfig ResolveWatchdogs(const nlohmann::json* watchdogs,
                                nlohmann::ordered_json* out = nullptr);

/** Reads scenario.telemetry (null when absent): whether per-port counters are reported. */
struct TelemetryConfig
{
    bool portCounters = false;
    bool flowPaths = false;
};

TelemetryConfig ResolveTelemetry(const nlohmann::json* telemetry, nlohmann::ordered_json* out = nullptr);

} // namespace fabric

#endif
