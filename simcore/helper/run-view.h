/*
 * RunView: the read-only view of one run that the result assembler and its reports read: the
 * scenario, the shared per-flow state and counters, the built network, the fault schedule, the
 * monitor's series and the controller's clock. Nothing reached through it is changed.
 */
#ifndef FABRIC_RUN_VIEW_H
#define FABRIC_RUN_VIEW_H

#include "model/fabric-context.h"

namespace fabric
{

class FaultSchedule;
class NetworkBuilder;
class RunController;
class RunMonitor;

struct RunView
{
    const Scenario& scenario;
    const FabricContext& ctx;
    const NetworkBuilder& network;
    const FaultSchedule& faults;
    const RunMonitor& monitor;
    const RunController& controller;
};

} // namespace fabric

#endif
