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
#include "scenario/traffic-generator.h"

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
class RingStreams;

/**
 * When the flow engine runs a ring collective as streams (LoadOptions::streamRingsAbove):
 * rings planned with more transfers than this, by default (`--collective-streams auto`); the
 * same threshold as the packet model's ring programs.
 */
constexpr uint64_t kStreamRingsAboveTransfers = kRingProgramsAboveTransfers;

class FlowRunner
{
  public:
    /**
     * Builds the routes; throws ScenarioError (one line, naming the field) when refused.
     * \param streamed the ring collectives the scenario layer kept as streams (ring-streams.h)
     */
    explicit FlowRunner(const Scenario& scenario, std::vector<StreamedCollective> streamed = {});
    ~FlowRunner();

    RunStatus Run(const RunLimits& limits, const std::function<void(const Progress&)>& progress);

    /**
     * "summary", "flows", "series" and (with collectives) "jobs", as the packet model's; without
     * tables, those left empty in a headline result are not built (FlowResultAssembler).
     */
    nlohmann::ordered_json Results(bool tables = true);

    /** What the engine left out (the result's `caveats`). */
    nlohmann::ordered_json Caveats() const;

    uint64_t Events() const;

    /** What the rate solves cost: {rate_solves... } for the result's perf. */
    nlohmann::ordered_json Work() const;
    uint64_t SimTimeNs() const;

  private:
    const Scenario& m_scenario;
    std::unique_ptr<FlowRouting> m_routing;
    std::unique_ptr<FlowEngine> m_engine;
    std::unique_ptr<RingStreams> m_streams;
};

} // namespace flow
} // namespace fabric

#endif
