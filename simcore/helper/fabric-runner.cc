/*
 * FabricRunner: the fixed boundary to the scenario layer; delegates to FabricRun (helper/fabric-run.h).
 */
#include "helper/fabric-runner.h"

#include "helper/fabric-run.h"

namespace fabric
{

FabricRunner::FabricRunner(const Scenario& scenario)
    : m_impl(std::make_unique<FabricRun>(scenario))
{
}

FabricRunner::~FabricRunner() = default;

RunStatus
FabricRunner::Run(const RunLimits& limits, const std::function<void(const Progress&)>& progress)
{
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

FabricRun&
FabricRunner::Fabric()
{
    return *m_impl;
}

} // namespace fabric
