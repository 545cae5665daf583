#include "helper/flow-dependencies.h"

#include "model/rdma-nic.h"
#include "scenario/dependency-rules.h"

#include "ns3/callback.h"
#include "ns3/simulator.h"

#include <algorithm>

namespace fabric
{

bool
FlowDependencyTracker::Needed(const Scenario& scenario)
{
    if (!scenario.deps.Empty())
    {
        return true;
    }
    return std::any_of(scenario.flows.begin(), scenario.flows.end(),
                       [](const FlowSpec& f) { return f.local; });
}

bool
FlowDependencyTracker::Held(const Scenario& scenario, uint32_t flow)
{
    return scenario.flows[flow].local || scenario.deps.Waits(flow);
}

FlowDependencyTracker::FlowDependencyTracker(const Scenario& scenario, FabricContext& ctx,
                                             const std::vector<RdmaNic*>& nics,
                                             std::vector<int64_t> ackReturnPs)
    : m_scenario(scenario),
      m_ctx(ctx),
      m_nics(nics),
      m_ackReturnPs(std::move(ackReturnPs))
{
    DependentsIndex index = InvertDependencies(scenario.deps, scenario.flows.size());
    m_pending = std::move(index.pending);
    m_depBegin = std::move(index.begin);
    m_dependents = std::move(index.dependents);
    m_readyPs.assign(scenario.flows.size(), 0);
}

void
FlowDependencyTracker::Start()
{
    for (RdmaNic* nic : m_nics)
    {
        if (nic)
        {
            nic->TraceConnectWithoutContext(
                "FlowComplete", ns3::MakeCallback(&FlowDependencyTracker::OnComplete, this));
        }
    }
    for (uint32_t i = 0; i < m_scenario.flows.size(); ++i)
    {
        if (m_scenario.flows[i].local && m_pending[i] == 0)
        {
            Release(i);
        }
    }
}

void
FlowDependencyTracker::OnComplete(uint32_t flow)
{
    if (m_depBegin.size() <= flow + 1)
    {
        return;
    }
    int64_t now = ns3::Simulator::Now().GetPicoSeconds();
    const FlowSpec& input = m_scenario.flows[flow];
    for (uint32_t k = m_depBegin[flow]; k < m_depBegin[flow + 1]; ++k)
    {
        uint32_t d = m_dependents[k];
        const FlowSpec& waiting = m_scenario.flows[d];
        int64_t back = flow < m_ackReturnPs.size() ? m_ackReturnPs[flow] : 0;
        if (Acknowledged(input, waiting) && back > 0)
        {
            // The sender learns of it when the last ACK is back: an event of the sender, which
            // in a parallel run may belong to another partition (handed over at the window's end).
            ns3::Simulator::ScheduleWithContext(waiting.src, ns3::PicoSeconds(back),
                                                &FlowDependencyTracker::Acknowledge, this, d);
            continue;
        }
        Satisfy(d, now + static_cast<int64_t>(m_scenario.deps.gapNs[d]) * 1000);
    }
}

void
FlowDependencyTracker::Acknowledge(uint32_t flow)
{
    Satisfy(flow, ns3::Simulator::Now().GetPicoSeconds() +
                      static_cast<int64_t>(m_scenario.deps.gapNs[flow]) * 1000);
}

void
FlowDependencyTracker::Satisfy(uint32_t flow, int64_t readyPs)
{
    m_readyPs[flow] = std::max(m_readyPs[flow], readyPs);
    if (--m_pending[flow] == 0)
    {
        Release(flow);
    }
}

void
FlowDependencyTracker::Release(uint32_t flow)
{
    int64_t now = ns3::Simulator::Now().GetPicoSeconds();
    int64_t at = std::max(static_cast<int64_t>(m_scenario.flows[flow].startNs) * 1000,
                          m_readyPs[flow]);
    // The flow starts at its sender: an event of that node (a parallel run keeps the nodes a
    // dependency without acknowledgement joins in one partition, helper/partitioner.cc).
    ns3::Simulator::ScheduleWithContext(m_scenario.flows[flow].src,
                                        ns3::PicoSeconds(std::max<int64_t>(0, at - now)),
                                        &FlowDependencyTracker::Launch, this, flow);
}

void
FlowDependencyTracker::Launch(uint32_t flow)
{
    const FlowSpec& s = m_scenario.flows[flow];
    if (!s.local)
    {
        if (s.src < m_nics.size() && m_nics[s.src])
        {
            m_nics[s.src]->StartFlow(flow);
        }
        return;
    }
    FlowState& f = m_ctx.flows[flow];
    f.startPs = ns3::Simulator::Now().GetPicoSeconds();
    uint64_t ns = flow < m_scenario.jobFlows.size() ? m_scenario.jobFlows[flow].localNs : 0;
    // It completes at the receiving GPU, whose flows may wait for it.
    ns3::Simulator::ScheduleWithContext(m_scenario.flows[flow].dst,
                                        ns3::NanoSeconds(static_cast<int64_t>(ns)),
                                        &FlowDependencyTracker::FinishLocal, this, flow);
}

void
FlowDependencyTracker::FinishLocal(uint32_t flow)
{
    FlowState& f = m_ctx.flows[flow];
    f.completePs = ns3::Simulator::Now().GetPicoSeconds();
    f.bytesDelivered = m_scenario.flows[flow].sizeBytes;
    OnComplete(flow);
}

} // namespace fabric
