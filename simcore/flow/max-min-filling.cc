/*
 * MaxMinSolver's progressive filling (max-min-solver.h, file comment) of a closure: flattened
 * into arrays of closure indices (Flatten, SortCaps) and filled (Fill), or, where no link of the
 * closure carries two flows' data, each flow's least constraint read from the links
 * (StartAlone, FillAlone).
 */
#include "flow/max-min-solver.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace fabric
{
namespace flow
{

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

} // namespace flow
} // namespace fabric
