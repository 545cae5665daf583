#include "collective-algorithm.h"

#include <algorithm>

namespace fabric
{
namespace collective
{

// The algorithms, one file each.
const CollectiveAlgorithm& RingAlgorithm();
const CollectiveAlgorithm& TreeAlgorithm();
const CollectiveAlgorithm& HalvingDoublingAlgorithm();
const CollectiveAlgorithm& DirectAlgorithm();
const CollectiveAlgorithm& HierarchicalAlgorithm();

std::vector<const CollectiveAlgorithm*>
CollectiveAlgorithms()
{
    return {&RingAlgorithm(), &TreeAlgorithm(), &HalvingDoublingAlgorithm(), &DirectAlgorithm(),
            &HierarchicalAlgorithm()};
}

const CollectiveAlgorithm*
FindCollectiveAlgorithm(const std::string& name)
{
    for (const CollectiveAlgorithm* a : CollectiveAlgorithms())
    {
        if (name == a->Name())
        {
            return a;
        }
    }
    return nullptr;
}

void
CollectiveAlgorithm::Check(const CollectiveRequest&) const
{
}

uint64_t
CollectiveAlgorithm::MessageParts(const CollectiveRequest& req) const
{
    return req.op == "broadcast" ? 1 : req.serverOf.size();
}

bool
CollectiveAlgorithm::Streamable(const CollectiveRequest&) const
{
    return false;
}

std::vector<uint64_t>
Chunks(uint64_t bytes, uint64_t chunk)
{
    if (chunk == 0 || chunk >= bytes)
    {
        return {bytes};
    }
    std::vector<uint64_t> out(bytes / chunk, chunk);
    if (bytes % chunk)
    {
        out.push_back(bytes % chunk);
    }
    return out;
}

std::vector<uint32_t>
Rotated(std::vector<uint32_t> v, uint32_t by)
{
    std::rotate(v.begin(), v.begin() + (by % v.size()), v.end());
    return v;
}

std::vector<int64_t>
InOrderTreeParents(uint32_t n)
{
    // Node i = position + 1 sits at level ctz(i); its parent is i -/+ 2^level, the one whose
    // next bit says it is the left or right child; parents past n are skipped upwards.
    auto up = [](uint64_t i)
    {
        uint64_t low = i & (~i + 1);
        return (i & (low << 1)) ? i - low : i + low;
    };
    uint64_t root = 1;
    while (root * 2 <= n)
    {
        root *= 2;
    }
    std::vector<int64_t> parent(n, -1);
    for (uint64_t i = 1; i <= n; ++i)
    {
        if (i == root)
        {
            continue;
        }
        uint64_t p = up(i);
        while (p > n)
        {
            p = up(p);
        }
        parent[i - 1] = static_cast<int64_t>(p - 1);
    }
    return parent;
}

Servers
GroupByServer(const std::vector<uint32_t>& serverOf)
{
    Servers s;
    std::map<uint32_t, std::size_t> slot;
    for (uint32_t r = 0; r < serverOf.size(); ++r)
    {
        auto [it, fresh] = slot.emplace(serverOf[r], s.ranks.size());
        if (fresh)
        {
            s.ranks.emplace_back();
        }
        s.ranks[it->second].push_back(r);
    }
    s.contiguousEqual = true;
    uint32_t next = 0;
    for (const auto& g : s.ranks)
    {
        if (g.size() != s.ranks[0].size() || g.front() != next || g.back() != next + g.size() - 1)
        {
            s.contiguousEqual = false;
        }
        next += static_cast<uint32_t>(g.size());
    }
    return s;
}

std::vector<uint32_t>
RingOrder(const Servers& servers, uint32_t n, uint32_t channel)
{
    std::vector<uint32_t> order;
    std::size_t g = servers.ranks.empty() ? 1 : servers.ranks[0].size();
    if (!servers.contiguousEqual || g <= 1)
    {
        for (uint32_t r = 0; r < n; ++r)
        {
            order.push_back(r);
        }
        return order;
    }
    for (std::size_t s = 0; s < servers.ranks.size(); ++s)
    {
        int64_t gi = static_cast<int64_t>(g);
        std::size_t e = static_cast<std::size_t>(
            ((static_cast<int64_t>(channel) - static_cast<int64_t>(s)) % gi + gi) % gi);
        for (std::size_t t = 0; t < g; ++t)
        {
            order.push_back(servers.ranks[s][(e + t) % g]);
        }
    }
    return order;
}

PlanBuilder::PlanBuilder(const CollectiveRequest& req)
    : m_req(req),
      m_n(static_cast<uint32_t>(req.serverOf.size())),
      m_servers(GroupByServer(req.serverOf))
{
}

uint64_t
PlanBuilder::PipelineChunk() const
{
    return m_req.chunkBytes ? m_req.chunkBytes : kDefaultPipelineChunk;
}

uint32_t
PlanBuilder::Add(uint32_t src,
                 uint32_t dst,
                 uint64_t bytes,
                 uint32_t step,
                 uint32_t channel,
                 const std::vector<uint32_t>& after)
{
    Transfer t;
    t.src = src;
    t.dst = dst;
    t.bytes = bytes;
    t.iteration = m_iteration;
    t.step = step;
    t.channel = channel;
    auto key = std::make_tuple(channel, src, dst);
    auto [it, fresh] = m_connections.emplace(key, static_cast<uint32_t>(m_connections.size()));
    if (fresh)
    {
        m_onConnection.emplace_back();
    }
    t.connection = it->second;
    bool nextIteration = m_iteration > 0 && after.empty();
    if (nextIteration)
    {
        t.gapNs = m_req.computeNs;
    }
    uint32_t index = m_out.Add(t);
    if (nextIteration)
    {
        // A rank's next iteration starts computeNs after all its transfers of the previous
        // one completed (what it sent arrived, what it awaits came).
        const std::vector<uint32_t>& prev = m_prevTouch[src];
        m_out.AddInputs(prev.begin(), prev.end());
    }
    else
    {
        m_out.AddInputs(after.begin(), after.end());
    }
    // A connection (QP) carries its transfers in order with a bounded window: a transfer also
    // waits for the transfer w places before it on its connection, w the smallest >= 2 that
    // puts kConnectionWindowBytes in flight with it. So large chunks pipeline one behind the
    // other instead of all sharing the link at once, and small steps may run ahead to cover the
    // path's latency (NCCL's slots per connection).
    std::vector<uint32_t>& sent = m_onConnection[t.connection];
    uint64_t inFlight = bytes;
    std::size_t w = 1;
    while (w <= sent.size() && (w < 2 || inFlight < kConnectionWindowBytes))
    {
        inFlight += m_out[sent[sent.size() - w]].bytes;
        ++w;
    }
    if (w <= sent.size())
    {
        m_out.AddInput(sent[sent.size() - w]);
    }
    sent.push_back(index);
    m_touch[src].push_back(index);
    m_touch[dst].push_back(index);
    return index;
}

std::vector<std::vector<uint32_t>>
PlanBuilder::Ring(const std::vector<uint32_t>& order,
                  uint64_t block,
                  uint32_t steps,
                  uint32_t firstStep,
                  uint32_t c,
                  uint64_t chunk,
                  const std::vector<std::vector<uint32_t>>& start)
{
    std::size_t n = order.size();
    std::vector<uint64_t> parts = Chunks(block, chunk);
    // prev[p][j]: chunk j of the previous step sent by position p
    std::vector<std::vector<uint32_t>> prev(n);
    for (uint32_t k = 0; k < steps; ++k)
    {
        std::vector<std::vector<uint32_t>> cur(n);
        for (std::size_t p = 0; p < n; ++p)
        {
            std::size_t from = (p + n - 1) % n;
            for (std::size_t j = 0; j < parts.size(); ++j)
            {
                std::vector<uint32_t> after;
                if (k > 0)
                {
                    after.push_back(prev[from][j]);
                }
                else if (p < start.size())
                {
                    after = start[p];
                }
                cur[p].push_back(Add(order[p], order[(p + 1) % n], parts[j], firstStep + k, c,
                                     std::move(after)));
            }
        }
        prev.swap(cur);
    }
    // what arrived last at position p came from p - 1
    std::vector<std::vector<uint32_t>> into(n);
    for (std::size_t p = 0; p < n && steps > 0; ++p)
    {
        into[(p + 1) % n] = prev[p];
    }
    return into;
}

} // namespace collective
} // namespace fabric
