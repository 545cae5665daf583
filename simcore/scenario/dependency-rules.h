/*
 * When a flow that waits for others learns that one of them completed (docs/model.md, "What a
 * sender learns, and when"), for both engines: the packet model's FlowDependencyTracker
 * (helper/flow-dependencies.h) and the flow engine (flow/flow-engine.h).
 */
#ifndef FABRIC_DEPENDENCY_RULES_H
#define FABRIC_DEPENDENCY_RULES_H

#include "model/fabric-config.h"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace fabric
{

/**
 * Whether `waiting` learns of `input`'s completion through the input's acknowledgement: the
 * waiting flow's sender sent input over the network (a connection's window, a rank's iteration
 * waiting for what it sent to arrive), so it knows when the last ACK is back (the idle path's
 * AckReturnPs after the completion). Any other completion is known at once.
 */
inline bool
LearnsByAck(const FlowSpec& input, const FlowSpec& waiting)
{
    return !input.local && waiting.src == input.src && input.src != input.dst;
}

/** A scenario's dependency rows inverted, for both engines' trackers. */
struct DependentsIndex
{
    std::vector<uint32_t> pending;    ///< per flow: how many flows it waits for
    std::vector<uint32_t> begin;      ///< flows + 1 offsets into dependents
    std::vector<uint32_t> dependents; ///< per flow, the flows waiting for it (in flow id order)
};

/** The flows waiting for each flow, from the rows of the flows each one waits for. */
DependentsIndex InvertDependencies(const FlowDependencies& d, std::size_t flows);

} // namespace fabric

#endif
