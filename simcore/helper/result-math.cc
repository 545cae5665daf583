#include "helper/result-math.h"

#include <algorithm>
#include <cmath>

namespace fabric
{

double
Percentile(const std::vector<double>& sorted, double p)
{
    if (sorted.empty())
    {
        return 0;
    }
    double rank = std::ceil(p * static_cast<double>(sorted.size()));
    size_t idx = rank < 1 ? 0 : static_cast<size_t>(rank) - 1;
    return sorted[std::min(idx, sorted.size() - 1)];
}

} // namespace fabric
