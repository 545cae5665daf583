/*
 * Minimal FabricRunner so fabricsim links; replaced by the packet-level model.
 */
#include "helper/fabric-runner.h"

namespace fabric
{

class FabricRunnerImpl
{
  public:
    explicit FabricRunnerImpl(const Scenario& s)
        : m_scenario(s)
    {
    }

    Scenario m_scenario;
};

FabricRunner::FabricRunner(const Scenario& scenario)
    : m_impl(std::make_unique<FabricRunnerImpl>(scenario))
{
}

FabricRunner::~FabricRunner() = default;

RunStatus
FabricRunner::Run(const RunLimits& limits, const std::function<void(const Progress&)>& progress)
{
    return RunStatus::OK;
}

nlohmann::ordered_json
FabricRunner::Results() const
{
    nlohmann::ordered_json j;
    j["summary"] = nlohmann::ordered_json::object();
    j["flows"] = nlohmann::ordered_json::array();
    j["series"] = nlohmann::ordered_json::object();
    return j;
}

uint64_t
FabricRunner::Events() const
{
    return 0;
}

uint64_t
FabricRunner::PacketsTx() const
{
    return 0;
}

uint64_t
FabricRunner::SimTimeNs() const
{
    return 0;
}

} // namespace fabric
