/*
 * FlowDependencyTracker's ring programs (Transfers::rings): the transfers of a ring collective
 * whose plan is not listed, each derived from the ring's shape when it is needed. The rules are
 * the listed plan's (collective-plan.cc) for a ring of one part per step, so a ring run as a
 * program and the same ring listed give the same bytes (ctest ring-program-test):
 *
 * - transfer (iteration i, step k) on connection (channel c, position p) waits for position
 *   p - 1's transfer of step k - 1 (k > 0); for step 0 of i > 0, for every transfer of
 *   iteration i - 1 that its sender sent or received (on any channel), + gapNs; and for the
 *   transfer `window` messages before it on its connection;
 * - it is learnt of as the listed plan's are (LearnsByAck), and the waiting transfers of one
 *   completion are served in transfer order, one per input that names it.
 */
#include "helper/flow-dependencies.h"
#include "model/rdma-nic.h"
#include "ns3/simulator.h"

#include <algorithm>

namespace fabric
{

FlowDependencyTracker::RingTransfer
FlowDependencyTracker::DecodeRing(uint32_t transfer) const
{
    const std::vector<RingProgram>& rings = m_scenario.transfers.rings;
    RingTransfer x;
    while (x.ring + 1 < rings.size() && rings[x.ring + 1].base <= transfer)
    {
        ++x.ring;
    }
    const RingProgram& r = rings[x.ring];
    uint64_t offset = transfer - r.base;
    uint64_t per = r.PerConnection();
    x.connection = static_cast<uint32_t>(offset / per);
    x.message = static_cast<uint32_t>(offset % per);
    x.iteration = x.message / r.steps;
    x.step = x.message % r.steps;
    return x;
}

uint32_t
FlowDependencyTracker::RingInputs(const RingProgram& r, const RingTransfer& x) const
{
    uint32_t n = 0;
    if (x.step > 0)
    {
        ++n; // the block position p - 1 sent in the step before
    }
    else if (x.iteration > 0)
    {
        n += 2 * r.channels * r.steps; // what the sender sent and received in the iteration before
    }
    if (x.message >= r.window)
    {
        ++n; // the connection's window
    }
    return n;
}

uint64_t
FlowDependencyTracker::GapNs(uint32_t transfer) const
{
    if (!IsRing(transfer))
    {
        return m_scenario.transfers.deps.gapNs[transfer];
    }
    RingTransfer x = DecodeRing(transfer);
    return x.iteration > 0 && x.step == 0 ? m_scenario.transfers.rings[x.ring].gapNs : 0;
}

uint32_t
FlowDependencyTracker::RingFlow(uint32_t transfer) const
{
    RingTransfer x = DecodeRing(transfer);
    return m_scenario.transfers.rings[x.ring].flows[x.connection];
}

void
FlowDependencyTracker::RingDependents(const RingTransfer& x, std::vector<uint32_t>& out) const
{
    const RingProgram& r = m_scenario.transfers.rings[x.ring];
    uint64_t per = r.PerConnection();
    uint32_t c = x.connection / r.ranks;
    uint32_t p = x.connection % r.ranks;
    uint32_t next = c * r.ranks + (p + 1) % r.ranks;
    auto index = [&](uint32_t connection, uint64_t message)
    {
        return static_cast<uint32_t>(r.base + connection * per + message);
    };
    out.clear();
    if (x.step + 1 < r.steps)
    {
        out.push_back(index(next, x.message + 1));
    }
    if (x.message + static_cast<uint64_t>(r.window) < per)
    {
        out.push_back(index(x.connection, x.message + r.window));
    }
    if (x.iteration + 1 < r.iterations)
    {
        // step 0 of the next iteration, on every channel, of the two ranks it touched
        uint64_t first = static_cast<uint64_t>(x.iteration + 1) * r.steps;
        for (uint32_t rank : {r.rankAt[x.connection], r.rankAt[next]})
        {
            for (uint32_t ch = 0; ch < r.channels; ++ch)
            {
                std::size_t at = static_cast<std::size_t>(ch) * r.ranks;
                out.push_back(index(static_cast<uint32_t>(at + r.posOf[at + rank]), first));
            }
        }
    }
    std::sort(out.begin(), out.end());
}

std::size_t
FlowDependencyTracker::RecordSlot() const
{
    // (each partition's thread records its own: a step's transfers post and complete in any)
    return t_partitionCounters
               ? 1 + static_cast<std::size_t>(t_partitionCounters - m_ctx.partitionCounters.data())
               : 0;
}

void
FlowDependencyTracker::StartRings()
{
    const Transfers& tr = m_scenario.transfers;
    if (tr.rings.empty())
    {
        return;
    }
    m_ctx.ringSteps.assign(1 + m_ctx.partitionCounters.size(),
                           std::vector<RingStepTimes>(m_ringSlots));
    for (const RingProgram& r : tr.rings)
    {
        // only the first message of each connection waits for nothing
        for (uint32_t q = 0; q < r.flows.size(); ++q)
        {
            auto t = static_cast<uint32_t>(r.base + q * r.PerConnection());
            const FlowSpec& f = m_scenario.flows[r.flows[q]];
            int64_t now = ns3::Simulator::Now().GetPicoSeconds();
            int64_t at = static_cast<int64_t>(f.startNs) * 1000;
            ns3::Simulator::ScheduleWithContext(f.src,
                                                ns3::PicoSeconds(std::max<int64_t>(0, at - now)),
                                                &FlowDependencyTracker::ReadyTransfer, this, t);
        }
    }
}

void
FlowDependencyTracker::SatisfyRing(uint32_t transfer, int64_t readyPs)
{
    RingTransfer x = DecodeRing(transfer);
    const RingProgram& r = m_scenario.transfers.rings[x.ring];
    RingConnection& c = m_rings[x.ring].connections[x.connection];
    auto it = std::find_if(c.waits.begin(), c.waits.end(),
                           [&](const RingWait& w) { return w.message == x.message; });
    if (it == c.waits.end())
    {
        c.waits.push_back({x.message, RingInputs(r, x), 0});
        it = c.waits.end() - 1;
    }
    it->readyPs = std::max(it->readyPs, readyPs);
    if (--it->pending > 0)
    {
        return;
    }
    int64_t ready = it->readyPs;
    c.waits.erase(it);
    const FlowSpec& f = m_scenario.flows[r.flows[x.connection]];
    int64_t now = ns3::Simulator::Now().GetPicoSeconds();
    int64_t at = std::max(static_cast<int64_t>(f.startNs) * 1000, ready);
    ns3::Simulator::ScheduleWithContext(f.src, ns3::PicoSeconds(std::max<int64_t>(0, at - now)),
                                        &FlowDependencyTracker::ReadyTransfer, this, transfer);
}

void
FlowDependencyTracker::ReadyRing(uint32_t transfer)
{
    RingTransfer x = DecodeRing(transfer);
    const RingProgram& r = m_scenario.transfers.rings[x.ring];
    RingRun& run = m_rings[x.ring];
    RingConnection& c = run.connections[x.connection];
    c.ready.push_back(x.message);
    uint32_t flow = r.flows[x.connection];
    const FlowSpec& f = m_scenario.flows[flow];
    int64_t now = ns3::Simulator::Now().GetPicoSeconds();
    uint32_t channel = x.connection / r.ranks;
    std::vector<RingStepTimes>& steps = m_ctx.ringSteps[RecordSlot()];
    // In order: the connection posts its next transfers while they are ready.
    for (auto it = std::find(c.ready.begin(), c.ready.end(), c.nextPost); it != c.ready.end();
         it = std::find(c.ready.begin(), c.ready.end(), c.nextPost))
    {
        c.ready.erase(it);
        uint32_t m = c.nextPost++;
        c.startPs[m % c.startPs.size()] = now;
        RingStepTimes& st =
            steps[RingStepSlot(r, run.firstSlot, m / r.steps, channel, m % r.steps)];
        ++st.posted;
        st.firstStartPs = std::min(st.firstStartPs, now);
        FlowState& state = m_ctx.flows[flow];
        auto t = static_cast<uint32_t>(r.base + x.connection * r.PerConnection() + m);
        if (f.local)
        {
            if (!state.started)
            {
                state.started = true;
                state.startPs = now;
            }
            ns3::Simulator::ScheduleWithContext(
                f.dst, ns3::NanoSeconds(static_cast<int64_t>(r.nvlinkNs)),
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
FlowDependencyTracker::CompleteRing(uint32_t transfer, int64_t now)
{
    RingTransfer x = DecodeRing(transfer);
    const RingProgram& r = m_scenario.transfers.rings[x.ring];
    RingRun& run = m_rings[x.ring];
    RingConnection& c = run.connections[x.connection];
    // (read before the dependents are served: the sender reuses the slot only after it learns
    // of this completion)
    int64_t startPs = c.startPs[x.message % c.startPs.size()];
    uint32_t channel = x.connection / r.ranks;
    RingStepTimes& st =
        m_ctx.ringSteps[RecordSlot()][RingStepSlot(r, run.firstSlot, x.iteration, channel, x.step)];
    ++st.completed;
    st.lastCompletePs = std::max(st.lastCompletePs, now);
    int64_t took = now - startPs;
    if (took > st.slowestPs || (took == st.slowestPs && transfer < st.slowestIndex))
    {
        st.slowestPs = took;
        st.slowestIndex = transfer;
        st.slowestFlow = r.flows[x.connection];
    }
    uint32_t in = r.flows[x.connection];
    const FlowSpec& input = m_scenario.flows[in];
    int64_t back = in < m_ackReturnPs.size() ? m_ackReturnPs[in] : 0;
    thread_local std::vector<uint32_t> dependents;
    RingDependents(x, dependents);
    for (uint32_t d : dependents)
    {
        const FlowSpec& waiting = m_scenario.flows[RingFlow(d)];
        if (Acknowledged(input, waiting) && back > 0)
        {
            ns3::Simulator::ScheduleWithContext(waiting.src, ns3::PicoSeconds(back),
                                                &FlowDependencyTracker::AcknowledgeTransfer, this,
                                                d);
            continue;
        }
        SatisfyTransfer(d, now + static_cast<int64_t>(GapNs(d)) * 1000);
    }
}

} // namespace fabric
