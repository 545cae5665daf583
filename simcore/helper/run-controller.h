/*
 * RunController: drives one run of a built network. It owns the run loop (ns-3's simulator
 * from time 0 to the scenario's duration), the run limits (wall time, events, memory) and
 * progress reports, the starting of flows when they are due (in the builder's start order;
 * flows that wait for flows through its FlowDependencyTracker),
 * the warm-up baseline (the counters when the warm-up ends) and the end of the run (closing
 * pause intervals and queue statistics, the final event count).
 */
#ifndef FABRIC_RUN_CONTROLLER_H
#define FABRIC_RUN_CONTROLLER_H

#include "helper/fabric-runner.h"
#include "model/fabric-context.h"
#include "model/fabric-device.h"

#include <array>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

namespace fabric
{

class FaultSchedule;
class FlowDependencyTracker;
class NetworkBuilder;
class RunMonitor;

/** A port's PFC counters when the warm-up ended (zero without a warm-up). */
struct PortWarmup
{
    std::array<uint32_t, kNumPriorities> pausesSent{};
    std::array<uint32_t, kNumPriorities> pausesReceived{};
    std::array<int64_t, kNumPriorities> pausePs{}; ///< paused time until then
};

/** The "after warm-up" baseline the result subtracts (RunController::TakeWarmupSnapshot). */
struct WarmupBaseline
{
    FabricCounters counters;                   ///< the fabric's counters
    std::vector<std::vector<PortWarmup>> ports; ///< per node, per port

    /** A port's baseline; zeros before the snapshot is taken. */
    const PortWarmup& AtPort(uint32_t node, uint32_t port) const
    {
        static const PortWarmup kZero;
        return node < ports.size() && port < ports[node].size() ? ports[node][port] : kZero;
    }
};

class RunController
{
  public:
    RunController(const Scenario& scenario, FabricContext& ctx, const NetworkBuilder& network,
                  FaultSchedule& faults);
    ~RunController();
    /** The monitor whose sampling starts with the run (it reads FlowsStarted and EndPs). */
    void AttachMonitor(RunMonitor& monitor) { m_monitor = &monitor; }

    RunStatus Run(const RunLimits& limits, const std::function<void(const Progress&)>& progress);

    uint64_t Events() const;
    uint64_t SimTimeNs() const;
    /** The end of the simulated window: when the run finished, else now. */
    int64_t EndPs() const;
    /** How many entries of the start order have been started (the monitor admits them). */
    std::size_t FlowsStarted() const;
    /** How the run was split across threads (null: one thread). */
    const struct Partitioning* Partitions() const { return m_partitions.get(); }
    /** The counters when the warm-up ended (taken at the end if the run ended inside it). */
    const WarmupBaseline& Warmup() const { return m_warmup; }

  private:
    /** Schedules each sending NIC's first flow start (an event of that NIC). */
    void ScheduleFlowStarts();
    /** Starts the flows of node's NIC that are due now, then waits for its next one. */
    void StartNicFlows(uint32_t node);
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
    /// Starts the flows the start order leaves out (waiting ones, NVLink steps); null when none.
    std::unique_ptr<FlowDependencyTracker> m_dependencies;

    mutable std::size_t m_nextStart = 0; ///< entries of the start order due so far (FlowsStarted)
    std::vector<std::vector<uint32_t>> m_nicStarts; ///< per node, its flows in start order
    std::vector<uint32_t> m_nicCursor;              ///< per node, the next of them to start
    std::unique_ptr<struct Partitioning> m_partitions;
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
    WarmupBaseline m_warmup;
};

} // namespace fabric

#endif
