/*
 * AutoWatch: the automatic monitor ("watch where the action is", helper/auto-monitor.h). When
 * the scenario leaves monitor.queues, .ports or .flows on "auto", it owns the cheap per-sample
 * record of every candidate (switch egress queue, device port, flow: its series, whether it is
 * tracked, the delivered bytes at its last sample) and, after the run, chooses the deepest
 * queues, the longest-paused ports and the slowest flows for the result's "series".
 */
#ifndef FABRIC_AUTO_WATCH_H
#define FABRIC_AUTO_WATCH_H

#include "helper/auto-monitor.h"
#include "model/fabric-context.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <vector>

namespace fabric
{

class NetworkBuilder;

class AutoWatch
{
  public:
    AutoWatch(const Scenario& scenario, const FabricContext& ctx, const NetworkBuilder& network);

    /** Lists the candidates and decides which kinds fit their sampling budget. */
    void Init(int64_t sampleIntervalPs);
    bool QueuesOn() const { return m_queuesOn; }
    bool PausesOn() const { return m_pausesOn; }
    bool FlowsOn() const { return m_flowsOn; }

    /** Records sample si; flowsStarted: entries of the start order started so far. */
    void Sample(uint32_t si, std::size_t flowsStarted);

    /** The chosen series over nSamples samples, and the sentence saying how they were chosen. */
    void QueueSeries(nlohmann::ordered_json& out, nlohmann::ordered_json& selection,
                     std::size_t nSamples) const;
    void PauseSeries(nlohmann::ordered_json& out, nlohmann::ordered_json& selection,
                     std::size_t nSamples) const;
    void FlowSeries(nlohmann::ordered_json& out, nlohmann::ordered_json& selection,
                    std::size_t nSamples, int64_t endPs) const;

  private:
    const Scenario& m_scenario;
    const FabricContext& m_ctx;
    const NetworkBuilder& m_network;
    int64_t m_sampleIntervalPs = 10000000;

    bool m_queuesOn = false;
    bool m_pausesOn = false;
    bool m_flowsOn = false;
    std::vector<AutoPort> m_queuePorts; ///< every switch egress
    std::vector<LazySeries<uint32_t>> m_queues;
    std::vector<AutoPort> m_pausePorts; ///< every port of every device
    std::vector<LazySeries<uint8_t>> m_pauses;
    std::vector<LazySeries<double>> m_flowSeries;  ///< per flow index
    std::vector<uint8_t> m_flowState;              ///< per flow index: 0 untracked, 1 tracked, 2 cut
    std::vector<uint64_t> m_flowBytesAtLastSample; ///< per flow index: bytesDelivered then
    std::vector<uint32_t> m_flowActive;            ///< flow indices still delivering
    std::size_t m_flowCursor = 0;                  ///< next entry of the start order to admit
    uint64_t m_flowSamples = 0;
    bool m_flowBudgetHit = false;
};

} // namespace fabric

#endif
