/*
 * The monitor section: sample interval and which queues, ports and flows are recorded.
 */
#ifndef FABRIC_MONITOR_CONFIG_H
#define FABRIC_MONITOR_CONFIG_H

#include "model/fabric-config.h"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace fabric
{

/** At most this many queues, ports and flows are chosen by "auto". */
constexpr std::size_t kMonitorAutoCount = 16;
/** "all" flows is allowed up to this many flows. */
constexpr std::size_t kMonitorAllFlowsMax = 256;

/** "node->neighbor" for a port. */
std::string PortName(const Topology& topo, const PortRef& port);

/**
 * Reads scenario.monitor (null when absent) and resolves "auto" choices against the topology
 * and the generated flows.
 */
MonitorConfig ResolveMonitor(const nlohmann::json* monitor,
                             const Topology& topo,
                             const std::vector<FlowSpec>& flows,
                             double durationUs,
                             nlohmann::ordered_json* out = nullptr);

} // namespace fabric

#endif
