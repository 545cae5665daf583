/*
 * FabricRunner: the fixed boundary to the scenario layer; delegates to FabricRun (helper/fabric-run.h).
 */
#include "helper/fabric-runner.h"

#include "helper/fabric-run.h"
#include "helper/partitioner.h"
#include "helper/run-controller.h"

#include "ns3/simulator.h"

namespace fabric
{

FabricRunner::FabricRunner(const Scenario& scenario)
    : m_impl(std::make_unique<FabricRun>(scenario))
{
}

FabricRunner::FabricRunner(Scenario&& scenario)
    : m_impl(std::make_unique<FabricRun>(std::move(scenario)))
{
}

FabricRunner::~FabricRunner() = default;

const Scenario&
FabricRunner::GetScenario() const
{
    return m_impl->GetScenario();
}

RunStatus
FabricRunner::Run(const RunLimits& limits, const std::function<void(const Progress&)>& progress)
{
    m_threads = limits.threads;
    return m_impl->Run(limits, progress);
}

nlohmann::ordered_json
FabricRunner::Results() const
{
    return m_impl->Results();
}

uint64_t
FabricRunner::Events() const
{
    return m_impl->Events();
}

uint64_t
FabricRunner::PacketsTx() const
{
    return m_impl->PacketsTx();
}

uint64_t
FabricRunner::SimTimeNs() const
{
    return m_impl->SimTimeNs();
}

nlohmann::ordered_json
FabricRunner::Parallel() const
{
    nlohmann::ordered_json j = nlohmann::ordered_json::object();
    j["threads"] = m_threads;
    const Partitioning* p = m_impl->Controller().Partitions();
    auto impl = ns3::DynamicCast<FabricSimulatorImpl>(ns3::Simulator::GetImplementation());
    if (!p || p->plan.parts <= 1 || !impl)
    {
        j["partitions"] = 1;
        return j;
    }
    const ParallelStats& st = impl->Stats();
    j["partitions"] = p->plan.parts;
    j["cut_links"] = p->cutLinks;
    j["lookahead_ns"] = static_cast<double>(p->plan.lookaheadPs) / 1000.0;
    j["windows"] = st.windows;
    j["global_events"] = st.globalEvents;
    j["frames_between_partitions"] = st.framesHandedOver;
    j["events_per_partition"] = st.eventsPerPartition;
    return j;
}

FabricRun&
FabricRunner::Fabric()
{
    return *m_impl;
}

} // namespace fabric
