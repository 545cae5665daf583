#include "flow/ring-makespan.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>

namespace fabric
{
namespace flow
{

namespace
{

/** Range maximum over a fixed array in O(1) per query (sparse table). */
class RangeMax
{
  public:
    explicit RangeMax(std::vector<double> v)
    {
        std::size_t n = v.size();
        m_levels.push_back(std::move(v));
        for (std::size_t w = 1; 2 * w <= n; w *= 2)
        {
            const std::vector<double>& prev = m_levels.back();
            std::vector<double> next(n - 2 * w + 1);
            for (std::size_t i = 0; i < next.size(); ++i)
            {
                next[i] = std::max(prev[i], prev[i + w]);
            }
            m_levels.push_back(std::move(next));
        }
    }

    /** max of v[lo..hi], lo <= hi. */
    double Max(std::size_t lo, std::size_t hi) const
    {
        std::size_t len = hi - lo + 1;
        std::size_t k = 0;
        while ((std::size_t(2) << k) <= len)
        {
            ++k;
        }
        return std::max(m_levels[k][lo], m_levels[k][hi + 1 - (std::size_t(1) << k)]);
    }

  private:
    std::vector<std::vector<double>> m_levels;
};

/** Most distinct values of s the closed form keeps (each costs a range-maximum table). */
constexpr std::size_t kMaxClasses = 32;

/**
 * s with at most kMaxClasses distinct values: as given when they are that few, else each
 * rounded up to the next of kMaxClasses levels evenly spaced from the smallest to the largest
 * (the makespan is then an upper bound, by at most the level spacing per step).
 */
std::vector<double>
Classes(const std::vector<double>& s)
{
    std::vector<double> sorted(s);
    std::sort(sorted.begin(), sorted.end());
    sorted.erase(std::unique(sorted.begin(), sorted.end()), sorted.end());
    if (sorted.size() <= kMaxClasses)
    {
        return s;
    }
    double lo = sorted.front();
    double step = (sorted.back() - lo) / static_cast<double>(kMaxClasses - 1);
    std::vector<double> out(s.size());
    for (std::size_t i = 0; i < s.size(); ++i)
    {
        double k = std::ceil((s[i] - lo) / step);
        out[i] = std::min(sorted.back(), lo + k * step);
    }
    return out;
}

} // namespace

double
RingMakespanByRecursionPs(const std::vector<double>& d,
                          const std::vector<double>& s,
                          uint64_t steps)
{
    std::size_t n = d.size();
    if (n == 0 || steps == 0)
    {
        return 0;
    }
    std::vector<double> c(d);
    std::vector<double> next(n);
    for (uint64_t k = 1; k < steps; ++k)
    {
        for (std::size_t p = 0; p < n; ++p)
        {
            next[p] = std::max(c[(p + n - 1) % n] + d[p], c[p] + s[p]);
        }
        c.swap(next);
    }
    return *std::max_element(c.begin(), c.end());
}

double
RingMakespanPs(const std::vector<double>& d, const std::vector<double>& s, uint64_t steps)
{
    std::size_t n = d.size();
    if (n == 0 || steps == 0)
    {
        return 0;
    }
    std::vector<double> sq = Classes(s);
    const std::vector<double>& s_ = sq;
    std::size_t K = static_cast<std::size_t>(steps);
    std::size_t N = n + K; // positions q + a for q < n, a < K
    std::vector<double> D(N + 1, 0.0);
    for (std::size_t j = 0; j < N; ++j)
    {
        D[j + 1] = D[j] + d[j % n];
    }
    // next position with a strictly larger s (N: none)
    std::vector<uint32_t> greater(N, static_cast<uint32_t>(N));
    std::vector<uint32_t> stack;
    for (std::size_t j = N; j-- > 0;)
    {
        while (!stack.empty() && s_[stack.back() % n] <= s_[j % n])
        {
            stack.pop_back();
        }
        greater[j] = stack.empty() ? static_cast<uint32_t>(N) : stack.back();
        stack.push_back(static_cast<uint32_t>(j));
    }
    // a range-maximum table of D[j] - j x per distinct s value x, built when first needed
    std::map<double, RangeMax> tables;
    auto table = [&](double x) -> const RangeMax&
    {
        auto it = tables.find(x);
        if (it == tables.end())
        {
            std::vector<double> g(N + 1);
            for (std::size_t j = 0; j <= N; ++j)
            {
                g[j] = D[j] - static_cast<double>(j) * x;
            }
            it = tables.emplace(x, RangeMax(std::move(g))).first;
        }
        return it->second;
    };
    double best = -std::numeric_limits<double>::infinity();
    for (std::size_t q = 0; q < n; ++q)
    {
        std::size_t last = q + K - 1; // the furthest position a path from q reaches
        std::size_t r = q;
        while (r <= last)
        {
            double m = s_[r % n];
            std::size_t end = std::min<std::size_t>(greater[r], last + 1); // first position past
            // a path advancing to any position in [r, end) stays on m: j = position + 1
            double g = table(m).Max(r + 1, end);
            double value =
                g + (static_cast<double>(q) + 1) * m - D[q] + static_cast<double>(K - 1) * m;
            best = std::max(best, value);
            r = end;
        }
    }
    return best;
}

} // namespace flow
} // namespace fabric
