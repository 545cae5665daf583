/*
 * FabricRunnerImpl: builds the devices, links, routes and flows of a resolved Scenario,
 * drives the run (progress, limits, monitor sampling) and assembles the results.
 * Exposed (through FabricRunner::Impl()) to tests and examples.
 */
#ifndef FABRIC_FABRIC_NETWORK_H
#define FABRIC_FABRIC_NETWORK_H

#include "helper/auto-monitor.h"
#include "helper/fabric-runner.h"
#include "model/fabric-context.h"
#include "model/fabric-switch.h"
#include "model/fault-schedule.h"
#include "model/rdma-nic.h"
#include "scenario/headroom.h"

#include <nlohmann/json.hpp>

#include <chrono>
#include <memory>
#include <string>
#include <vector>

namespace fabric
{

/** Share of [warmupPs, endPs] a port spent serializing frames (0..1; docs/result-format.md). */
double LinkUtilization(const Port& port, int64_t warmupPs, int64_t endPs);

/** Ideal (empty-fabric) FCT of size bytes over hops of (rate bit/s, delay ps); docs/model.md. */
double IdealFctPs(uint64_t sizeBytes, uint32_t mtu, const std::vector<std::pair<double, int64_t>>& hops,
                  uint32_t overheadBytes = kDataOverheadBytes);

/** Nearest-rank percentile of sorted values (p in [0, 1]). */
double Percentile(const std::vector<double>& sorted, double p);

class FabricRunnerImpl
{
  public:
    explicit FabricRunnerImpl(const Scenario& scenario);
    ~FabricRunnerImpl();

    RunStatus Run(const RunLimits& limits, const std::function<void(const Progress&)>& progress);
    nlohmann::ordered_json Results() const;

    uint64_t Events() const;
    uint64_t PacketsTx() const;
    uint64_t SimTimeNs() const;

    const Scenario& GetScenario() const;
    FabricContext& Context();
    /** The device of node i: a FabricSwitch or an RdmaNic (nullptr if out of range). */
    FabricDevice* Device(uint32_t node) const;
    FabricSwitch* Switch(uint32_t node) const;
    RdmaNic* Nic(uint32_t node) const;
    /** "a->b" name of a node's egress toward a neighbor. */
    std::string PortName(uint32_t node, uint32_t neighbor) const;
    /** Hops (rate bit/s, delay ps) a flow's packets take, following ECMP; empty if unroutable. */
    std::vector<std::pair<double, int64_t>> PathOf(const FlowSpec& f) const;
    /** The fault schedule (faults, watchdogs, deadlock report). */
    const FaultSchedule& Faults() const;
    /** Node indices a flow's packets visit, src first, dst last; empty if unroutable. */
    std::vector<uint32_t> NodePathOf(const FlowSpec& f) const;

  private:
    void BuildDevices();
    void BuildRoutes();
    void BuildFlows();
    /** topology.accelerator (helper/fabric-dci.cc): whether node is an accelerated DCI edge. */
    bool IsAcceleratorEdge(uint32_t node) const;
    /** Hands each accelerated edge its long-haul port, buffer and timer (after the routes). */
    void AttachAccelerators();
    nlohmann::ordered_json AcceleratorReport() const; ///< results.dci_accelerator
    void StartDueFlows();
    void Sample();
    /** Automatic monitor (helper/fabric-auto-watch.cc): candidates, per-sample record, choice. */
    void InitAutoWatch();
    void SampleAuto(uint32_t sampleIndex);
    void AutoQueueSeries(nlohmann::ordered_json& queues, nlohmann::ordered_json& selection) const;
    void AutoPauseSeries(nlohmann::ordered_json& pause, nlohmann::ordered_json& selection) const;
    void AutoFlowSeries(nlohmann::ordered_json& flows, nlohmann::ordered_json& selection) const;
    void CheckLimits();
    void Finish();
    /** Copies the whole-run counters when the warm-up ends (the "after warm-up" baseline). */
    void SnapshotWarmup();
    void TakeWarmupSnapshot();
    nlohmann::ordered_json CounterBlock(bool afterWarmup) const; ///< helper/fabric-accounting.cc
    nlohmann::ordered_json IngressReport() const;                ///< helper/fabric-accounting.cc
    nlohmann::ordered_json Summary() const;
    nlohmann::ordered_json FlowRecords() const;
    /** DATA payload still in the network at the end, per flow (helper/fabric-accounting.cc). */
    struct InNetwork
    {
        std::vector<uint64_t> onWire; ///< per flow index: frames on a link
        std::vector<uint64_t> queued; ///< per flow index: frames in a switch egress queue
    };
    InNetwork DataInNetwork() const;
    /** summary.conservation: sent = received + dropped + in flight + queued, exactly. */
    nlohmann::ordered_json Conservation(const InNetwork& in) const;
    nlohmann::ordered_json Series() const;
    nlohmann::ordered_json FaultReport() const;    ///< helper/fault-results.cc
    nlohmann::ordered_json PingmeshReport() const; ///< helper/fault-results.cc
    bool HasProbes() const;
    nlohmann::ordered_json PortCounters() const; ///< helper/fault-results.cc
    /** Whether any NIC departs from RC, one process, unlimited QP cache (transport-results.cc). */
    bool HasTransportReport() const;
    nlohmann::ordered_json TransportReport() const; ///< helper/transport-results.cc
    bool IsErdFlow(const FlowSpec& s) const;
    nlohmann::ordered_json ErdFlowCounters(const FlowState& f) const;

    Scenario m_scenario;
    FabricContext m_ctx;
    std::vector<ns3::Ptr<FabricDevice>> m_devices; ///< per node
    std::vector<FabricSwitch*> m_switches;         ///< per node (nullptr for hosts)
    std::vector<RdmaNic*> m_nics;                  ///< per node (nullptr for switches)
    std::vector<uint32_t> m_hostAttach;            ///< per node: attachment index
    std::vector<uint32_t> m_hostAttachNode;        ///< per node: switch a host hangs off
    std::vector<uint32_t> m_hostPort;              ///< per node: that switch's port toward it
    std::vector<uint32_t> m_startOrder;            ///< flow indices by (start, id)
    size_t m_nextStart = 0;
    std::unique_ptr<FaultSchedule> m_faults;

    // Monitor
    int64_t m_sampleIntervalPs = 10000000;
    std::vector<double> m_tUs;
    std::vector<std::vector<double>> m_queueSeries;
    std::vector<std::vector<double>> m_flowSeries;
    std::vector<std::vector<int>> m_pauseSeries;
    std::vector<uint32_t> m_watchedFlows; ///< flow indices

    // Automatic monitor: every candidate sampled while its budget allows
    bool m_autoQueuesOn = false;
    bool m_autoPausesOn = false;
    bool m_autoFlowsOn = false;
    std::vector<AutoPort> m_autoQueuePorts; ///< every switch egress
    std::vector<LazySeries<uint32_t>> m_autoQueues;
    std::vector<AutoPort> m_autoPausePorts; ///< every port of every device
    std::vector<LazySeries<uint8_t>> m_autoPauses;
    std::vector<LazySeries<double>> m_autoFlowSeries; ///< per flow index
    std::vector<uint8_t> m_autoFlowState;             ///< per flow index: 0 untracked, 1 tracked, 2 cut
    std::vector<uint32_t> m_autoFlowActive;           ///< flow indices still delivering
    std::size_t m_autoFlowCursor = 0;                 ///< next entry of m_startOrder to admit
    uint64_t m_autoFlowSamples = 0;
    bool m_autoFlowBudgetHit = false;

    // Run control
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
