/*
 * When a flow that waits for others learns that one of them completed (docs/model.md, "What a
 * sender learns, and when"), for both engines: the packet model's FlowDependencyTracker
 * (helper/flow-dependencies.h) and the flow engine (flow/flow-engine.h).
 */
#ifndef FABRIC_DEPENDENCY_RULES_H
#define FABRIC_DEPENDENCY_RULES_H

#include "model/fabric-config.h"

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

} // namespace fabric

#endif
