/*
 * FabricRun: one simulated run of a resolved Scenario (behind FabricRunner, helper/fabric-runner.h).
 * It owns the scenario copy, the shared FabricContext and the run's parts, and wires them:
 *   NetworkBuilder  (helper/network-builder.h)   devices, links, routes, flows, accelerators
 *   FaultSchedule   (model/fault-schedule.h)     faults, watchdogs, deadlock detection
 *   RunController   (helper/run-controller.h)    run loop, limits, due flows, warm-up, finish
 *   RunMonitor      (helper/run-monitor.h)       sampling and the automatic monitor
 *   ResultAssembler (helper/result-assembler.h)  the result, from a read-only RunView
 * Its queries (Device, Switch, Nic, NodePathOf, Context, ...) are for tests and examples.
 */
#ifndef FABRIC_FABRIC_RUN_H
#define FABRIC_FABRIC_RUN_H

#include "helper/fabric-runner.h"
#include "helper/job-links.h"
#include "helper/network-builder.h"
#include "helper/run-controller.h"
#include "helper/run-monitor.h"
#include "model/fabric-context.h"
#include "model/fault-schedule.h"

#include <nlohmann/json.hpp>

#include <memory>
#include <string>
#include <vector>

namespace fabric
{

class FabricRun
{
  public:
    explicit FabricRun(const Scenario& scenario);
    /** Takes the scenario over instead of copying it. */
    explicit FabricRun(Scenario&& scenario);
    ~FabricRun();
    FabricRun(const FabricRun&) = delete;
    FabricRun& operator=(const FabricRun&) = delete;

    RunStatus Run(const RunLimits& limits, const std::function<void(const Progress&)>& progress);
    nlohmann::ordered_json Results() const;

    uint64_t Events() const;
    uint64_t PacketsTx() const;
    uint64_t SimTimeNs() const;

    const Scenario& GetScenario() const;
    FabricContext& Context();
    const NetworkBuilder& Network() const;
    const RunController& Controller() const;
    /** The device of node i: a FabricSwitch or an RdmaNic (nullptr if out of range). */
    FabricDevice* Device(uint32_t node) const;
    FabricSwitch* Switch(uint32_t node) const;
    RdmaNic* Nic(uint32_t node) const;
    /** "a->b" name of a node's egress toward a neighbor. */
    std::string PortName(uint32_t node, uint32_t neighbor) const;
    /** Hops (rate bit/s, delay ps) a flow's packets take, following ECMP; empty if unroutable. */
    std::vector<std::pair<double, int64_t>> PathOf(const FlowSpec& f) const;
    /** Node indices a flow's packets visit, src first, dst last; empty if unroutable. */
    std::vector<uint32_t> NodePathOf(const FlowSpec& f) const;
    /** The fault schedule (faults, watchdogs, deadlock report). */
    const FaultSchedule& Faults() const;

  private:
    Scenario m_scenario;
    FabricContext m_ctx;
    NetworkBuilder m_network;
    std::unique_ptr<FaultSchedule> m_faults;
    std::unique_ptr<RunController> m_controller;
    std::unique_ptr<RunMonitor> m_monitor;
    /// The links collective jobs crossed (jobs[].links); null without jobs.
    std::unique_ptr<JobLinkCounter> m_jobLinks;
};

} // namespace fabric

#endif
