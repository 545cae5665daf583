/*
 * MaxMinSolver's short ways (max-min-solver.h, file comment): a change that moves no other flow
 * (a departure from links where no one else is held, an arrival that fits in its links' room) and
 * a connection's next transfer taking the place of the one that has just left.
 */
#include "flow/max-min-solver.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace fabric
{
namespace flow
{

bool
MaxMinSolver::Full(const Link& l) const
{
    return l.capacity - l.load <= kFullShare * l.capacity;
}

bool
MaxMinSolver::LeavesOthers(uint32_t handle) const
{
    // Another flow's rate rises when this one leaves only if it is held at a link this one
    // frees: a full link of its data where it has this one's rate (flows held elsewhere have
    // less), or a full link of its ACKs.
    const Flow& f = m_flows[handle];
    if (f.rate <= 0)
    {
        return true;
    }
    for (const Use& u : f.data)
    {
        const Link& l = m_links[u.link];
        if (!Full(l))
        {
            continue;
        }
        for (uint32_t g : l.users)
        {
            if (g != handle && m_flows[g].rate >= f.rate * (1 - kFullShare))
            {
                return false;
            }
        }
    }
    for (const Use& u : f.acks)
    {
        if (Full(m_links[u.link]))
        {
            return false;
        }
    }
    return true;
}

bool
MaxMinSolver::TakesPlaces(double nowPs, std::vector<uint32_t>& changed)
{
    // Each new flow takes the place of one that left: the same links with the same weights,
    // for its data and its ACKs, and the same cap (a connection's next transfer after the one
    // that has just sent its last bit). Flows under the same constraints are interchangeable
    // in the max-min allocation, so each takes the rate of the one it replaces and no other
    // flow moves. Only when every change since the last solve pairs up so.
    m_arrivals.clear();
    for (uint32_t h : m_added)
    {
        if (m_flows[h].alive)
        {
            m_arrivals.push_back(h);
        }
    }
    std::sort(m_arrivals.begin(), m_arrivals.end());
    m_arrivals.erase(std::unique(m_arrivals.begin(), m_arrivals.end()), m_arrivals.end());
    if (m_arrivals.empty() || m_arrivals.size() != m_departed.size())
    {
        return false;
    }
    // the departures by their first link, in the order they left
    m_byFirstLink.clear();
    for (uint32_t k = 0; k < m_departed.size(); ++k)
    {
        const Departure& d = m_departed[k];
        if (d.fresh)
        {
            return false;
        }
        m_byFirstLink.emplace_back(d.begin < d.dataEnd ? m_departedUses[d.begin].first : UINT32_MAX,
                                   k);
        m_departed[k].taken = false;
    }
    std::sort(m_byFirstLink.begin(), m_byFirstLink.end());
    m_placeOf.clear();
    for (uint32_t h : m_arrivals)
    {
        const Flow& f = m_flows[h];
        uint32_t first = f.data.empty() ? UINT32_MAX : f.data.front().link;
        auto it =
            std::lower_bound(m_byFirstLink.begin(), m_byFirstLink.end(), std::make_pair(first, 0u));
        uint32_t place = UINT32_MAX;
        for (; it != m_byFirstLink.end() && it->first == first; ++it)
        {
            Departure& d = m_departed[it->second];
            if (!d.taken && SamePlace(f, d))
            {
                d.taken = true;
                place = it->second;
                break;
            }
        }
        if (place == UINT32_MAX)
        {
            return false;
        }
        m_placeOf.push_back(place);
    }
    for (std::size_t i = 0; i < m_arrivals.size(); ++i)
    {
        Flow& f = m_flows[m_arrivals[i]];
        double rate = m_departed[m_placeOf[i]].rate;
        for (const std::vector<Use>* uses : {&f.data, &f.acks})
        {
            for (const Use& u : *uses)
            {
                Link& l = m_links[u.link];
                Account(l, nowPs);
                l.load += u.weight * rate;
            }
        }
        f.rate = rate;
        f.lastPs = nowPs;
        f.fresh = false;
        ++m_flowsSolved;
        changed.push_back(m_arrivals[i]);
    }
    return true;
}

bool
MaxMinSolver::SamePlace(const Flow& f, const Departure& d) const
{
    if (f.cap != d.cap || f.data.size() != d.dataEnd - d.begin ||
        f.acks.size() != d.end - d.dataEnd)
    {
        return false;
    }
    for (std::size_t k = 0; k < f.data.size(); ++k)
    {
        if (m_departedUses[d.begin + k] != std::make_pair(f.data[k].link, f.data[k].weight))
        {
            return false;
        }
    }
    for (std::size_t k = 0; k < f.acks.size(); ++k)
    {
        if (m_departedUses[d.dataEnd + k] != std::make_pair(f.acks[k].link, f.acks[k].weight))
        {
            return false;
        }
    }
    return true;
}

bool
MaxMinSolver::FitsAlone(double nowPs, std::vector<uint32_t>& changed)
{
    // At most one new flow (the others of the batch left without moving anyone, LeavesOthers).
    // It moves no one if it fits in the room its links have: none of them full, its rate the
    // least of its cap and each link's room over its weight on it, and where that room is the
    // limit, no flow on the link faster than it (else max-min would take from that flow). Its
    // ACKs must fit in their links' room too, leaving them not full.
    uint32_t h = UINT32_MAX;
    for (uint32_t a : m_added)
    {
        if (!m_flows[a].alive || a == h)
        {
            continue;
        }
        if (h != UINT32_MAX)
        {
            return false;
        }
        h = a;
    }
    if (h == UINT32_MAX)
    {
        return true; // departures only
    }
    const Flow& f = m_flows[h];
    if (f.data.empty())
    {
        return false;
    }
    double rate = f.cap;
    for (const Use& u : f.data)
    {
        const Link& l = m_links[u.link];
        if (Full(l))
        {
            return false;
        }
        rate = std::min(rate, (l.capacity - l.load) / u.weight);
    }
    if (rate < f.cap)
    {
        for (const Use& u : f.data)
        {
            const Link& l = m_links[u.link];
            if ((l.capacity - l.load) / u.weight > rate * (1 + kFullShare))
            {
                continue; // room to spare: not where it is held
            }
            for (uint32_t g : l.users)
            {
                if (g != h && m_flows[g].rate > rate * (1 + kAckTolerance))
                {
                    return false;
                }
            }
        }
    }
    for (const Use& u : f.acks)
    {
        const Link& l = m_links[u.link];
        bool alsoData = std::any_of(f.data.begin(), f.data.end(),
                                    [&](const Use& d) { return d.link == u.link; });
        if (alsoData || l.capacity - l.load - u.weight * rate <= kFullShare * l.capacity)
        {
            return false;
        }
    }
    for (const std::vector<Use>* uses : {&f.data, &f.acks})
    {
        for (const Use& u : *uses)
        {
            Link& l = m_links[u.link];
            Account(l, nowPs);
            l.load += u.weight * rate;
        }
    }
    m_flows[h].rate = rate;
    m_flows[h].lastPs = nowPs;
    m_flows[h].fresh = false;
    ++m_flowsSolved;
    changed.push_back(h);
    return true;
}

} // namespace flow
} // namespace fabric
