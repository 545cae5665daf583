#include "helper/auto-monitor.h"

#include <algorithm>

namespace fabric
{

std::vector<std::size_t>
TopRanked(std::vector<Ranked> all, std::size_t n)
{
    std::sort(all.begin(), all.end(), [](const Ranked& a, const Ranked& b) {
        if (a.score != b.score)
        {
            return a.score > b.score;
        }
        if (a.secondary != b.secondary)
        {
            return a.secondary > b.secondary;
        }
        return a.name < b.name;
    });
    std::vector<std::size_t> out;
    for (std::size_t i = 0; i < all.size() && out.size() < n; ++i)
    {
        out.push_back(all[i].index);
    }
    return out;
}

uint64_t
NonZeroSamples(const LazySeries<uint8_t>& s)
{
    uint64_t n = 0;
    for (uint8_t v : s.values)
    {
        n += v != 0;
    }
    return n;
}

} // namespace fabric
