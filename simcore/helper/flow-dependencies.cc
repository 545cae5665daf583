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
    if (!scenario.deps.Empty() || scenario.transfers.Any())
    {
        return true;
    }
    return std::any_of(scenario.flows.begin(), scenario.flows.end(),
                       [](const FlowSpec& f) { return f.local; });
}

bool
FlowDependencyTracker::Held(const Scenario& scenario, uint32_t flow)
{
    return scenario.flows[flow].local || scenario.deps.Waits(flow) ||
           scenario.transfers.Carries(flow);
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
    const Transfers& tr = scenario.transfers;
    if (!tr.Empty())
    {
        DependentsIndex t = InvertDependencies(tr.deps, tr.Size());
        m_tPending = std::move(t.pending);
        m_tDepBegin = std::move(t.begin);
        m_tDependents = std::move(t.dependents);
        m_tReadyPs.assign(tr.Size(), 0);
        m_tReady.assign(tr.Size(), 0);
        m_nextPost.assign(tr.flowBegin.begin(), tr.flowBegin.end() - 1);
        m_ctx.transferStartPs.assign(tr.Size(), -1);
        m_ctx.transferCompletePs.assign(tr.Size(), -1);
    }
    for (const RingProgram& r : tr.rings)
    {
        RingRun run;
        run.firstSlot = m_ringSlots;
        m_ringSlots += static_cast<std::size_t>(r.iterations) * r.channels * r.steps;
        // (at most window messages are posted and not completed: message m waits for m - window)
        std::size_t keep = static_cast<std::size_t>(std::min<uint64_t>(r.window, r.PerConnection())) + 1;
        run.connections.resize(r.flows.size());
        for (RingConnection& c : run.connections)
        {
            c.startPs.assign(keep, -1);
        }
        m_rings.push_back(std::move(run));
    }
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
    const Transfers& tr = m_scenario.transfers;
    for (RdmaNic* nic : m_nics)
    {
        if (nic && tr.Any())
        {
            nic->TraceConnectWithoutContext(
                "MessageComplete",
                ns3::MakeCallback(&FlowDependencyTracker::OnTransferComplete, this));
        }
    }
    for (uint32_t i = 0; i < m_scenario.flows.size(); ++i)
    {
        if (m_scenario.flows[i].local && m_pending[i] == 0 && !tr.Carries(i))
        {
            Release(i);
        }
    }
    for (uint32_t t = 0; t < tr.Size(); ++t)
    {
        if (m_tPending[t] == 0)
        {
            ReleaseTransfer(t);
        }
    }
    StartRings();
}

void
FlowDependencyTracker::OnTransferComplete(uint32_t transfer)
{
    int64_t now = ns3::Simulator::Now().GetPicoSeconds();
    if (IsRing(transfer))
    {
        CompleteRing(transfer, now);
        return;
    }
    m_ctx.transferCompletePs[transfer] = now;
    const Transfers& tr = m_scenario.transfers;
    const FlowSpec& input = m_scenario.flows[tr.flow[transfer]];
    for (uint32_t k = m_tDepBegin[transfer]; k < m_tDepBegin[transfer + 1]; ++k)
    {
        uint32_t d = m_tDependents[k];
        const FlowSpec& waiting = m_scenario.flows[tr.flow[d]];
        uint32_t in = tr.flow[transfer];
        int64_t back = in < m_ackReturnPs.size() ? m_ackReturnPs[in] : 0;
        if (Acknowledged(input, waiting) && back > 0)
        {
            ns3::Simulator::ScheduleWithContext(waiting.src, ns3::PicoSeconds(back),
                                                &FlowDependencyTracker::AcknowledgeTransfer, this, d);
            continue;
        }
        SatisfyTransfer(d, now + static_cast<int64_t>(tr.deps.gapNs[d]) * 1000);
    }
}

