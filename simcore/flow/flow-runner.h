/*
 * FlowRunner: the flow-level engine behind `fabricsim run --engine flow` (docs/model.md,
 * "Flow-level engine"), the counterpart of the packet model's FabricRunner: it builds the
 * routes of a resolved scenario, refuses what it cannot model (flow-caveats.h), runs the
 * FlowEngine and assembles the result's summary, flows, series, jobs and caveats.
 */
#ifndef FABRIC_FLOW_RUNNER_H
#define FABRIC_FLOW_RUNNER_H

#include "model/fabric-config.h"
#include "scenario/run-limits.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <functional>
#include <memory>

namespace fabric
{
namespace flow
{

class FlowEngine;
class FlowRouting;

class FlowRunner
{
  public:
    /** Builds the routes; throws ScenarioError (one line, naming the field) when refused. */
    explicit FlowRunner(const Scenario& scenario);
    ~FlowRunner();

    RunStatus Run(const RunLimits& limits, const std::function<void(const Progress&)>& progress);

    /** "summary", "flows", "series" and (with collectives) "jobs", as the packet model's. */
    nlohmann::ordered_json Results();

    /** What the engine left out (the result's `caveats`). */
    nlohmann::ordered_json Caveats() const;

    uint64_t Events() const;
    uint64_t SimTimeNs() const;

  private:
    const Scenario& m_scenario;
    std::unique_ptr<FlowRouting> m_routing;
    std::unique_ptr<FlowEngine> m_engine;
};

} // namespace flow
} // namespace fabric

#endif
