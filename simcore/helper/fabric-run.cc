#include "helper/fabric-run.h"
#include "helper/result-assembler.h"

#include "model/fabric-simulator-impl.h"
#include "model/fast-heap-scheduler.h"

#include "ns3/core-module.h"

#include <cstdlib>

namespace fabric
{

namespace
{

bool g_resolutionSet = false;

} // namespace

FabricRun::FabricRun(const Scenario& scenario)
    : FabricRun(Scenario(scenario))
{
}

FabricRun::FabricRun(Scenario&& scenario)
    : m_scenario(std::move(scenario)),
      m_network(m_scenario, m_ctx)
{
    using namespace ns3;
    Simulator::Destroy();
    // The engine's event loop (docs/model.md, "Engine"); FABRICSIM_SIMULATOR overrides it
    // (ns3::DefaultSimulatorImpl gives the same results, more slowly). Bound before the
    // simulator is created again below.
    const char* implName = std::getenv("FABRICSIM_SIMULATOR");
    FabricSimulatorImpl::GetTypeId(); // registers the TypeId (static library)
    GlobalValue::Bind("SimulatorImplementationType",
                      StringValue(implName && *implName ? implName : "fabric::FabricSimulatorImpl"));
    if (!g_resolutionSet)
    {
        Time::SetResolution(Time::PS);
        g_resolutionSet = true;
    }
    RngSeedManager::SetSeed(m_scenario.seed == 0 ? 1 : m_scenario.seed);
    RngSeedManager::SetRun(1);
    ObjectFactory sched;
    // Measured fastest for this model (docs/benchmarks.md); FABRICSIM_SCHEDULER overrides.
    const char* schedName = std::getenv("FABRICSIM_SCHEDULER");
    FastHeapScheduler::GetTypeId(); // registers the TypeId (static library)
    sched.SetTypeId(schedName && *schedName ? schedName : "fabric::FastHeapScheduler");
    Simulator::SetScheduler(sched);

    m_ctx.scenario = &m_scenario;
    m_ctx.warmupPs = static_cast<int64_t>(m_scenario.warmupNs) * 1000;
    m_ctx.hostRxBytes.assign(m_scenario.topo.nodes.size(), 0);
    m_network.Build();
    if (JobLinkCounter::Needed(m_scenario))
    {
        m_jobLinks = std::make_unique<JobLinkCounter>(m_scenario, m_ctx, m_network);
    }
    m_faults = std::make_unique<FaultSchedule>(m_scenario, m_network.Targets());
    m_controller = std::make_unique<RunController>(m_scenario, m_ctx, m_network, *m_faults);
    m_monitor = std::make_unique<RunMonitor>(m_scenario, m_ctx, m_network, *m_controller);
    m_controller->AttachMonitor(*m_monitor);
}

FabricRun::~FabricRun()
{
    ns3::Simulator::Destroy();
    m_monitor.reset();
    m_controller.reset();
    m_faults.reset();
    for (auto& f : m_ctx.flows)
    {
        if (f.cc)
        {
            f.cc->Dispose();
            f.cc = nullptr;
        }
    }
    m_network.Dispose();
}

RunStatus
FabricRun::Run(const RunLimits& limits, const std::function<void(const Progress&)>& progress)
{
    return m_controller->Run(limits, progress);
}

nlohmann::ordered_json
FabricRun::Results() const
{
    RunView view{m_scenario, m_ctx, m_network, *m_faults, *m_monitor, *m_controller};
    return ResultAssembler(view).Results();
}

uint64_t
FabricRun::Events() const
{
    return m_controller->Events();
}

uint64_t
FabricRun::PacketsTx() const
{
    return m_ctx.counters.packetsTx;
}

uint64_t
FabricRun::SimTimeNs() const
{
    return m_controller->SimTimeNs();
}

const Scenario&
FabricRun::GetScenario() const
{
    return m_scenario;
}

FabricContext&
FabricRun::Context()
{
    return m_ctx;
}

const NetworkBuilder&
FabricRun::Network() const
{
    return m_network;
}

const RunController&
FabricRun::Controller() const
{
    return *m_controller;
}

FabricDevice*
FabricRun::Device(uint32_t node) const
{
    return m_network.Device(node);
}

FabricSwitch*
FabricRun::Switch(uint32_t node) const
{
    return m_network.Switch(node);
}

RdmaNic*
FabricRun::Nic(uint32_t node) const
{
    return m_network.Nic(node);
}

std::string
FabricRun::PortName(uint32_t node, uint32_t neighbor) const
{
    return m_network.PortName(node, neighbor);
}

std::vector<std::pair<double, int64_t>>
FabricRun::PathOf(const FlowSpec& f) const
{
    return m_network.PathOf(f);
}

std::vector<uint32_t>
FabricRun::NodePathOf(const FlowSpec& f) const
{
    return m_network.NodePathOf(f);
}

const FaultSchedule&
FabricRun::Faults() const
{
    return *m_faults;
}

} // namespace fabric
