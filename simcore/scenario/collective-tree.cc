/*
 * tree (collective-plan.h): two complementary binary trees (NCCL's double binary tree), each
 * carrying half the data, reduce to the root then broadcast back, pipelined in chunks
 * (all_reduce); one binary tree from rank 0 (broadcast).
 */
#include "collective-algorithm.h"

#include <algorithm>
#include <cmath>

namespace fabric
{
namespace collective
{
namespace
{

/** Children of each position of the tree `parent` describes, and its root. */
std::size_t
ChildrenOf(const std::vector<int64_t>& parent, std::vector<std::vector<std::size_t>>& children)
{
    std::size_t root = 0;
    for (std::size_t q = 0; q < parent.size(); ++q)
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
    return root;
}

std::vector<std::size_t>
PostOrder(const std::vector<std::vector<std::size_t>>& children, std::size_t root)
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

class Tree : public CollectiveAlgorithm
{
  public:
    const char* Name() const override { return "tree"; }

    /** Each of the two trees carries half of an all_reduce's data; a broadcast all of it. */
    uint64_t MessageParts(const CollectiveRequest& req) const override
    {
        return req.op == "broadcast" ? 1 : 2;
    }

    double TransfersPerChannel(const CollectiveRequest& req) const override
    {
        double n = static_cast<double>(req.serverOf.size());
        double channelBytes = std::ceil(static_cast<double>(req.messageBytes) / req.channels);
        auto chunks = [&](double bytes, double chunk)
        {
            return chunk > 0 ? std::max(1.0, std::ceil(bytes / chunk)) : 1.0;
        };
        double pipe = req.chunkBytes ? req.chunkBytes : kDefaultPipelineChunk;
        double trees = req.op == "all_reduce" ? 2 : 1;
        double phases = req.op == "all_reduce" ? 2 : 1;
        return trees * phases * (n - 1) * chunks(std::ceil(channelBytes / trees), pipe);
    }

    void PlanChannel(PlanBuilder& plan, uint32_t c) const override
    {
        if (plan.Request().op == "all_reduce")
        {
            DoubleTree(plan, c);
        }
        else
        {
            BroadcastTree(plan, c);
        }
    }

  private:
    /**
     * NCCL's double binary tree. The trees join nodes: ranks, or, when ranks come in servers
     * (consecutive, equal counts g), servers, each reached through its GPU of local index
     * c mod g (so a channel's tree edges stay on one rail) with a chain over NVLink through the
     * server's other GPUs to it, as NCCL builds trees across nodes. Tree 0 over node order,
     * tree 1 shifted by one node (leaves of one are inner nodes of the other); each carries
     * half the data: reduce to the root, then broadcast back, chunk by chunk.
     */
    static void DoubleTree(PlanBuilder& plan, uint32_t c)
    {
        const Servers& servers = plan.ServerGroups();
        std::vector<std::vector<uint32_t>> chains; // per node: its ranks, the head last
        std::size_t g = servers.ranks[0].size();
        if (servers.contiguousEqual && g > 1)
        {
            for (const auto& server : servers.ranks)
            {
                chains.push_back(Rotated(server, static_cast<uint32_t>((c + 1) % g)));
            }
        }
        else
        {
            for (uint32_t r = 0; r < plan.N(); ++r)
            {
                chains.push_back({r});
            }
        }
        std::size_t nodes = chains.size();
        std::vector<int64_t> parent = InOrderTreeParents(static_cast<uint32_t>(nodes));
        uint64_t half = CeilDiv(plan.ChannelBytes(), 2);
        std::vector<uint64_t> parts = Chunks(half, plan.PipelineChunk());
        uint32_t m = static_cast<uint32_t>(parts.size());
        std::vector<std::vector<std::size_t>> children(nodes);
        std::size_t root = ChildrenOf(parent, children);
        std::vector<std::size_t> order = PostOrder(children, root);
        for (uint32_t t = 0; t < 2; ++t)
        {
            uint32_t ch = 2 * c + t;
            auto chain = [&](std::size_t q) -> const std::vector<uint32_t>&
            {
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
                        last = plan.Add(ranks[i], ranks[i + 1], parts[j], j, ch, std::move(after));
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
                        up[q].push_back(plan.Add(ranks.back(),
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
                        down[q].push_back(plan.Add(chain(p).back(), ranks.back(), parts[j], m + j,
                                                   ch, std::move(after)));
                        have = {down[q][j]};
                    }
                    for (std::size_t i = ranks.size() - 1; i > 0; --i)
                    {
                        uint32_t sent = plan.Add(ranks[i], ranks[i - 1], parts[j], m + j, ch, have);
                        have = {sent};
                    }
                }
            }
        }
    }

    /** Broadcast down one binary tree rooted at rank 0, pipelined in chunks. */
    static void BroadcastTree(PlanBuilder& plan, uint32_t c)
    {
        uint32_t n = plan.N();
        std::vector<int64_t> parent = InOrderTreeParents(n);
        std::vector<std::vector<std::size_t>> children(n);
        std::size_t root = ChildrenOf(parent, children);
        auto rank = [&](std::size_t q)
        {
            return static_cast<uint32_t>((q + n - root) % n);
        };
        std::vector<uint64_t> parts = Chunks(plan.ChannelBytes(), plan.PipelineChunk());
        std::vector<std::size_t> order = PostOrder(children, root);
        std::vector<std::vector<uint32_t>> down(n);
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
                down[q].push_back(plan.Add(rank(p), rank(q), parts[j], j, c, std::move(after)));
            }
        }
    }
};

} // namespace

const CollectiveAlgorithm&
TreeAlgorithm()
{
    static const Tree tree;
    return tree;
}

} // namespace collective
} // namespace fabric