void
FlowDependencyTracker::AcknowledgeTransfer(uint32_t transfer)
{
    SatisfyTransfer(transfer, ns3::Simulator::Now().GetPicoSeconds() +
                                  static_cast<int64_t>(GapNs(transfer)) * 1000);
}

void
FlowDependencyTracker::SatisfyTransfer(uint32_t transfer, int64_t readyPs)
{
    if (IsRing(transfer))
    {
        SatisfyRing(transfer, readyPs);
        return;
    }
    m_tReadyPs[transfer] = std::max(m_tReadyPs[transfer], readyPs);
    if (--m_tPending[transfer] == 0)
    {
        ReleaseTransfer(transfer);
    }
}

void
FlowDependencyTracker::ReleaseTransfer(uint32_t transfer)
{
    const Transfers& tr = m_scenario.transfers;
    const FlowSpec& f = m_scenario.flows[tr.flow[transfer]];
    int64_t now = ns3::Simulator::Now().GetPicoSeconds();
    int64_t startPs = static_cast<int64_t>(f.startNs) * 1000;
    // with inputs: when the last is known + the gap (FlowDependencies); without: the job's
    // start + the gap (a marker's compute before anything)
    int64_t at = tr.deps.Waits(transfer)
                     ? std::max(startPs, m_tReadyPs[transfer])
                     : startPs + static_cast<int64_t>(tr.deps.gapNs[transfer]) * 1000;
    ns3::Simulator::ScheduleWithContext(f.src, ns3::PicoSeconds(std::max<int64_t>(0, at - now)),
                                        &FlowDependencyTracker::ReadyTransfer, this, transfer);
}

void
FlowDependencyTracker::ReadyTransfer(uint32_t transfer)
{
    if (IsRing(transfer))
    {
        ReadyRing(transfer);
        return;
    }
    const Transfers& tr = m_scenario.transfers;
    uint32_t flow = tr.flow[transfer];
    m_tReady[transfer] = 1;
    const FlowSpec& f = m_scenario.flows[flow];
    int64_t now = ns3::Simulator::Now().GetPicoSeconds();
    // In order: the connection posts its next transfers while they are ready.
    while (m_nextPost[flow] < tr.flowBegin[flow + 1] && m_tReady[m_nextPost[flow]])
    {
        uint32_t t = m_nextPost[flow]++;
        m_ctx.transferStartPs[t] = now;
        FlowState& st = m_ctx.flows[flow];
        if (f.local)
        {
            if (!st.started)
            {
                st.started = true;
                st.startPs = now;
            }
            ns3::Simulator::ScheduleWithContext(f.dst,
                                                ns3::NanoSeconds(static_cast<int64_t>(tr.job[t].localNs)),
                                                &FlowDependencyTracker::FinishLocalTransfer, this, t);
            continue;
        }
        if (f.src < m_nics.size() && m_nics[f.src])
        {
            m_nics[f.src]->PostMessage(flow);
        }
    }
}

void
FlowDependencyTracker::FinishLocalTransfer(uint32_t transfer)
{
    const Transfers& tr = m_scenario.transfers;
    if (IsRing(transfer))
    {
        RingTransfer x = DecodeRing(transfer);
        const RingProgram& r = tr.rings[x.ring];
        FlowState& f = m_ctx.flows[r.flows[x.connection]];
        f.bytesDelivered += r.blockBytes;
        if (++f.msgDone == r.PerConnection())
        {
            f.completePs = ns3::Simulator::Now().GetPicoSeconds();
        }
        OnTransferComplete(transfer);
        return;
    }
    FlowState& f = m_ctx.flows[tr.flow[transfer]];
    uint32_t flow = tr.flow[transfer];
    f.bytesDelivered += tr.bytes[transfer];
    if (++f.msgDone == tr.flowBegin[flow + 1] - tr.flowBegin[flow])
    {
        f.completePs = ns3::Simulator::Now().GetPicoSeconds();
    }
    OnTransferComplete(transfer);
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
