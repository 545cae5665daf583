/*
 * FlowDependencyTracker: starts the flows that wait for flows (Scenario::deps: a flow list's
 * `after`, a collective's steps) and carries a collective's NVLink steps (FlowSpec::local),
 * which send no packet. A waiting flow starts at max(its start time, the last completion at
 * the receiver among the flows it waits for + its gap); an NVLink step completes its
 * JobFlow::localNs after it starts. Built only when the scenario has either, so other runs
 * neither connect a trace nor keep a table.
 */
#ifndef FABRIC_FLOW_DEPENDENCIES_H
#define FABRIC_FLOW_DEPENDENCIES_H

#include "model/fabric-config.h"
#include "model/fabric-context.h"

#include <cstdint>
#include <vector>

namespace fabric
{

class RdmaNic;

class FlowDependencyTracker
{
  public:
    /** Whether a scenario needs one (some flow waits, or some step is an NVLink transfer). */
    static bool Needed(const Scenario& scenario);

    /** Flows the start order leaves to the tracker (waiting or NVLink). */
    static bool Held(const Scenario& scenario, uint32_t flow);

    FlowDependencyTracker(const Scenario& scenario, FabricContext& ctx,
                          const std::vector<RdmaNic*>& nics);

    /** At time 0: connects to every NIC's FlowComplete and releases held flows that wait for
     *  nothing (an iteration's first NVLink steps). */
    void Start();

  private:
    void OnComplete(uint32_t flow);
    void Release(uint32_t flow);
    void Launch(uint32_t flow);
    void FinishLocal(uint32_t flow);

    const Scenario& m_scenario;
    FabricContext& m_ctx;
    const std::vector<RdmaNic*>& m_nics;
    std::vector<uint32_t> m_pending;    ///< per flow: flows it still waits for
    std::vector<int64_t> m_readyPs;     ///< per flow: latest completion + gap so far
    std::vector<uint32_t> m_depBegin;   ///< per flow: offsets into m_dependents
    std::vector<uint32_t> m_dependents; ///< the flows waiting for it
};

} // namespace fabric

#endif
