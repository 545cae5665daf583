#include "flow/flow-runner.h"

#include "flow/flow-caveats.h"
#include "flow/flow-engine.h"
#include "flow/flow-result.h"
#include "flow/flow-routing.h"
#include "flow/max-min-solver.h"
#include "flow/ring-streams.h"

#include <cmath>

namespace fabric
{
namespace flow
{

FlowRunner::FlowRunner(const Scenario& scenario, std::vector<StreamedCollective> streamed)
    : m_scenario(scenario),
      m_routing(std::make_unique<FlowRouting>(scenario))
{
    CheckModelable(scenario, *m_routing);
    m_engine = std::make_unique<FlowEngine>(scenario, *m_routing);
    if (!streamed.empty())
    {
        m_streams = std::make_unique<RingStreams>(scenario, std::move(streamed));
        m_engine->SetDriver(m_streams.get());
    }
}

FlowRunner::~FlowRunner() = default;

RunStatus
FlowRunner::Run(const RunLimits& limits, const std::function<void(const Progress&)>& progress)
{
    return m_engine->Run(limits, progress);
}

nlohmann::ordered_json
FlowRunner::Results(bool tables)
{
    return FlowResultAssembler(m_scenario, *m_engine, m_streams.get()).Results(tables);
}

nlohmann::ordered_json
FlowRunner::Caveats() const
{
    std::vector<Caveat> caveats = FlowCaveats(m_scenario);
    for (uint32_t g : m_streams ? m_streams->Generators() : std::vector<uint32_t>())
    {
        caveats.push_back({"collective_streams", "traffic[" + std::to_string(g) + "]",
                           "a ring of this many transfers runs as one stream per connection: its "
                           "steps follow one another at the stream's mean rate, each waiting for "
                           "the block it forwards (docs/model.md, \"Flow-level engine\"); steps "
                           "are not listed and its transfers are not in fct_us or slowdown"});
    }
    return CaveatsJson(caveats);
}

nlohmann::ordered_json
FlowRunner::Work() const
{
    const MaxMinSolver& s = m_engine->Solver();
    return {{"flows_solved", s.FlowsSolved()}, {"fill_passes", s.Passes()}};
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
