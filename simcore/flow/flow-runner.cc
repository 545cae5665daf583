#include "flow/flow-runner.h"

#include "flow/flow-caveats.h"
#include "flow/flow-engine.h"
#include "flow/flow-result.h"
#include "flow/flow-routing.h"

#include <cmath>

namespace fabric
{
namespace flow
{

FlowRunner::FlowRunner(const Scenario& scenario)
    : m_scenario(scenario),
      m_routing(std::make_unique<FlowRouting>(scenario))
{
    CheckModelable(scenario, *m_routing);
    m_engine = std::make_unique<FlowEngine>(scenario, *m_routing);
}

FlowRunner::~FlowRunner() = default;

RunStatus
FlowRunner::Run(const RunLimits& limits, const std::function<void(const Progress&)>& progress)
{
    return m_engine->Run(limits, progress);
}

nlohmann::ordered_json
FlowRunner::Results()
{
    return FlowResultAssembler(m_scenario, *m_engine).Results();
}

nlohmann::ordered_json
FlowRunner::Caveats() const
{
    return CaveatsJson(FlowCaveats(m_scenario));
}

uint64_t
FlowRunner::Events() const
{
    return m_engine->Events();
}

uint64_t
FlowRunner::SimTimeNs() const
{
    return static_cast<uint64_t>(std::llround(m_engine->EndPs() / 1000.0));
}

} // namespace flow
} // namespace fabric
