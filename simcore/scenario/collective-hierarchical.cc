/*
 * hierarchical (collective-plan.h): ring reduce-scatter inside each server, ring all-reduce
 * across servers among the GPUs of one local index, ring all-gather inside each server
 * (all_reduce); every server holds the same number of ranks, one after another.
 */
#include "collective-algorithm.h"

namespace fabric
{
namespace collective
{
namespace
{

class Hierarchical : public CollectiveAlgorithm
{
  public:
    const char* Name() const override { return "hierarchical"; }

    void Check(const CollectiveRequest& req) const override
    {
        if (!GroupByServer(req.serverOf).contiguousEqual)
        {
            throw PlanError("hosts", "hierarchical needs every server to hold the same number of "
                                     "ranks, a server's ranks one after another in rank order");
        }
    }

    /** Each of the g GPUs of a server carries a shard, split among the n / g servers. */
    uint64_t MessageParts(const CollectiveRequest& req) const override
    {
        std::size_t n = req.serverOf.size();
        std::size_t g = GroupByServer(req.serverOf).ranks[0].size();
        return g * (n / g);
    }

    /** A ring reduce-scatter and all-gather in each of m servers of g ranks, a ring all-reduce
     *  across the servers for each local index. */
    double TransfersPerChannel(const CollectiveRequest& req) const override
    {
        Servers s = GroupByServer(req.serverOf);
        double g = static_cast<double>(s.ranks[0].size());
        double m = static_cast<double>(s.ranks.size());
        return 2 * m * g * (g - 1) + g * m * 2 * (m - 1);
    }

    void PlanChannel(PlanBuilder& plan, uint32_t c) const override
    {
        const auto& groups = plan.ServerGroups().ranks;
        std::size_t g = groups[0].size();
        std::size_t m = groups.size();
        uint64_t total = plan.ChannelBytes();
        uint64_t shard = CeilDiv(total, g);
        // phase 1: ring reduce-scatter inside each server (over NVLink)
        std::vector<std::vector<uint32_t>> ready(plan.N()); // by rank: what phase 2 waits for
        for (std::size_t s = 0; s < m && g > 1; ++s)
        {
            auto into =
                plan.Ring(Rotated(groups[s], c), shard, static_cast<uint32_t>(g - 1), 0, c, 0, {});
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
                auto into = plan.Ring(order, CeilDiv(shard, m), static_cast<uint32_t>(2 * (m - 1)),
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
            plan.Ring(order, shard, static_cast<uint32_t>(g - 1), step, c, 0, start);
        }
    }
};

} // namespace

const CollectiveAlgorithm&
HierarchicalAlgorithm()
{
    static const Hierarchical hierarchical;
    return hierarchical;
}

} // namespace collective
} // namespace fabric
