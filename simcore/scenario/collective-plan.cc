#include "collective-plan.h"

#include "scenario-contract.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <tuple>

namespace fabric
{

namespace
{

/** Bytes a connection keeps in flight (at least two transfers): see Planner::Run. */
constexpr uint64_t kConnectionWindowBytes = 2097152;

uint64_t
CeilDiv(uint64_t a, uint64_t b)
{
    return (a + b - 1) / b;
}

/** Sizes of the chunks a block of `bytes` is sent in (one chunk when chunk is 0). */
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

/** The ranks grouped by server, servers in order of their first rank. */
struct Servers
{
    std::vector<std::vector<uint32_t>> ranks;
    bool contiguousEqual = false; ///< each server's ranks are consecutive, all servers equal
};

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

/**
 * The ring of one channel. Ranks grouped by server (consecutive, equal counts g) visit each
 * server's GPUs from local index (c - s) mod g, so the hop leaving server s lands on the same
 * local index (rail) of server s + 1: one rail leaf, no spine. Otherwise rank order.
 */
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
        std::size_t e = static_cast<std::size_t>(((static_cast<int64_t>(channel) -
                                                   static_cast<int64_t>(s)) % gi + gi) % gi);
        for (std::size_t t = 0; t < g; ++t)
        {
            order.push_back(servers.ranks[s][(e + t) % g]);
        }
    }
    return order;
}

