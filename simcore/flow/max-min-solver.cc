/*
 * MaxMinSolver (max-min-solver.h): flows and links kept, the closure of a change and the solve.
 * The short ways are in max-min-short-ways.cc, the progressive filling in max-min-filling.cc.
 */
#include "flow/max-min-solver.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace fabric
{
namespace flow
{

MaxMinSolver::MaxMinSolver(std::vector<double> capacityBps, double accountFromPs)
    : m_accountFromPs(accountFromPs)
{
    m_links.resize(capacityBps.size());
    for (std::size_t i = 0; i < capacityBps.size(); ++i)
    {
        m_links[i].capacity = capacityBps[i];
    }
}

double
MaxMinSolver::SentBits(uint32_t handle, double nowPs) const
{
    const Flow& f = m_flows[handle];
    return f.sentBits + (nowPs > f.lastPs ? f.rate * (nowPs - f.lastPs) * 1e-12 : 0.0);
}

double
MaxMinSolver::CarriedBits(uint32_t link, double endPs) const
{
    const Link& l = m_links[link];
    double from = std::max(l.lastPs, m_accountFromPs);
    return l.carriedBits + (endPs > from ? l.load * (endPs - from) * 1e-12 : 0.0);
}

void
MaxMinSolver::SetCapacity(double nowPs, uint32_t link, double capacityBps)
{
    Link& l = m_links[link];
    Account(l, nowPs);
    l.capacity = capacityBps;
    m_capacityChanged = true;
    if (!l.dirty)
    {
        l.dirty = true;
        m_dirty.push_back(link);
    }
}

uint32_t
MaxMinSolver::Add(double nowPs,
                  const std::vector<LinkShare>& data,
                  const std::vector<LinkShare>& acks,
                  double ackShare,
                  double capBps,
                  double sentBits)
{
    uint32_t h;
    if (!m_free.empty())
    {
        h = m_free.back();
        m_free.pop_back();
    }
    else
    {
        h = static_cast<uint32_t>(m_flows.size());
        m_flows.emplace_back();
    }
    Flow& f = m_flows[h];
    f.data.clear();
    f.acks.clear();
    f.cap = capBps;
    f.rate = 0;
    f.lastPs = nowPs;
    f.sentBits = sentBits;
    f.alive = true;
    f.fresh = true;
    for (const LinkShare& s : data)
    {
        Link& l = m_links[s.link];
        f.data.push_back(Use{s.link, s.share, static_cast<uint32_t>(l.users.size())});
        l.users.push_back(h);
        l.userWeights.push_back(s.share);
        if (!l.dirty)
        {
            l.dirty = true;
            m_dirty.push_back(s.link);
        }
    }
    for (const LinkShare& s : acks)
    {
        if (ackShare <= 0)
        {
            break;
        }
        Link& l = m_links[s.link];
        f.acks.push_back(Use{s.link, s.share * ackShare, static_cast<uint32_t>(l.ackUsers.size())});
        l.ackUsers.push_back(h);
        l.ackWeights.push_back(s.share * ackShare);
    }
    m_added.push_back(h);
    return h;
}

void
MaxMinSolver::Detach(uint32_t handle, std::vector<Use>& uses, bool ack)
{
    for (const Use& u : uses)
    {
        Link& l = m_links[u.link];
        std::vector<uint32_t>& list = ack ? l.ackUsers : l.users;
        std::vector<double>& weights = ack ? l.ackWeights : l.userWeights;
        uint32_t moved = list.back();
        list[u.slot] = moved;
        list.pop_back();
        weights[u.slot] = weights.back();
        weights.pop_back();
        if (moved != handle)
        {
            // the flow moved into the freed slot: point its use of this link there
            Flow& m = m_flows[moved];
            for (Use& mu : ack ? m.acks : m.data)
            {
                if (mu.link == u.link)
                {
                    mu.slot = u.slot;
                    break;
                }
            }
        }
        if (!l.dirty)
        {
            l.dirty = true;
            m_dirty.push_back(u.link);
        }
    }
}

void
MaxMinSolver::Remove(double nowPs, uint32_t handle)
{
    Flow& f = m_flows[handle];
    Advance(f, nowPs);
    if (m_fastPath && !m_capacityChanged)
    {
        // what the short ways need of it: what it used (a flow like it may take its place)
        // and whether it moves anyone by leaving
        Departure d;
        d.begin = static_cast<uint32_t>(m_departedUses.size());
        for (const Use& u : f.data)
        {
            m_departedUses.emplace_back(u.link, u.weight);
        }
        d.dataEnd = static_cast<uint32_t>(m_departedUses.size());
        for (const Use& u : f.acks)
        {
            m_departedUses.emplace_back(u.link, u.weight);
        }
        d.end = static_cast<uint32_t>(m_departedUses.size());
        d.cap = f.cap;
        d.rate = f.rate;
        d.fresh = f.fresh;
        m_departed.push_back(d);
        if (!m_departuresMove && !LeavesOthers(handle))
        {
            m_departuresMove = true;
        }
    }
    for (const Use& u : f.data)
    {
        Link& l = m_links[u.link];
        Account(l, nowPs);
        l.load = std::max(0.0, l.load - u.weight * f.rate);
    }
    for (const Use& u : f.acks)
    {
        Link& l = m_links[u.link];
        Account(l, nowPs);
        l.load = std::max(0.0, l.load - u.weight * f.rate);
    }
    Detach(handle, f.data, false);
    Detach(handle, f.acks, true);
    f.alive = false;
    f.rate = 0;
    f.data.clear();
    f.acks.clear();
    m_free.push_back(handle);
}

void
MaxMinSolver::Collect()
{
    ++m_epoch;
    m_closure.clear();
    m_closureLinks.clear();
    m_stack.clear();
    auto visitLink = [&](uint32_t li)
    {
        Link& l = m_links[li];
        if (l.mark == m_epoch)
        {
            return;
        }
        l.mark = m_epoch;
        m_closureLinks.push_back(li);
        m_stack.push_back(li);
    };
    for (uint32_t li : m_dirty)
    {
        m_links[li].dirty = false;
        visitLink(li);
    }
    m_dirty.clear();
    m_alone = true;
    while (!m_stack.empty())
    {
        uint32_t li = m_stack.back();
        m_stack.pop_back();
        m_alone = m_alone && m_links[li].users.size() <= 1;
        for (uint32_t h : m_links[li].users)
        {
            Flow& f = m_flows[h];
            if (f.mark == m_epoch)
            {
                continue;
            }
            f.mark = m_epoch;
            m_closure.push_back(h);
            for (const Use& u : f.data)
            {
                visitLink(u.link);
            }
            for (const Use& u : f.acks)
            {
                visitLink(u.link);
            }
        }
    }
    // in handle and link order: a sort, or where the closure holds much of them a scan
    if (m_closure.size() * kScanShare > m_flows.size())
    {
        m_closure.clear();
        for (uint32_t h = 0; h < m_flows.size(); ++h)
        {
            if (m_flows[h].mark == m_epoch)
            {
                m_closure.push_back(h);
            }
        }
    }
    else
    {
        std::sort(m_closure.begin(), m_closure.end());
    }
    if (m_alone && m_aloneWay)
    {
        // in the order visited: with one data use per link, no sum or choice depends on the
        // links' order (FillAlone)
    }
    else if (m_closureLinks.size() * kScanShare > m_links.size())
    {
        m_closureLinks.clear();
        for (uint32_t li = 0; li < m_links.size(); ++li)
        {
            if (m_links[li].mark == m_epoch)
            {
                m_closureLinks.push_back(li);
            }
        }
    }
    else
    {
        std::sort(m_closureLinks.begin(), m_closureLinks.end());
    }
    for (uint32_t i = 0; i < m_closure.size(); ++i)
    {
        m_flows[m_closure[i]].local = i;
    }
    for (uint32_t j = 0; j < m_closureLinks.size(); ++j)
    {
        m_links[m_closureLinks[j]].local = j;
    }
}

void
MaxMinSolver::Solve(double nowPs, std::vector<uint32_t>& changed)
{
    changed.clear();
    if (m_dirty.empty())
    {
        return;
    }
    bool shortWay =
        m_fastPath && !m_capacityChanged &&
        (TakesPlaces(nowPs, changed) || (!m_departuresMove && FitsAlone(nowPs, changed)));
    m_capacityChanged = false;
    m_departuresMove = false;
    m_added.clear();
    m_departed.clear();
    m_departedUses.clear();
    if (shortWay)
    {
        for (uint32_t li : m_dirty)
        {
            m_links[li].dirty = false;
        }
        m_dirty.clear();
        return;
    }
    Collect();
    // where no link of the closure carries two flows' data, each rate is its least constraint
    bool alone = m_alone && m_aloneWay;
    bool anyAcks = false;
    if (alone)
    {
        anyAcks = StartAlone();
    }
    else
    {
        Flatten();
        anyAcks = !m_ackValue.empty();
    }
    auto n = static_cast<uint32_t>(m_closure.size());
    m_flowsSolved += n;
    // The ACK load depends on the rates being solved for: each pass takes it from the rates of
    // the pass before (the first from the rates before the change), a fixed-point iteration
    // that shrinks the error by the ACKs' share of a link (2 % at MTU 4096, 8 % at MTU 1000)
    // per pass. Without ACKs on the closure's links one pass is exact.
    for (int pass = 0; pass < (anyAcks ? kMaxAckPasses : 1); ++pass)
    {
        if (alone)
        {
            FillAlone();
        }
        else
        {
            Fill();
        }
        ++m_passes;
        double moved = 0;
        for (uint32_t i = 0; i < n; ++i)
        {
            double x = m_next[i];
            moved = std::max(moved, std::fabs(x - m_value[i]) / std::max(x, 1.0));
            m_value[i] = x;
        }
        // The first pass too: its rates moved from those the ACK load was taken from (the new
        // flow's from 0) by at most the tolerance, so they are that close to the fixed point.
        if (moved <= kAckTolerance)
        {
            break;
        }
    }
    for (uint32_t li : m_closureLinks)
    {
        Account(m_links[li], nowPs);
    }
    for (uint32_t i = 0; i < n; ++i)
    {
        Flow& f = m_flows[m_closure[i]];
        f.fresh = false;
        if (m_next[i] != f.rate)
        {
            Advance(f, nowPs);
            f.rate = m_next[i];
            changed.push_back(m_closure[i]);
        }
    }
    // loads of the closure's links from scratch (no drift from repeated additions)
    for (uint32_t li : m_closureLinks)
    {
        Link& l = m_links[li];
        double load = 0;
        for (std::size_t i = 0; i < l.users.size(); ++i)
        {
            load += l.userWeights[i] * m_flows[l.users[i]].rate;
        }
        for (std::size_t i = 0; i < l.ackUsers.size(); ++i)
        {
            load += l.ackWeights[i] * m_flows[l.ackUsers[i]].rate;
        }
        l.load = load;
    }
}

} // namespace flow
} // namespace fabric
