/*
 * halving_doubling (collective-plan.h): recursive halving (reduce-scatter) then doubling
 * (all-gather) with partners n/2, n/4, ... apart; a power-of-two number of ranks.
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

class HalvingDoubling : public CollectiveAlgorithm
{
  public:
    const char* Name() const override { return "halving_doubling"; }

    void Check(const CollectiveRequest& req) const override
    {
        uint32_t n = static_cast<uint32_t>(req.serverOf.size());
        if (!(n && !(n & (n - 1))))
        {
            throw PlanError("hosts", "halving_doubling needs a power-of-two number of ranks (got " +
                                         std::to_string(n) + ")");
        }
    }

    double TransfersPerChannel(const CollectiveRequest& req) const override
    {
        double n = static_cast<double>(req.serverOf.size());
        double levels = std::ceil(std::log2(std::max(2.0, n)));
        return (req.op == "all_reduce" ? 2 : 1) * levels * n;
    }

    /** Halving for all_reduce and reduce_scatter, doubling for all_reduce and all_gather. */
    void PlanChannel(PlanBuilder& plan, uint32_t c) const override
    {
        uint32_t n = plan.N();
        uint32_t levels = 0;
        while ((1u << levels) < n)
        {
            ++levels;
        }
        uint64_t total = plan.ChannelBytes();
        bool halve = plan.Request().op != "all_gather";
        bool dbl = plan.Request().op != "reduce_scatter";
        std::vector<uint32_t> prev; // by rank: the transfer it sent in the previous step
        uint32_t lastDistance = 0;  // the partner distance of that step
        uint32_t step = 0;
        auto exchange = [&](uint32_t distance, uint64_t bytes)
        {
            std::vector<uint32_t> cur(n);
            for (uint32_t r = 0; r < n; ++r)
            {
                std::vector<uint32_t> after;
                if (!prev.empty())
                {
                    after.push_back(prev[r ^ lastDistance]); // what arrived at r last step
                }
                cur[r] = plan.Add(r, r ^ distance, bytes, step, c, std::move(after));
            }
            prev.swap(cur);
            lastDistance = distance;
            ++step;
        };
        if (halve)
        {
            for (uint32_t s = 0; s < levels; ++s)
            {
                exchange(n >> (s + 1), CeilDiv(total, uint64_t(1) << (s + 1)));
            }
        }
        if (dbl)
        {
            for (uint32_t t = 0; t < levels; ++t)
            {
                exchange(1u << t, CeilDiv(total << t, n));
            }
        }
    }
};

} // namespace

const CollectiveAlgorithm&
HalvingDoublingAlgorithm()
{
    static const HalvingDoubling halvingDoubling;
    return halvingDoubling;
}

} // namespace collective
} // namespace fabric
