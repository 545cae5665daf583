#include "flow/max-min-solver.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace fabric
{
namespace flow
{

namespace
{

/** At most this many passes of progressive filling per solve (ACK load of the pass before). */
constexpr int kMaxAckPasses = 8;
/**
 * ... until no rate moves by more than this share of itself. A pass that moves no rate by more
 * than d leaves each within d q / (1 - q) of the fixed point (q, the ACKs' share of a link, is
 * at most 8 %): under 1e-7 of itself, past the 5 significant digits results print.
 */
constexpr double kAckTolerance = 1e-6;
/**
 * A link counts as full (a flow may be held at it) when less than this share of its capacity
 * is free: far above what the ACK passes leave unallocated on a full link (under 1e-7).
 */
constexpr double kFullShare = 1e-4;
/** Collect lists the closure by a scan, not a sort, when it holds more than 1/kScanShare. */
constexpr std::size_t kScanShare = 16;
/** SortCaps sorts by counting when the caps take at most this many values. */
constexpr std::size_t kCapValues = 16;

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
MaxMinSolver::Flatten()
{
    // Sized first, then written by index (a solve flattens a few dozen entries; growing the
    // arrays one push at a time cost more than the filling of the closure's links).
    auto n = static_cast<uint32_t>(m_closure.size());
    auto m = static_cast<uint32_t>(m_closureLinks.size());
    std::size_t uses = 0;
    for (uint32_t h : m_closure)
    {
        uses += m_flows[h].data.size();
    }
    std::size_t users = 0;
    std::size_t acks = 0;
    for (uint32_t li : m_closureLinks)
    {
        users += m_links[li].users.size();
        acks += m_links[li].ackUsers.size();
    }
    m_useBegin.resize(n + 1);
    m_useLink.resize(uses);
    m_useWeight.resize(uses);
    m_value.resize(n + acks); // the closure's rates, then at most one per ACK stream
    m_caps.clear();
    uint32_t k = 0;
    for (uint32_t i = 0; i < n; ++i)
    {
        const Flow& f = m_flows[m_closure[i]];
        m_useBegin[i] = k;
        for (const Use& u : f.data)
        {
            m_useLink[k] = m_links[u.link].local; // a closure link (Collect)
            m_useWeight[k++] = u.weight;
        }
        if (std::isfinite(f.cap))
        {
            m_caps.emplace_back(f.cap, i);
        }
        m_value[i] = f.rate;
    }
    m_useBegin[n] = k;
    SortCaps();
    m_userBegin.resize(m + 1);
    m_userFlow.resize(users);
    m_ackBegin.resize(m + 1);
    m_ackValue.resize(acks);
    m_ackWeight.resize(acks);
    uint32_t user = 0;
    uint32_t ack = 0;
    uint32_t values = n;
    for (uint32_t j = 0; j < m; ++j)
    {
        const Link& l = m_links[m_closureLinks[j]];
        m_userBegin[j] = user;
        for (uint32_t h : l.users)
        {
            m_userFlow[user++] = m_flows[h].local; // every data user is in the closure
        }
        m_ackBegin[j] = ack;
        for (std::size_t a = 0; a < l.ackUsers.size(); ++a)
        {
            const Flow& f = m_flows[l.ackUsers[a]];
            if (f.mark == m_epoch)
            {
                m_ackValue[ack] = f.local;
            }
            else
            {
                m_ackValue[ack] = values;
                m_value[values++] = f.rate;
            }
            m_ackWeight[ack++] = l.ackWeights[a];
        }
    }
    m_userBegin[m] = user;
    m_ackBegin[m] = ack;
    m_value.resize(values);
    // every flow's weight on each link, summed in closure order (each pass starts from them)
    m_weightsAll.assign(m, 0.0);
    for (uint32_t i = 0; i < n; ++i)
    {
        for (uint32_t u = m_useBegin[i]; u < m_useBegin[i + 1]; ++u)
        {
            m_weightsAll[m_useLink[u]] += m_useWeight[u];
        }
    }
    m_capacity.resize(m);
    for (uint32_t j = 0; j < m; ++j)
    {
        m_capacity[j] = m_links[m_closureLinks[j]].capacity;
    }
    m_next.resize(n);
    m_frozen.resize(n);
    m_remaining.resize(m);
    m_weights.resize(m);
    m_round.resize(m);
    m_pending.resize(m);
    m_share.resize(m);
}

void
MaxMinSolver::SortCaps()
{
    // Caps in the order the filling reaches them: by value, at one value the lower handle (the
    // lower closure index) first. Flows' caps take a few values (a window over a few path
    // RTTs): counting sort by value keeps the closure order within each, in linear time.
    double values[kCapValues];
    uint32_t counts[kCapValues];
    std::size_t distinct = 0;
    for (const auto& [cap, i] : m_caps)
    {
        std::size_t v = 0;
        while (v < distinct && values[v] != cap)
        {
            ++v;
        }
        if (v == distinct)
        {
            if (distinct == kCapValues)
            {
                std::sort(m_caps.begin(), m_caps.end());
                return;
            }
            values[distinct] = cap;
            counts[distinct++] = 0;
        }
        ++counts[v];
    }
    if (distinct <= 1)
    {
        return; // one value: already in closure order
    }
    std::size_t order[kCapValues];
    for (std::size_t v = 0; v < distinct; ++v)
    {
        order[v] = v;
    }
    std::sort(order, order + distinct,
              [&](std::size_t a, std::size_t b) { return values[a] < values[b]; });
    uint32_t begin[kCapValues];
    uint32_t at = 0;
    for (std::size_t r = 0; r < distinct; ++r)
    {
        begin[order[r]] = at;
        at += counts[order[r]];
    }
    m_capsSorted.resize(m_caps.size());
    for (const auto& c : m_caps)
    {
        std::size_t v = 0;
        while (values[v] != c.first)
        {
            ++v;
        }
        m_capsSorted[begin[v]++] = c;
    }
    m_caps.swap(m_capsSorted);
}

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

void
MaxMinSolver::Fill()
{
    auto n = static_cast<uint32_t>(m_closure.size());
    auto m = static_cast<uint32_t>(m_closureLinks.size());
    // Capacity left to data on each link: its capacity less every ACK stream on it (at the
    // rates in m_value: the closure's of the pass before, the others' own).
    for (uint32_t j = 0; j < m; ++j)
    {
        double acks = 0;
        for (uint32_t k = m_ackBegin[j]; k < m_ackBegin[j + 1]; ++k)
        {
            acks += m_ackWeight[k] * m_value[m_ackValue[k]];
        }
        m_remaining[j] = std::max(0.0, m_capacity[j] - acks);
        m_round[j] = 0;
        m_pending[j] = 0;
    }
    std::fill(m_frozen.begin(), m_frozen.end(), 0);
    m_weights = m_weightsAll;
    // A link with one flow's data keeps its share until that flow freezes (nothing else moves
    // its capacity left or its weight), and then leaves the queue: of a flow's such links only
    // the least (by share, then index, the queue's order) can ever be the least of the queue.
    // The queue takes that one and the links of several flows, so it picks the same link at
    // each step as it would holding them all, over fewer.
    m_queue.Reset(m);
    m_ownLink.assign(n, ShareQueue::kNone);
    m_ownShare.resize(n);
    for (uint32_t j = 0; j < m; ++j)
    {
        if (m_weights[j] > 0)
        {
            double share = m_remaining[j] / m_weights[j];
            if (m_userBegin[j + 1] - m_userBegin[j] > 1)
            {
                m_queue.Set(j, share);
                continue;
            }
            uint32_t i = m_userFlow[m_userBegin[j]];
            if (m_ownLink[i] == ShareQueue::kNone || share < m_ownShare[i])
            {
                m_ownLink[i] = j; // links in index order: at one share the first stays
                m_ownShare[i] = share;
            }
        }
    }
    for (uint32_t i = 0; i < n; ++i)
    {
        if (m_ownLink[i] != ShareQueue::kNone)
        {
            m_queue.Set(m_ownLink[i], m_ownShare[i]);
        }
    }
    double level = 0;
    uint32_t unfrozen = n;
    // Freezing a flow changes the share of each of its links; a link's new share goes into the
    // heap once per round (after every flow of the round froze), not once per flow.
    uint32_t round = 1;
    m_touched.clear();
    auto freeze = [&](uint32_t i, double rate)
    {
        m_frozen[i] = 1;
        m_next[i] = rate;
        --unfrozen;
        for (uint32_t k = m_useBegin[i]; k < m_useBegin[i + 1]; ++k)
        {
            uint32_t j = m_useLink[k];
            m_remaining[j] = std::max(0.0, m_remaining[j] - m_useWeight[k] * rate);
            m_weights[j] -= m_useWeight[k];
            if (m_round[j] != round)
            {
                m_round[j] = round;
                m_touched.push_back(j);
            }
        }
    };
    // A share that rose (as shares do when flows freeze at the level) is only noted: the heap's
    // key stays below the true share, so the top still bounds every share from below, and the
    // heap takes the noted shares only when a decision needs the true least one (Flush).
    m_pendingList.clear();
    auto requeue = [&]()
    {
        for (uint32_t j : m_touched)
        {
            if (m_weights[j] > 1e-12)
            {
                double share = m_remaining[j] / m_weights[j];
                if (m_queue.IsHeap() && m_queue.Contains(j) && share >= m_queue.Share(j))
                {
                    m_share[j] = share;
                    if (!m_pending[j])
                    {
                        m_pending[j] = 1;
                        m_pendingList.push_back(j);
                    }
                }
                else
                {
                    m_pending[j] = 0;
                    m_queue.Set(j, share);
                }
            }
            else
            {
                m_weights[j] = 0;
                m_pending[j] = 0;
                m_queue.Remove(j);
            }
        }
        m_touched.clear();
        ++round;
    };
    auto flush = [&]()
    {
        for (uint32_t j : m_pendingList)
        {
            if (m_pending[j])
            {
                m_pending[j] = 0;
                m_queue.Set(j, m_share[j]);
            }
        }
        m_pendingList.clear();
    };
    // The levels in ascending order: the links' shares (a heap) merged with the flows' caps (a
    // sorted list); at one level links first (the order does not change the rates).
    std::size_t nextCap = 0;
    while (unfrozen > 0)
    {
        while (nextCap < m_caps.size() && m_frozen[m_caps[nextCap].second])
        {
            ++nextCap;
        }
        bool cap = nextCap < m_caps.size();
        uint32_t least = m_queue.Least();
        if (least == ShareQueue::kNone && !cap)
        {
            break;
        }
        if (cap && (least == ShareQueue::kNone || m_caps[nextCap].first < m_queue.Share(least)))
        {
            level = std::max(level, m_caps[nextCap].first);
            freeze(m_caps[nextCap].second, level);
            ++nextCap;
            requeue();
            continue;
        }
        if (!m_pendingList.empty())
        {
            flush(); // the true least share, then decide again
            continue;
        }
        uint32_t j = least;
        level = std::max(level, m_queue.Share(j));
        m_queue.Remove(j);
        // every unfrozen flow with data on the full link stops at this level
        for (uint32_t k = m_userBegin[j]; k < m_userBegin[j + 1]; ++k)
        {
            if (!m_frozen[m_userFlow[k]])
            {
                freeze(m_userFlow[k], level);
            }
        }
        requeue();
    }
    for (uint32_t i = 0; i < n; ++i)
    {
        if (!m_frozen[i])
        {
            m_next[i] = 0; // no link and no cap: cannot happen with a valid route
        }
    }
}

bool
MaxMinSolver::StartAlone()
{
    auto n = static_cast<uint32_t>(m_closure.size());
    m_value.resize(n);
    m_next.resize(n);
    for (uint32_t i = 0; i < n; ++i)
    {
        m_value[i] = m_flows[m_closure[i]].rate;
    }
    for (uint32_t li : m_closureLinks)
    {
        if (!m_links[li].ackUsers.empty())
        {
            return true;
        }
    }
    return false;
}

void
MaxMinSolver::FillAlone()
{
    // Each link carries one flow's data at most: progressive filling freezes each flow at the
    // first of its constraints the level reaches, its cap or the least share of its links (no
    // other flow's freezing moves that share), so its rate is their minimum: each link's
    // capacity less its ACK streams (at the rates of the pass before: the closure's in m_value,
    // the others' own), summed in the same order, over the flow's weight on it, the same
    // arithmetic as Flatten and Fill do (ctest FlowMaxMin.AloneOnTheirLinksAsFilled, to the
    // bit). Links carrying only ACKs constrain no one and are not visited.
    auto n = static_cast<uint32_t>(m_closure.size());
    for (uint32_t i = 0; i < n; ++i)
    {
        const Flow& f = m_flows[m_closure[i]];
        double rate = std::numeric_limits<double>::infinity();
        for (const Use& u : f.data)
        {
            if (u.weight <= 0)
            {
                continue;
            }
            const Link& l = m_links[u.link];
            double acks = 0;
            for (std::size_t k = 0; k < l.ackUsers.size(); ++k)
            {
                const Flow& g = m_flows[l.ackUsers[k]];
                acks += l.ackWeights[k] * (g.mark == m_epoch ? m_value[g.local] : g.rate);
            }
            rate = std::min(rate, std::max(0.0, l.capacity - acks) / u.weight);
        }
        rate = std::min(rate, f.cap);
        m_next[i] = std::isinf(rate) ? 0.0 : rate; // no link and no cap: not with a valid route
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
