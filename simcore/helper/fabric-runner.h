/*
 * The boundary between the scenario layer and the network model.
 * The model half (simcore/model, simcore/helper) implements FabricRunner.
 */
#ifndef FABRIC_RUNNER_H
#define FABRIC_RUNNER_H

#include "model/fabric-config.h"
#include "scenario/run-limits.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <functional>
#include <memory>

namespace fabric
{

class FabricRun;

/**
 * Builds the ns-3 fabric for a resolved scenario, runs it and reports results.
 * One instance per process run (ns-3's simulator is a singleton).
 */
class FabricRunner
{
  public:
    explicit FabricRunner(const Scenario& scenario);
    /** Takes the scenario over instead of copying it (fabricsim run). */
    explicit FabricRunner(Scenario&& scenario);
    ~FabricRunner();

    /** Runs to scenario.durationNs or until a limit; calls progress at most every 0.5 s wall. */
    RunStatus Run(const RunLimits& limits, const std::function<void(const Progress&)>& progress);

    /**
     * "summary", "flows" and "series" objects exactly as docs/result-format.md describes
     * (keys in documented order). Deterministic for a given scenario.
     */
    nlohmann::ordered_json Results() const;

    uint64_t Events() const;
    uint64_t PacketsTx() const;
    uint64_t SimTimeNs() const;
    /**
     * How the run used threads (the result's perf.parallel): threads asked, partitions used,
     * lookahead, windows, frames handed between partitions, events per partition.
     */
    nlohmann::ordered_json Parallel() const;

    /** The simulated run and its parts (helper/fabric-run.h), for tests and examples. */
    FabricRun& Fabric();
    /** The scenario the run keeps (its own copy, or the one it took over). */
    const Scenario& GetScenario() const;

  private:
    std::unique_ptr<FabricRun> m_impl;
    uint32_t m_threads = 1;
};

} // namespace fabric

#endif
