/*
 * RunController: drives one run of a built network. It owns the run loop (ns-3's simulator
 * from time 0 to the scenario's duration), the run limits (wall time, events, memory) and
 * progress reports, the starting of flows when they are due (in the builder's start order),
 * the warm-up baseline (the counters when the warm-up ends) and the end of the run (closing
 * pause intervals and queue statistics, the final event count).
 */
#ifndef FABRIC_RUN_CONTROLLER_H
#define FABRIC_RUN_CONTROLLER_H

#include "helper/fabric-runner.h"
#include "model/fabric-context.h"

#include <chrono>
#include <cstdint>
#include <functional>

namespace fabric
{

class FaultSchedule;
class NetworkBuilder;
class RunMonitor;

class RunController
{
  public:
    RunController(const Scenario& scenario, FabricContext& ctx, const NetworkBuilder& network,
                  FaultSchedule& faults);
    /** The monitor whose sampling starts with the run (it reads FlowsStarted and EndPs). */
    void AttachMonitor(RunMonitor& monitor) { m_monitor = &monitor; }

    RunStatus Run(const RunLimits& limits, const std::function<void(const Progress&)>& progress);

    uint64_t Events() const;
    uint64_t SimTimeNs() const;
    /** The end of the simulated window: when the run finished, else now. */
    int64_t EndPs() const;
    /** How many entries of the start order have been started (the monitor admits them). */
    std::size_t FlowsStarted() const { return m_nextStart; }

  private:
    void StartDueFlows();
    void CheckLimits();
    /** Copies the whole-run counters when the warm-up ends (the "after warm-up" baseline). */
    void SnapshotWarmup();
    void TakeWarmupSnapshot();
    void Finish();

    const Scenario& m_scenario;
    FabricContext& m_ctx;
    const NetworkBuilder& m_network;
    FaultSchedule& m_faults;
    RunMonitor* m_monitor = nullptr;

    std::size_t m_nextStart = 0; ///< next entry of the start order to start
    RunLimits m_limits;
    std::function<void(const Progress&)> m_progress;
    std::chrono::steady_clock::time_point m_wallStart;
    double m_lastProgressWall = -1;
    double m_lastMemCheckWall = -1;
    bool m_limitHit = false;
    bool m_finished = false;
    int64_t m_endPs = 0;
    uint64_t m_events = 0;
    bool m_warmupSnapshotTaken = false;
};

} // namespace fabric

#endif
