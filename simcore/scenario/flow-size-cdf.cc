#include "flow-size-cdf.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace fabric
{

FlowSizeCdf::FlowSizeCdf(std::vector<std::pair<double, double>> points)
    : m_points(std::move(points))
{
    if (m_points.empty())
    {
        throw std::invalid_argument("empty flow-size CDF");
    }
}

FlowSizeCdf
FlowSizeCdf::Named(const std::string& name)
{
    // Size in bytes, cumulative percent: the files of the HPCC simulator's traffic generator
    // (simcore/data/flow-size-cdfs/, copied from alibaba-edu/High-Precision-Congestion-Control
    // traffic_gen/), the generator the field uses for these workloads. Each starts at (0, 0),
    // so the first segment spreads flows evenly over 0 .. first size, as that generator does.
    if (name == "websearch") // WebSearch_distribution.txt
    {
        return FlowSizeCdf({{0, 0},
                            {10000, 15},
                            {20000, 20},
                            {30000, 30},
                            {50000, 40},
                            {80000, 53},
                            {200000, 60},
                            {1000000, 70},
                            {2000000, 80},
                            {5000000, 90},
                            {10000000, 97},
                            {30000000, 100}});
    }
    if (name == "fb_hadoop") // FbHdp_distribution.txt
    {
        return FlowSizeCdf({{0, 0},
                            {100, 1},
                            {200, 2},
                            {300, 5},
                            {350, 15},
                            {400, 20},
                            {500, 30},
                            {600, 40},
                            {700, 50},
                            {1000, 60},
                            {2000, 67},
                            {7000, 70},
                            {30000, 72},
                            {50000, 82},
                            {80000, 87},
                            {120000, 90},
                            {300000, 95},
                            {1000000, 97.5},
                            {2000000, 99},
                            {10000000, 100}});
    }
    if (name == "alistorage") // AliStorage2019.txt
    {
        return FlowSizeCdf({{0, 0},
                            {4000, 22.93},
                            {8000, 69.21},
                            {16000, 80.61},
                            {32000, 90.47},
                            {64000, 93.53},
                            {128000, 96.77},
                            {256000, 97.53},
                            {2000000, 100}});
    }
    throw std::out_of_range("unknown flow-size distribution " + name);
}

double
FlowSizeCdf::Mean() const
{
    double mean = m_points[0].first * m_points[0].second / 100.0;
    for (std::size_t i = 1; i < m_points.size(); ++i)
    {
        double mass = (m_points[i].second - m_points[i - 1].second) / 100.0;
        mean += mass * (m_points[i].first + m_points[i - 1].first) / 2.0;
    }
    return mean;
}

uint64_t
FlowSizeCdf::Sample(double u) const
{
    double p = std::min(std::max(u, 0.0), 1.0) * 100.0;
    double size = m_points.back().first;
    if (p <= m_points[0].second)
    {
        size = m_points[0].first;
    }
    else
    {
        auto it = std::lower_bound(m_points.begin(), m_points.end(), p,
                                   [](const std::pair<double, double>& pt, double value)
                                   { return pt.second < value; });
        if (it != m_points.end())
        {
            const auto& hi = *it;
            const auto& lo = *(it - 1);
            double span = hi.second - lo.second;
            size = span > 0 ? lo.first + (hi.first - lo.first) * (p - lo.second) / span : hi.first;
        }
    }
    return std::max<uint64_t>(1, static_cast<uint64_t>(std::llround(size)));
}

const std::vector<std::pair<double, double>>&
FlowSizeCdf::Points() const
{
    return m_points;
}

} // namespace fabric
