/*
 * FlowResultAssembler: "summary", "flows", "series" and "jobs" of a flow-level run, in the
 * result format of docs/result-format.md (the packet model's ResultAssembler's keys and order).
 * What the flow engine does not model has no figure of its own: queues, ECN marks, PFC pauses,
 * drops and retransmissions are reported as 0 and the result's `caveats` (flow-caveats.h) say
 * so; series carry no samples.
 */
#ifndef FABRIC_FLOW_RESULT_H
#define FABRIC_FLOW_RESULT_H

#include "flow/flow-engine.h"
#include "flow/ring-streams.h"

#include <nlohmann/json.hpp>

namespace fabric
{
namespace flow
{

class FlowResultAssembler
{
  public:
    /** streams: the ring collectives run as streams (nullptr: none). */
    FlowResultAssembler(const Scenario& scenario, FlowEngine& engine, const RingStreams* streams);

    /**
     * {summary, flows, series} and, with collectives, jobs. Without tables (`fabricsim run
     * --result headline`) the flow records, host throughput, link utilization and jobs' links
     * are not built: left empty, as the headline result leaves them.
     */
    nlohmann::ordered_json Results(bool tables = true);

  private:
    nlohmann::ordered_json Summary(bool tables);
    nlohmann::ordered_json FlowRecords();
    nlohmann::ordered_json Series() const;
    nlohmann::ordered_json Jobs(bool tables);
    /** Ideal FCT of a network flow on its path (the packet model's formula), ps; 0: none. */
    double IdealPs(uint32_t flow);
    /** Each job's "links" (payload bytes and frames per direction), from its transfers' routes. */
    std::vector<nlohmann::ordered_json> JobLinks();

    const Scenario& m_scenario;
    FlowEngine& m_engine;
    const RingStreams* m_streams;
};

} // namespace flow
} // namespace fabric

#endif
