/*
 * Applies a scenario's faults and watchdogs to the model at their times, through the devices'
 * public hooks (docs/model.md, "Faults"): link state and loss (PortFault), NIC pause generation
 * (PfcStorm, SlowReceiver, the NIC watchdog), the switch PFC watchdog, parameter changes, and
 * the PFC deadlock report. Nothing here runs, and nothing is scheduled, for a scenario without
 * faults and watchdogs (except one deadlock search at the end of the run).
 */
#ifndef FABRIC_FAULT_SCHEDULE_H
#define FABRIC_FAULT_SCHEDULE_H

#include "model/deadlock-detector.h"
#include "model/fabric-switch.h"
#include "model/nic-faults.h"
#include "model/rdma-nic.h"

#include <deque>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace fabric
{

/** The parts of the built fabric the schedule acts on (all indexed by node). */
struct FaultTargets
{
    FabricContext* ctx = nullptr;
    std::vector<FabricDevice*> devices;
    std::vector<FabricSwitch*> switches;
    std::vector<RdmaNic*> nics;
    std::function<void()> rebuildRoutes; ///< recomputes ECMP without routed-around ports
};

/** Something that happened, for the result's fault log. */
struct FaultEvent
{
    int64_t ps = 0;
    std::string event;
    std::string target; ///< a node, or "a->b" for a port
    int priority = -1;
};

class FaultSchedule
{
  public:
    FaultSchedule(const Scenario& scenario, FaultTargets targets);
    ~FaultSchedule();

    /** Whether the scenario has faults or an enabled watchdog (the result then has "faults"). */
    bool Active() const;
    /** Schedules every fault and the watchdog and deadlock checks; call once before running. */
    void Start();
    /** The end-of-run deadlock search (also for scenarios without faults). */
    void Finish();

    const std::vector<FaultEvent>& Events() const;
    const std::vector<DeadlockCycle>& Deadlocks() const;
    uint64_t SwitchWatchdogTriggers() const;
    uint64_t NicWatchdogTriggers() const;

  private:
    PortFault& FaultOf(uint32_t node, uint32_t neighbor);
    std::string Name(uint32_t node) const;
    std::string PortName(uint32_t node, uint32_t neighbor) const;
    void Log(const std::string& event, const std::string& target, int priority = -1);

    void Apply(size_t i, bool begin);
    void SetLoss(const FaultSpec& f, size_t i, bool on);
    void SetLinkDown(const FaultSpec& f, bool down);
    void Converge(const FaultSpec& f, bool routedAround);
    void SetParam(const FaultSpec& f, bool begin, size_t i);
    void SwitchWatchdogTick();
    void DeadlockTick();
    void RecordDeadlocks(const std::vector<DeadlockCycle>& now);

    const Scenario& m_scenario;
    FaultTargets m_t;
    std::deque<PortFault> m_portFaults; ///< stable addresses; Ports point into it
    std::vector<std::unique_ptr<PfcStorm>> m_storms;       ///< per fault (null if not a storm)
    std::vector<std::unique_ptr<SlowReceiver>> m_slow;     ///< per fault
    std::vector<std::vector<double>> m_savedParams;        ///< per fault: values before a set
    std::vector<FaultEvent> m_events;
    std::vector<DeadlockCycle> m_deadlocks;
    uint64_t m_switchTriggers = 0;
    uint64_t m_nicTriggers = 0;
    std::vector<bool> m_nicFiredSeen;
};

} // namespace fabric

#endif
