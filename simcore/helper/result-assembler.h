/*
 * ResultAssembler: the result of a run (docs/result-format.md) from a read-only RunView: the
 * "summary" (throughput, link utilization, queues, PFC, FCT and slowdown, drops, conservation,
 * counters, ingress) and "flows" objects, the monitor's "series", and the optional blocks
 * (faults, pingmesh, transport, port counters, DCI accelerator; helper/result-reports.h) present
 * only when they have something to say. Every list is sorted by name or id.
 */
#ifndef FABRIC_RESULT_ASSEMBLER_H
#define FABRIC_RESULT_ASSEMBLER_H

#include "helper/run-view.h"
#include "model/fabric-device.h"

#include <nlohmann/json.hpp>

namespace fabric
{

/** Share of [warmupPs, endPs] a port spent serializing frames (0..1; docs/result-format.md). */
double LinkUtilization(const Port& port, int64_t warmupPs, int64_t endPs);

class ResultAssembler
{
  public:
    explicit ResultAssembler(const RunView& run);

    nlohmann::ordered_json Results() const;

  private:
    nlohmann::ordered_json Summary() const;
    nlohmann::ordered_json FlowRecords() const;

    RunView m_run;
};

} // namespace fabric

#endif