/** Parent of every position of an in-order binary tree over n positions (-1: the root). */
std::vector<int64_t>
InOrderTreeParents(uint32_t n)
{
    // Node i = position + 1 sits at level ctz(i); its parent is i -/+ 2^level, the one whose
    // next bit says it is the left or right child; parents past n are skipped upwards.
    auto up = [](uint64_t i) {
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

class Planner
{
  public:
    Planner(const CollectiveRequest& req)
        : m_req(req),
          m_n(static_cast<uint32_t>(req.serverOf.size())),
          m_servers(GroupByServer(req.serverOf))
    {
    }

    std::vector<Transfer> Run()
    {
        std::vector<std::vector<uint32_t>> prevTouch;
        for (uint32_t it = 0; it < m_req.iterations; ++it)
        {
            m_iteration = it;
            m_touch.assign(m_n, {});
            std::size_t first = m_out.size();
            for (uint32_t c = 0; c < m_req.channels; ++c)
            {
                PlanChannel(c);
            }
            if (it > 0)
            {
                // A rank's next iteration starts computeNs after all its transfers of the
                // previous one completed (what it sent arrived, what it awaits came).
                for (std::size_t i = first; i < m_out.size(); ++i)
                {
                    if (m_out[i].after.empty())
                    {
                        m_out[i].after = prevTouch[m_out[i].src];
                        m_out[i].gapNs = m_req.computeNs;
                    }
                }
            }
            // A connection (QP) carries its transfers in order with a bounded window: a
            // transfer also waits for the transfer w places before it on its connection, w the
            // smallest >= 2 that puts kConnectionWindowBytes in flight with it. So large chunks
            // pipeline one behind the other instead of all sharing the link at once, and small
            // steps may run ahead to cover the path's latency (NCCL's slots per connection).
            for (std::size_t i = first; i < m_out.size(); ++i)
            {
                std::vector<uint32_t>& sent = m_onConnection[m_out[i].connection];
                uint64_t inFlight = m_out[i].bytes;
                std::size_t w = 1;
                while (w <= sent.size() && (w < 2 || inFlight < kConnectionWindowBytes))
                {
                    inFlight += m_out[sent[sent.size() - w]].bytes;
                    ++w;
                }
                if (w <= sent.size())
                {
                    m_out[i].after.push_back(sent[sent.size() - w]);
                }
                sent.push_back(static_cast<uint32_t>(i));
            }
            prevTouch.swap(m_touch);
        }
        return std::move(m_out);
    }

  private:
    uint32_t Add(uint32_t src, uint32_t dst, uint64_t bytes, uint32_t step, uint32_t channel,
                 std::vector<uint32_t> after)
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
        t.after = std::move(after);
        uint32_t index = static_cast<uint32_t>(m_out.size());
        m_out.push_back(std::move(t));
        m_touch[src].push_back(index);
        m_touch[dst].push_back(index);
        return index;
    }

    /** The channel's share of the message (channels split it; the last may carry padding). */
    uint64_t ChannelBytes() const { return CeilDiv(m_req.messageBytes, m_req.channels); }

    void PlanChannel(uint32_t c)
    {
        const std::string& op = m_req.op;
        const std::string& alg = m_req.algorithm;
        if (alg == "ring" && op == "broadcast")
        {
            Chain(c);
        }
        else if (alg == "ring")
        {
            uint32_t steps = op == "all_reduce" ? 2 * (m_n - 1) : m_n - 1;
            Ring(RingOrder(m_servers, m_n, c), CeilDiv(ChannelBytes(), m_n), steps, 0, c,
                 m_req.chunkBytes, {});
        }
        else if (alg == "tree" && op == "all_reduce")
        {
            DoubleTree(c);
        }
        else if (alg == "tree")
        {
            BroadcastTree(c);
        }
        else if (alg == "halving_doubling")
        {
            HalvingDoubling(c);
        }
        else if (alg == "direct")
        {
            Direct(c);
        }
        else
        {
            Hierarchical(c);
        }
    }

    /**
     * A ring of `steps` steps over `order` (position p sends to p + 1), each moving `block`
     * bytes (in chunks). Step 0 of position p waits for start[p] (empty: nothing). Returns,
     * per position, the transfers of the last step INTO it, chunk by chunk.
     */
    std::vector<std::vector<uint32_t>> Ring(const std::vector<uint32_t>& order, uint64_t block,
                                            uint32_t steps, uint32_t firstStep, uint32_t c,
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
                    cur[p].push_back(Add(order[p], order[(p + 1) % n], parts[j], firstStep + k,
                                         c, std::move(after)));
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

    /** Broadcast as a pipelined chain from rank 0 along the channel's ring. */
    void Chain(uint32_t c)
    {
        std::vector<uint32_t> order = RingOrder(m_servers, m_n, c);
        std::rotate(order.begin(), std::find(order.begin(), order.end(), 0u), order.end());
        std::vector<uint64_t> parts = Chunks(ChannelBytes(), PipelineChunk());
        std::vector<uint32_t> prev;
        for (uint32_t p = 0; p + 1 < m_n; ++p)
        {
            std::vector<uint32_t> cur;
            for (std::size_t j = 0; j < parts.size(); ++j)
            {
                std::vector<uint32_t> after;
                if (p > 0)
                {
                    after.push_back(prev[j]);
                }
                cur.push_back(Add(order[p], order[p + 1], parts[j], p, c, std::move(after)));
            }
            prev.swap(cur);
        }
    }

    uint64_t PipelineChunk() const
    {
        return m_req.chunkBytes ? m_req.chunkBytes : kDefaultPipelineChunk;
    }

    /**
     * NCCL's double binary tree. The trees join nodes: ranks, or, when ranks come in servers
     * (consecutive, equal counts g), servers, each reached through its GPU of local index
     * c mod g (so a channel's tree edges stay on one rail) with a chain over NVLink through the
     * server's other GPUs to it, as NCCL builds trees across nodes. Tree 0 over node order,
     * tree 1 shifted by one node (leaves of one are inner nodes of the other); each carries
     * half the data: reduce to the root, then broadcast back, chunk by chunk.
     */
    void DoubleTree(uint32_t c)
    {
        std::vector<std::vector<uint32_t>> chains; // per node: its ranks, the head last
        std::size_t g = m_servers.ranks[0].size();
        if (m_servers.contiguousEqual && g > 1)
        {
            for (const auto& server : m_servers.ranks)
            {
                chains.push_back(Rotated(server, static_cast<uint32_t>((c + 1) % g)));
            }
        }
        else
        {
            for (uint32_t r = 0; r < m_n; ++r)
            {
                chains.push_back({r});
            }
        }
        std::size_t nodes = chains.size();
        std::vector<int64_t> parent = InOrderTreeParents(static_cast<uint32_t>(nodes));
        uint64_t half = CeilDiv(ChannelBytes(), 2);
        std::vector<uint64_t> parts = Chunks(half, PipelineChunk());
        uint32_t m = static_cast<uint32_t>(parts.size());
        std::vector<std::vector<std::size_t>> children(nodes);
        std::size_t root = 0;
        for (std::size_t q = 0; q < nodes; ++q)
        {
            if (parent[q] < 0)
            {
                root = q;
            }
            else
            {
                children[static_cast<std::size_t>(parent[q])].push_back(q);
            }
        }
        std::vector<std::size_t> order = PostOrder(children, root);
        for (uint32_t t = 0; t < 2; ++t)
        {
            uint32_t ch = 2 * c + t;
            auto chain = [&](std::size_t q) -> const std::vector<uint32_t>& {
                return chains[(q + t) % nodes];
            };
            // reduce: up each chain to its head, then from head to head towards the root
            std::vector<std::vector<std::vector<uint32_t>>> ready(nodes); // [q][j]: head's inputs
            std::vector<std::vector<uint32_t>> up(nodes);
            for (std::size_t q : order)
            {
                const std::vector<uint32_t>& ranks = chain(q);
                ready[q].assign(m, {});
                for (uint32_t j = 0; j < m; ++j)
                {
                    uint32_t last = UINT32_MAX;
                    for (std::size_t i = 0; i + 1 < ranks.size(); ++i)
                    {
                        std::vector<uint32_t> after;
                        if (last != UINT32_MAX)
                        {
                            after.push_back(last);
                        }
                        last = Add(ranks[i], ranks[i + 1], parts[j], j, ch, std::move(after));
                    }
                    if (last != UINT32_MAX)
                    {
                        ready[q][j].push_back(last);
                    }
                    for (std::size_t k : children[q])
                    {
                        ready[q][j].push_back(up[k][j]);
                    }
                    if (parent[q] >= 0)
                    {
                        up[q].push_back(Add(ranks.back(),
                                            chain(static_cast<std::size_t>(parent[q])).back(),
                                            parts[j], j, ch, ready[q][j]));
                    }
                }
            }
            // broadcast: head to head from the root, then down each chain
            std::vector<std::vector<uint32_t>> down(nodes);
            for (auto it = order.rbegin(); it != order.rend(); ++it)
            {
                std::size_t q = *it;
                const std::vector<uint32_t>& ranks = chain(q);
                for (uint32_t j = 0; j < m; ++j)
                {
                    std::vector<uint32_t> have; // the head holds the reduced chunk
                    if (parent[q] < 0)
                    {
                        have = ready[q][j];
                    }
                    else
                    {
                        std::size_t p = static_cast<std::size_t>(parent[q]);
                        std::vector<uint32_t> after =
                            parent[p] < 0 ? ready[p][j] : std::vector<uint32_t>{down[p][j]};
                        down[q].push_back(
                            Add(chain(p).back(), ranks.back(), parts[j], m + j, ch, std::move(after)));
                        have = {down[q][j]};
                    }
                    for (std::size_t i = ranks.size() - 1; i > 0; --i)
                    {
                        uint32_t sent = Add(ranks[i], ranks[i - 1], parts[j], m + j, ch, have);
                        have = {sent};
                    }
                }
            }
        }
    }

    static std::vector<std::size_t> PostOrder(const std::vector<std::vector<std::size_t>>& children,
                                              std::size_t root)
    {
        std::vector<std::size_t> out;
        std::vector<std::pair<std::size_t, bool>> stack{{root, false}};
        while (!stack.empty())
        {
            auto [q, expanded] = stack.back();
            stack.pop_back();
            if (expanded)
            {
                out.push_back(q);
                continue;
            }
            stack.push_back({q, true});
            for (auto it = children[q].rbegin(); it != children[q].rend(); ++it)
            {
                stack.push_back({*it, false});
            }
        }
        return out;
    }

    /** Broadcast down one binary tree rooted at rank 0, pipelined in chunks. */
    void BroadcastTree(uint32_t c)
    {
        std::vector<int64_t> parent = InOrderTreeParents(m_n);
        std::size_t root = 0;
        std::vector<std::vector<std::size_t>> children(m_n);
        for (std::size_t q = 0; q < m_n; ++q)
        {
            if (parent[q] < 0)
            {
                root = q;
            }
            else
            {
                children[static_cast<std::size_t>(parent[q])].push_back(q);
            }
        }
        auto rank = [&](std::size_t q) { return static_cast<uint32_t>((q + m_n - root) % m_n); };
        std::vector<uint64_t> parts = Chunks(ChannelBytes(), PipelineChunk());
        std::vector<std::size_t> order = PostOrder(children, root);
        std::vector<std::vector<uint32_t>> down(m_n);
        for (auto it = order.rbegin(); it != order.rend(); ++it)
        {
            std::size_t q = *it;
            if (parent[q] < 0)
            {
                continue;
            }
            std::size_t p = static_cast<std::size_t>(parent[q]);
            for (uint32_t j = 0; j < parts.size(); ++j)
            {
                std::vector<uint32_t> after;
                if (p != root)
                {
                    after.push_back(down[p][j]);
                }
                down[q].push_back(Add(rank(p), rank(q), parts[j], j, c, std::move(after)));
            }
        }
    }

    /** Recursive halving (reduce-scatter) and/or doubling (all-gather); n a power of two. */
    void HalvingDoubling(uint32_t c)
    {
        uint32_t levels = 0;
        while ((1u << levels) < m_n)
        {
            ++levels;
        }
        uint64_t total = ChannelBytes();
        bool halve = m_req.op != "all_gather";
        bool dbl = m_req.op != "reduce_scatter";
        std::vector<uint32_t> prev; // by rank: the transfer it sent in the previous step
        uint32_t lastDistance = 0;  // the partner distance of that step
        uint32_t step = 0;
        auto exchange = [&](uint32_t distance, uint64_t bytes) {
            std::vector<uint32_t> cur(m_n);
            for (uint32_t r = 0; r < m_n; ++r)
            {
                std::vector<uint32_t> after;
                if (!prev.empty())
                {
                    after.push_back(prev[r ^ lastDistance]); // what arrived at r last step
                }
                cur[r] = Add(r, r ^ distance, bytes, step, c, std::move(after));
            }
            prev.swap(cur);
            lastDistance = distance;
            ++step;
        };
        if (halve)
        {
            for (uint32_t s = 0; s < levels; ++s)
            {
                exchange(m_n >> (s + 1), CeilDiv(total, uint64_t(1) << (s + 1)));
            }
        }
        if (dbl)
        {
            for (uint32_t t = 0; t < levels; ++t)
            {
                exchange(1u << t, CeilDiv(total << t, m_n));
            }
        }
    }

    /**
     * All-to-all as NCCL posts it: every rank sends its block to every other rank at once
     * (grouped point-to-point sends; step k - 1 holds the sends to rank r + k), so the fabric,
     * not a schedule, decides how they share the links.
     */
    void Direct(uint32_t c)
    {
        uint64_t block = CeilDiv(ChannelBytes(), m_n);
        for (uint32_t k = 1; k < m_n; ++k)
        {
            for (uint32_t r = 0; r < m_n; ++r)
            {
                Add(r, (r + k) % m_n, block, k - 1, c, {});
            }
        }
    }

    /** Reduce-scatter in each server, all-reduce across servers per local index, all-gather. */
    void Hierarchical(uint32_t c)
    {
        const auto& groups = m_servers.ranks;
        std::size_t g = groups[0].size();
        std::size_t m = groups.size();
        uint64_t total = ChannelBytes();
        uint64_t shard = CeilDiv(total, g);
        // phase 1: ring reduce-scatter inside each server (over NVLink)
        std::vector<std::vector<uint32_t>> ready(m_n); // by rank: what phase 2 waits for
        for (std::size_t s = 0; s < m && g > 1; ++s)
        {
            auto into = Ring(Rotated(groups[s], c), shard, static_cast<uint32_t>(g - 1), 0, c, 0, {});
            std::vector<uint32_t> order = Rotated(groups[s], c);
            for (std::size_t p = 0; p < g; ++p)
            {
                ready[order[p]] = into[p];
            }
        }
        uint32_t step = static_cast<uint32_t>(g - 1);
        // phase 2: ring all-reduce across servers among the ranks of one local index
        if (m > 1)
        {
            for (std::size_t l = 0; l < g; ++l)
            {
                std::vector<uint32_t> order;
                std::vector<std::vector<uint32_t>> start;
                for (std::size_t s = 0; s < m; ++s)
                {
                    order.push_back(groups[s][l]);
                    start.push_back(ready[groups[s][l]]);
                }
                auto into = Ring(order, CeilDiv(shard, m), static_cast<uint32_t>(2 * (m - 1)),
                                 step, c, 0, start);
                for (std::size_t s = 0; s < m; ++s)
                {
                    ready[order[s]] = into[s];
                }
            }
            step += static_cast<uint32_t>(2 * (m - 1));
        }
        // phase 3: ring all-gather inside each server
        for (std::size_t s = 0; s < m && g > 1; ++s)
        {
            std::vector<uint32_t> order = Rotated(groups[s], c);
            std::vector<std::vector<uint32_t>> start;
            for (uint32_t r : order)
            {
                start.push_back(ready[r]);
            }
            Ring(order, shard, static_cast<uint32_t>(g - 1), step, c, 0, start);
        }
    }

    static std::vector<uint32_t> Rotated(std::vector<uint32_t> v, uint32_t by)
    {
        std::rotate(v.begin(), v.begin() + (by % v.size()), v.end());
        return v;
    }

    const CollectiveRequest& m_req;
    uint32_t m_n;
    Servers m_servers;
    uint32_t m_iteration = 0;
    std::vector<Transfer> m_out;
    std::vector<std::vector<uint32_t>> m_touch;
    std::map<std::tuple<uint32_t, uint32_t, uint32_t>, uint32_t> m_connections;
    std::vector<std::vector<uint32_t>> m_onConnection; ///< per connection: its transfers in order
};

bool
PowerOfTwo(uint32_t n)
{
    return n && !(n & (n - 1));
}

} // namespace

std::vector<std::string>
AlgorithmsFor(const std::string& op)
{
    for (const CollectiveOp& c : kCollectiveOps) // generated from the scenario models
    {
        if (op == c.op)
        {
            return c.algorithms;
        }
    }
    return {};
}

double
BusFactor(const std::string& op, uint32_t ranks)
{
    double n = ranks;
    if (op == "all_reduce")
    {
        return 2 * (n - 1) / n;
    }
    if (op == "broadcast")
    {
        return 1;
    }
    return (n - 1) / n;
}

bool
Streamable(const CollectiveRequest& req)
{
    bool ringOp = req.op == "all_reduce" || req.op == "all_gather" || req.op == "reduce_scatter";
    return req.algorithm == "ring" && ringOp && req.serverOf.size() >= 2 &&
           (req.chunkBytes == 0 || req.chunkBytes >= RingBlockBytes(req));
}

uint32_t
RingSteps(const CollectiveRequest& req)
{
    uint32_t n = static_cast<uint32_t>(req.serverOf.size());
    return req.op == "all_reduce" ? 2 * (n - 1) : n - 1;
}

uint64_t
RingBlockBytes(const CollectiveRequest& req)
{
    uint64_t n = req.serverOf.size();
    return CeilDiv(CeilDiv(req.messageBytes, req.channels), std::max<uint64_t>(1, n));
}

std::vector<uint32_t>
RingOrderOf(const CollectiveRequest& req, uint32_t channel)
{
    return RingOrder(GroupByServer(req.serverOf), static_cast<uint32_t>(req.serverOf.size()), channel);
}

double
PlannedTransfers(const CollectiveRequest& req)
{
    double n = static_cast<double>(req.serverOf.size());
    double perChannel = 0;
    double channelBytes = std::ceil(static_cast<double>(req.messageBytes) / req.channels);
    auto chunks = [&](double bytes, double chunk) {
        return chunk > 0 ? std::max(1.0, std::ceil(bytes / chunk)) : 1.0;
    };
    const std::string& a = req.algorithm;
    if (a == "ring" && req.op == "broadcast")
    {
        double pipe = req.chunkBytes ? req.chunkBytes : kDefaultPipelineChunk;
        perChannel = (n - 1) * chunks(channelBytes, pipe);
    }
    else if (a == "ring")
    {
        double steps = req.op == "all_reduce" ? 2 * (n - 1) : n - 1;
        perChannel = steps * n * chunks(std::ceil(channelBytes / n), req.chunkBytes);
    }
    else if (a == "tree")
    {
        double pipe = req.chunkBytes ? req.chunkBytes : kDefaultPipelineChunk;
        double trees = req.op == "all_reduce" ? 2 : 1;
        double phases = req.op == "all_reduce" ? 2 : 1;
        perChannel = trees * phases * (n - 1) * chunks(std::ceil(channelBytes / trees), pipe);
    }
    else if (a == "halving_doubling")
    {
        double levels = std::ceil(std::log2(std::max(2.0, n)));
        perChannel = (req.op == "all_reduce" ? 2 : 1) * levels * n;
    }
    else if (a == "direct")
    {
        perChannel = (n - 1) * n;
    }
    else
    {
        // hierarchical: a ring reduce-scatter and all-gather in each of m servers of g ranks,
        // a ring all-reduce across the servers for each local index
        Servers s = GroupByServer(req.serverOf);
        double g = static_cast<double>(s.ranks[0].size());
        double m = static_cast<double>(s.ranks.size());
        perChannel = 2 * m * g * (g - 1) + g * m * 2 * (m - 1);
    }
    return perChannel * req.channels * req.iterations;
}

void
CheckCollective(const CollectiveRequest& req)
{
    uint32_t n = static_cast<uint32_t>(req.serverOf.size());
    if (n < 2)
    {
        throw PlanError("hosts", "a collective needs at least 2 ranks (got " + std::to_string(n) + ")");
    }
    std::vector<std::string> allowed = AlgorithmsFor(req.op);
    if (std::find(allowed.begin(), allowed.end(), req.algorithm) == allowed.end())
    {
        std::string list;
        for (const auto& a : allowed)
        {
            list += (list.empty() ? "" : ", ") + ("\"" + a + "\"");
        }
        throw PlanError("algorithm", "\"" + req.algorithm + "\" does not run " + req.op +
                                         " (allowed for " + req.op + ": " + list + ")");
    }
    if (req.algorithm == "halving_doubling" && !PowerOfTwo(n))
    {
        throw PlanError("hosts", "halving_doubling needs a power-of-two number of ranks (got " +
                                     std::to_string(n) + ")");
    }
    if (req.algorithm == "hierarchical" && !GroupByServer(req.serverOf).contiguousEqual)
    {
        throw PlanError("hosts", "hierarchical needs every server to hold the same number of "
                                 "ranks, a server's ranks one after another in rank order");
    }
    // Every transfer carries at least one byte: the message must cover the finest split.
    uint64_t parts = static_cast<uint64_t>(req.channels) *
                     (req.op == "broadcast" ? 1 : (req.algorithm == "tree" ? 2 : n));
    if (req.algorithm == "hierarchical")
    {
        std::size_t g = GroupByServer(req.serverOf).ranks[0].size();
        parts = static_cast<uint64_t>(req.channels) * g * (n / g);
    }
    if (req.messageBytes < parts)
    {
        throw PlanError("message_bytes",
                        "must be at least " + std::to_string(parts) + " bytes for " +
                            std::to_string(n) + " ranks x " + std::to_string(req.channels) +
                            " channels with " + req.algorithm + " (got " +
                            std::to_string(req.messageBytes) + ")");
    }
}

std::vector<Transfer>
PlanCollective(const CollectiveRequest& req)
{
    CheckCollective(req);
    return Planner(req).Run();
}

} // namespace fabric
