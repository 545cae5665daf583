/*
 * The blocks of the result that the ResultAssembler (helper/result-assembler.h) composes, each
 * computed from a RunView (docs/result-format.md). One file per subject:
 *   accounting-report.cc   conservation of DATA bytes, counter blocks, ingress (MMU) charge
 *   fault-report.cc        "faults", "port_counters" and "pingmesh"
 *   transport-report.cc    "transport" (QP accounting) and flows[].erd
 *   accelerator-report.cc  "dci_accelerator"
 *   job-report.cc          "jobs" (collectives)
 */
#ifndef FABRIC_RESULT_REPORTS_H
#define FABRIC_RESULT_REPORTS_H

#include "helper/run-view.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <vector>

namespace fabric
{

/** DATA payload still in the network at the end, per flow (accounting-report.cc). */
struct InNetwork
{
    std::vector<uint64_t> onWire; ///< per flow index: frames on a link
    std::vector<uint64_t> queued; ///< per flow index: frames in a switch egress queue
};
InNetwork DataInNetwork(const RunView& run);
/** Whether some switch has switch.trimming (the result then reports trimmed frames). */
bool TrimmingEnabled(const Scenario& scenario);
/** summary.conservation: sent = received + dropped + in flight + queued, exactly. */
nlohmann::ordered_json ConservationReport(const RunView& run, const InNetwork& in);
/** summary.counters.whole_run / .after_warmup. */
nlohmann::ordered_json CounterBlock(const RunView& run, bool afterWarmup);
/** summary.ingress. */
nlohmann::ordered_json IngressReport(const RunView& run);

/** fault-report.cc */
bool HasProbes(const Scenario& scenario);
nlohmann::ordered_json FaultReport(const RunView& run);
nlohmann::ordered_json PingmeshReport(const RunView& run);
nlohmann::ordered_json PortCountersReport(const RunView& run);

/** Whether any NIC departs from RC, one process, unlimited QP cache (transport-report.cc). */
bool HasTransportReport(const RunView& run);
nlohmann::ordered_json TransportReport(const RunView& run);
bool IsErdFlow(const RunView& run, const FlowSpec& s);
nlohmann::ordered_json ErdFlowCounters(const FlowState& f);

/** accelerator-report.cc */
nlohmann::ordered_json AcceleratorReport(const RunView& run);

/** job-report.cc: one entry per collective job. */
nlohmann::ordered_json JobReport(const RunView& run);

} // namespace fabric

#endif
