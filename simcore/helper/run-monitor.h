/*
 * RunMonitor: the time series of a run (the result's "series"). It owns the sampling timer,
 * the series of the queues, ports and flows the scenario lists (monitor.*), the delivered bytes
 * of each listed flow at its last sample, and the automatic monitor (AutoWatch) for the kinds
 * left on "auto". Each sample also asks the switches to record their queue depths after the
 * warm-up (the queues' p99 in the summary).
 */
#ifndef FABRIC_RUN_MONITOR_H
#define FABRIC_RUN_MONITOR_H

#include "helper/auto-watch.h"
#include "model/fabric-context.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <vector>

namespace fabric
{

class NetworkBuilder;
class RunController;

class RunMonitor
{
  public:
    RunMonitor(const Scenario& scenario, const FabricContext& ctx, const NetworkBuilder& network,
               const RunController& controller);

    /** Resolves what to watch and schedules the first sample (at time 0). */
    void Start();
    /** The result's "series" object. */
    nlohmann::ordered_json Series() const;

  private:
    void Sample();

    const Scenario& m_scenario;
    const FabricContext& m_ctx;
    const NetworkBuilder& m_network;
    const RunController& m_controller;

    int64_t m_sampleIntervalPs = 10000000;
    std::vector<double> m_tUs;
    std::vector<std::vector<double>> m_queueSeries;
    std::vector<std::vector<double>> m_flowSeries;
    std::vector<std::vector<int>> m_pauseSeries;
    std::vector<uint32_t> m_watchedFlows;          ///< flow indices
    std::vector<uint64_t> m_flowBytesAtLastSample; ///< per flow index: bytesDelivered then
    AutoWatch m_auto;
};

} // namespace fabric

#endif
