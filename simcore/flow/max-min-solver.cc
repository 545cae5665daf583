#include "flow/max-min-solver.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <queue>

namespace fabric
{
namespace flow
{

namespace
{

/** A candidate level of the filling: a link's fair share, or a flow's own cap. */
struct Level
{
    double value;
    uint32_t id; ///< link index, or flow handle for a cap
    bool cap;

    bool operator>(const Level& o) const
    {
        if (value != o.value)
        {
            return value > o.value;
        }
        if (cap != o.cap)
        {
            return cap; // at one level links first: the order does not change the rates
        }
        return id > o.id;
    }
};

/** At most this many passes of progressive filling per solve (ACK load of the pass before). */
constexpr int kMaxAckPasses = 8;
/** ... until no rate moves by more than this share of itself (results print 6 digits). */
constexpr double kAckTolerance = 1e-9;

} // namespace

MaxMinSolver::MaxMinSolver(std::vector<double> capacityBps, double accountFromPs)
    : m_accountFromPs(accountFromPs)
{
    m_links.resize(capacityBps.size());
    for (std::size_t i = 0; i < capacityBps.size(); ++i)
    {
        m_links[i].capacity = capacityBps[i];
    }
}

void
MaxMinSolver::Account(Link& l, double nowPs)
{
    double from = std::max(l.lastPs, m_accountFromPs);
    if (nowPs > from && l.load > 0)
    {
        l.carriedBits += l.load * (nowPs - from) * 1e-12;
    }
    l.lastPs = std::max(l.lastPs, nowPs);
}

void
MaxMinSolver::Advance(Flow& f, double nowPs)
{
    if (nowPs > f.lastPs)
    {
        f.sentBits += f.rate * (nowPs - f.lastPs) * 1e-12;
        f.lastPs = nowPs;
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
    f.frozen = false;
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
    std::vector<uint32_t> stack;
    auto visitLink = [&](uint32_t li)
    {
        Link& l = m_links[li];
        if (l.mark == m_epoch)
        {
            return;
        }
        l.mark = m_epoch;
        m_closureLinks.push_back(li);
        stack.push_back(li);
    };
    for (uint32_t li : m_dirty)
    {
        m_links[li].dirty = false;
        visitLink(li);
    }
    m_dirty.clear();
    while (!stack.empty())
    {
        uint32_t li = stack.back();
        stack.pop_back();
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
    std::sort(m_closure.begin(), m_closure.end());
    std::sort(m_closureLinks.begin(), m_closureLinks.end());
}

void
MaxMinSolver::Fill()
{
    // Capacity left to data on each link: its capacity less every ACK stream on it (at the
    // rates in `next` for the closure, which Solve seeds with the current rates).
    for (uint32_t li : m_closureLinks)
    {
        Link& l = m_links[li];
        double acks = 0;
        for (std::size_t i = 0; i < l.ackUsers.size(); ++i)
        {
            const Flow& f = m_flows[l.ackUsers[i]];
            acks += l.ackWeights[i] * (f.mark == m_epoch ? f.next : f.rate);
        }
        l.remaining = std::max(0.0, l.capacity - acks);
        l.weights = 0;
    }
    std::priority_queue<Level, std::vector<Level>, std::greater<Level>> heap;
    for (uint32_t h : m_closure)
    {
        Flow& f = m_flows[h];
        f.frozen = false;
        for (const Use& u : f.data)
        {
            m_links[u.link].weights += u.weight;
        }
        if (std::isfinite(f.cap))
        {
            heap.push(Level{f.cap, h, true});
        }
    }
    for (uint32_t li : m_closureLinks)
    {
        const Link& l = m_links[li];
        if (l.weights > 0)
        {
            heap.push(Level{l.remaining / l.weights, li, false});
        }
    }
    double level = 0;
    std::size_t unfrozen = m_closure.size();
    // Freezing a flow changes the share of each of its links; a link's new share goes into the
    // heap once per round (after every flow of the round froze), not once per flow.
    std::vector<uint32_t> touched;
    ++m_round;
    auto freeze = [&](uint32_t h, double rate)
    {
        Flow& f = m_flows[h];
        f.frozen = true;
        f.next = rate;
        --unfrozen;
        for (const Use& u : f.data)
        {
            Link& l = m_links[u.link];
            l.remaining = std::max(0.0, l.remaining - u.weight * rate);
            l.weights -= u.weight;
            if (l.round != m_round)
            {
                l.round = m_round;
                touched.push_back(u.link);
            }
        }
    };
    auto requeue = [&]()
    {
        for (uint32_t li : touched)
        {
            Link& l = m_links[li];
            if (l.weights > 1e-12)
            {
                heap.push(Level{l.remaining / l.weights, li, false});
            }
            else
            {
                l.weights = 0;
            }
        }
        touched.clear();
        ++m_round;
    };
    while (unfrozen > 0 && !heap.empty())
    {
        Level top = heap.top();
        heap.pop();
        if (top.cap)
        {
            if (!m_flows[top.id].frozen)
            {
                level = std::max(level, top.value);
                freeze(top.id, level);
                requeue();
            }
            continue;
        }
        Link& l = m_links[top.id];
        if (l.weights <= 0 || top.value != l.remaining / l.weights)
        {
            continue; // stale: a newer entry of this link is in the heap
        }
        level = std::max(level, top.value);
        // every unfrozen flow with data on the full link stops at this level
        for (uint32_t h : l.users)
        {
            if (m_flows[h].mark == m_epoch && !m_flows[h].frozen)
            {
                freeze(h, level);
            }
        }
        requeue();
    }
    for (uint32_t h : m_closure)
    {
        if (!m_flows[h].frozen)
        {
            m_flows[h].next = 0; // no link and no cap: cannot happen with a valid route
        }
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
    Collect();
    m_flowsSolved += m_closure.size();
    for (uint32_t h : m_closure)
    {
        m_flows[h].next = m_flows[h].rate;
    }
    // The ACK load depends on the rates being solved for: each pass takes it from the rates of
    // the pass before (the first from the rates before the change), a fixed-point iteration
    // that shrinks the error by the ACKs' share of a link (2 % at MTU 4096, 8 % at MTU 1000)
    // per pass. Without ACKs on the closure's links one pass is exact.
    bool acks = false;
    for (uint32_t li : m_closureLinks)
    {
        acks = acks || !m_links[li].ackUsers.empty();
    }
    std::vector<double>& before = m_scratch;
    for (int pass = 0; pass < (acks ? kMaxAckPasses : 1); ++pass)
    {
        before.clear();
        for (uint32_t h : m_closure)
        {
            before.push_back(m_flows[h].next);
        }
        Fill();
        ++m_passes;
        double moved = 0;
        for (std::size_t i = 0; i < m_closure.size(); ++i)
        {
            double x = m_flows[m_closure[i]].next;
            moved = std::max(moved, std::fabs(x - before[i]) / std::max(x, 1.0));
        }
        if (pass > 0 && moved <= kAckTolerance)
        {
            break;
        }
    }
    for (uint32_t li : m_closureLinks)
    {
        Account(m_links[li], nowPs);
    }
    for (uint32_t h : m_closure)
    {
        Flow& f = m_flows[h];
        if (f.next != f.rate)
        {
            Advance(f, nowPs);
            f.rate = f.next;
            changed.push_back(h);
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
