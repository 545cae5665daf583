/*
 * FabricRunner: the fixed boundary to the scenario layer; delegates to FabricRun (helper/fabric-run.h).
 */
#include "helper/fabric-runner.h"

#include "helper/fabric-run.h"

#include <fstream>
#include <sstream>

namespace fabric
{

double
PeakRssMb()
{
    std::ifstream in("/proc/self/status");
    std::string line;
    while (std::getline(in, line))
    {
        if (line.rfind("VmHWM:", 0) == 0)
        {
            std::istringstream ss(line.substr(6));
            double kb = 0;
            ss >> kb;
            return kb / 1024.0;
        }
    }
    return 0;
}

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
