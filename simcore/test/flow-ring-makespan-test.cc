/*
 * The closed form of a ring's makespan (flow/ring-makespan.h) against the recursion it
 * solves, on random rings of network and NVLink hops, and against the textbook ring by hand.
 */
#include "flow/ring-makespan.h"

#include <gtest/gtest.h>

#include <random>

namespace
{

using fabric::flow::RingMakespanByRecursionPs;
using fabric::flow::RingMakespanPs;

TEST(FlowRingMakespan, FlatRingIsStepsTimesStepAndLatency)
{
    // n identical network hops: each step waits for the one before, 2(n-1) x (s + L)
    std::vector<double> d(8, 350.0 + 5.0);
    std::vector<double> s(8, 350.0);
    EXPECT_DOUBLE_EQ(RingMakespanPs(d, s, 14), 14 * 355.0);
    EXPECT_DOUBLE_EQ(RingMakespanByRecursionPs(d, s, 14), 14 * 355.0);
}

TEST(FlowRingMakespan, RailRingIsBandwidthBoundWhenNvlinkIsFast)
{
    // 4 servers of 8 GPUs: per server 7 NVLink hops (d = 1, s = 0) and one network hop
    // (s = 10, L = 3). The network hop's 10 per step bounds the ring: the last step ends at
    // most a lap's latency after K x 10.
    std::vector<double> d;
    std::vector<double> s;
    for (int server = 0; server < 4; ++server)
    {
        for (int g = 0; g < 7; ++g)
        {
            d.push_back(1);
            s.push_back(0);
        }
        d.push_back(13);
        s.push_back(10);
    }
    uint64_t k = 2 * (32 - 1);
    double t = RingMakespanPs(d, s, k);
    EXPECT_DOUBLE_EQ(t, RingMakespanByRecursionPs(d, s, k));
    EXPECT_GE(t, k * 10.0);
    EXPECT_LE(t, k * 10.0 + 3 + 7 * 1 + 13);
}

TEST(FlowRingMakespan, ClosedFormEqualsTheRecursion)
{
    std::mt19937 rng(11);
    for (int trial = 0; trial < 300; ++trial)
    {
        std::size_t n = 2 + rng() % 40;
        uint64_t steps = 1 + rng() % (2 * n);
        std::vector<double> d(n);
        std::vector<double> s(n);
        for (std::size_t p = 0; p < n; ++p)
        {
            if (rng() % 3 == 0)
            {
                s[p] = 0; // NVLink
                d[p] = 1 + rng() % 5;
            }
            else
            {
                s[p] = 5 + rng() % 4 * 2.5; // a few distinct rates
                d[p] = s[p] + rng() % 20;
            }
        }
        EXPECT_NEAR(RingMakespanPs(d, s, steps), RingMakespanByRecursionPs(d, s, steps), 1e-6)
            << "trial " << trial << " n " << n << " steps " << steps;
    }
}

TEST(FlowRingMakespan, ManyDistinctRatesGiveAnUpperBound)
{
    // more than 32 distinct step times: rounded up to 32 levels, never below the recursion
    std::mt19937 rng(3);
    std::size_t n = 200;
    std::vector<double> d(n);
    std::vector<double> s(n);
    for (std::size_t p = 0; p < n; ++p)
    {
        s[p] = 100 + static_cast<double>(rng() % 1000) / 10;
        d[p] = s[p] + 20;
    }
    uint64_t steps = 2 * (n - 1);
    double exact = RingMakespanByRecursionPs(d, s, steps);
    double bound = RingMakespanPs(d, s, steps);
    EXPECT_GE(bound, exact - 1e-6);
    EXPECT_LE(bound, exact * 1.05);
}

} // namespace
