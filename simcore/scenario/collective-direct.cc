/*
 * direct (collective-plan.h): every rank sends its block to every other rank at once
 * (all_to_all: NCCL posts them as one group of point-to-point sends; the fabric decides how
 * they share links).
 */
#include "collective-algorithm.h"

namespace fabric
{
namespace collective
{
namespace
{

class Direct : public CollectiveAlgorithm
{
  public:
    const char* Name() const override { return "direct"; }

    double TransfersPerChannel(const CollectiveRequest& req) const override
    {
        double n = static_cast<double>(req.serverOf.size());
        return (n - 1) * n;
    }

    /** Step k - 1 holds the sends to rank r + k: the fabric, not a schedule, shares the links. */
    void PlanChannel(PlanBuilder& plan, uint32_t c) const override
    {
        uint32_t n = plan.N();
        uint64_t block = CeilDiv(plan.ChannelBytes(), n);
        for (uint32_t k = 1; k < n; ++k)
        {
            for (uint32_t r = 0; r < n; ++r)
            {
                plan.Add(r, (r + k) % n, block, k - 1, c, {});
            }
        }
    }
};

} // namespace

const CollectiveAlgorithm&
DirectAlgorithm()
{
    static const Direct direct;
    return direct;
}

} // namespace collective
} // namespace fabric
