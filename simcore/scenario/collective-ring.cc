/*
 * ring (collective-plan.h): reduce-scatter then all-gather around a ring, 2(n-1) steps of S/n
 * (all_reduce), n-1 steps (all_gather, reduce_scatter), a pipelined chain from rank 0
 * (broadcast). The ring's order and step count are public (RingOrderOf, RingSteps): the flow
 * engine streams a ring's connections (flow/ring-streams.cc).
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

bool
RingOp(const std::string& op)
{
    return op == "all_reduce" || op == "all_gather" || op == "reduce_scatter";
}

class Ring : public CollectiveAlgorithm
{
  public:
    const char* Name() const override { return "ring"; }

    double TransfersPerChannel(const CollectiveRequest& req) const override
    {
        double n = static_cast<double>(req.serverOf.size());
        double channelBytes = std::ceil(static_cast<double>(req.messageBytes) / req.channels);
        auto chunks = [&](double bytes, double chunk)
        {
            return chunk > 0 ? std::max(1.0, std::ceil(bytes / chunk)) : 1.0;
        };
        if (req.op == "broadcast")
        {
            double pipe = req.chunkBytes ? req.chunkBytes : kDefaultPipelineChunk;
            return (n - 1) * chunks(channelBytes, pipe);
        }
        double steps = req.op == "all_reduce" ? 2 * (n - 1) : n - 1;
        return steps * n * chunks(std::ceil(channelBytes / n), req.chunkBytes);
    }

    bool Streamable(const CollectiveRequest& req) const override
    {
        return RingOp(req.op) && req.serverOf.size() >= 2 &&
               (req.chunkBytes == 0 || req.chunkBytes >= RingBlockBytes(req));
    }

    void PlanChannel(PlanBuilder& plan, uint32_t c) const override
    {
        const CollectiveRequest& req = plan.Request();
        uint32_t n = plan.N();
        if (req.op == "broadcast")
        {
            Chain(plan, c);
            return;
        }
        uint32_t steps = req.op == "all_reduce" ? 2 * (n - 1) : n - 1;
        plan.Ring(RingOrder(plan.ServerGroups(), n, c), CeilDiv(plan.ChannelBytes(), n), steps, 0,
                  c, req.chunkBytes, {});
    }

  private:
    /** Broadcast as a pipelined chain from rank 0 along the channel's ring. */
    static void Chain(PlanBuilder& plan, uint32_t c)
    {
        uint32_t n = plan.N();
        std::vector<uint32_t> order = RingOrder(plan.ServerGroups(), n, c);
        std::rotate(order.begin(), std::find(order.begin(), order.end(), 0u), order.end());
        std::vector<uint64_t> parts = Chunks(plan.ChannelBytes(), plan.PipelineChunk());
        std::vector<uint32_t> prev;
        for (uint32_t p = 0; p + 1 < n; ++p)
        {
            std::vector<uint32_t> cur;
            for (std::size_t j = 0; j < parts.size(); ++j)
            {
                std::vector<uint32_t> after;
                if (p > 0)
                {
                    after.push_back(prev[j]);
                }
                cur.push_back(plan.Add(order[p], order[p + 1], parts[j], p, c, std::move(after)));
            }
            prev.swap(cur);
        }
    }
};

} // namespace

const CollectiveAlgorithm&
RingAlgorithm()
{
    static const Ring ring;
    return ring;
}

} // namespace collective

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
    return collective::CeilDiv(collective::CeilDiv(req.messageBytes, req.channels),
                               std::max<uint64_t>(1, n));
}

std::vector<uint32_t>
RingOrderOf(const CollectiveRequest& req, uint32_t channel)
{
    return collective::RingOrder(collective::GroupByServer(req.serverOf),
                                 static_cast<uint32_t>(req.serverOf.size()), channel);
}

} // namespace fabric
