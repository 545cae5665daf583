/*
 * What the flow engine cannot model, said in the result (docs/model.md, "Flow-level engine"):
 * one caveat per feature a scenario relies on that the engine leaves out (queues, PFC, ECN and
 * DCQCN, loss and retransmission, trimming, faults it does not replay, the DCI accelerator,
 * ...), each naming the scenario field it comes from; and the scenarios it refuses because
 * an answer without the feature would be meaningless (a PFC storm, a cyclic buffer dependency
 * under PFC: a deadlock), with one line naming the field.
 */
#ifndef FABRIC_FLOW_CAVEATS_H
#define FABRIC_FLOW_CAVEATS_H

#include "flow/flow-routing.h"
#include "model/fabric-config.h"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace fabric
{
namespace flow
{

/** One feature the flow engine leaves out of a result (result field `caveats`). */
struct Caveat
{
    std::string feature; ///< short name: "queues", "pfc", "congestion_control", ...
    std::string field;   ///< the scenario field that brings it in (JSON path)
    std::string message; ///< what the figures lack and where to get them
};

/**
 * Throws ScenarioError naming the field when the flow engine cannot give a meaningful answer
 * for the scenario: a PFC storm fault, or flows whose paths form a cyclic buffer dependency
 * between switches with PFC on (a deadlock).
 */
void CheckModelable(const Scenario& scenario, const FlowRouting& routing);

/** The caveats of a scenario the flow engine runs, in a fixed order. */
std::vector<Caveat> FlowCaveats(const Scenario& scenario);

/** [{feature, field, message}, ...] */
nlohmann::ordered_json CaveatsJson(const std::vector<Caveat>& caveats);

} // namespace flow
} // namespace fabric

#endif
