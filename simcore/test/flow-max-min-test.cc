/*
 * The flow engine's max-min solver (flow/max-min-solver.h) against allocations worked out by
 * hand: one bottleneck shared evenly, the textbook parking lot, a flow split over two paths, a
 * rate cap, the ACKs' share of a link; and the incremental solve against a solve from scratch
 * over random arrivals, departures and replacements (the closure argument and the short ways
 * of the header comment).
 */
#include "flow/max-min-solver.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>

namespace
{

using fabric::flow::LinkShare;
using fabric::flow::MaxMinSolver;

constexpr double kNoCap = std::numeric_limits<double>::infinity();

std::vector<uint32_t> g_changed;

/**
 * Where ACKs share the links, rates are the ACK passes' fixed point to within 1e-7 of
 * themselves (the solver stops when a pass moves no rate by more than 1e-6 of itself, and the
 * ACKs' share of a link, under 8 %, shrinks the rest by that much each pass).
 */
constexpr double kAckFixedPoint = 1e-7;

double
Solve(MaxMinSolver& s, double nowPs = 0)
{
    s.Solve(nowPs, g_changed);
    return nowPs;
}

TEST(FlowMaxMin, TwoFlowsOnOneBottleneckGetHalfEach)
{
    // 100G access links into one 100G link: each of two flows gets 50G.
    MaxMinSolver s({100e9, 100e9, 100e9}, 0);
    uint32_t a = s.Add(0, {{0, 1.0}, {2, 1.0}}, {}, 0, kNoCap);
    uint32_t b = s.Add(0, {{1, 1.0}, {2, 1.0}}, {}, 0, kNoCap);
    Solve(s);
    EXPECT_DOUBLE_EQ(s.Rate(a), 50e9);
    EXPECT_DOUBLE_EQ(s.Rate(b), 50e9);
    // one leaves: the other takes the whole link
    s.Remove(1000, a);
    Solve(s, 1000);
    EXPECT_DOUBLE_EQ(s.Rate(b), 100e9);
}

TEST(FlowMaxMin, ParkingLotGetsTheTextbookAllocation)
{
    // Links A (10) and B (4) in a row; flow 0 crosses both, flow 1 only A, flow 2 only B.
    // B is the tightest: flows 0 and 2 get 4/2 = 2 each; flow 1 takes what A has left, 10 - 2.
    MaxMinSolver s({10, 4}, 0);
    uint32_t f0 = s.Add(0, {{0, 1.0}, {1, 1.0}}, {}, 0, kNoCap);
    uint32_t f1 = s.Add(0, {{0, 1.0}}, {}, 0, kNoCap);
    uint32_t f2 = s.Add(0, {{1, 1.0}}, {}, 0, kNoCap);
    Solve(s);
    EXPECT_DOUBLE_EQ(s.Rate(f0), 2);
    EXPECT_DOUBLE_EQ(s.Rate(f1), 8);
    EXPECT_DOUBLE_EQ(s.Rate(f2), 2);
    // equal capacities: everyone gets half a link
    MaxMinSolver t({10, 10}, 0);
    uint32_t g0 = t.Add(0, {{0, 1.0}, {1, 1.0}}, {}, 0, kNoCap);
    uint32_t g1 = t.Add(0, {{0, 1.0}}, {}, 0, kNoCap);
    uint32_t g2 = t.Add(0, {{1, 1.0}}, {}, 0, kNoCap);
    Solve(t);
    EXPECT_DOUBLE_EQ(t.Rate(g0), 5);
    EXPECT_DOUBLE_EQ(t.Rate(g1), 5);
    EXPECT_DOUBLE_EQ(t.Rate(g2), 5);
}

TEST(FlowMaxMin, SplitFlowUsesBothPaths)
{
    // A sprayed flow puts half its rate on each of two 10G paths (links 0, 1); a second flow
    // shares path 1. Link 1: x/2 + y <= 10, link 0: x/2 <= 10. Rising together, link 1 fills
    // at 1.5 t = 10: both stop at 20/3 (max-min freezes every flow of a full link; link 0 keeps
    // room the split flow cannot use without taking from the other).
    MaxMinSolver s({10, 10}, 0);
    uint32_t x = s.Add(0, {{0, 0.5}, {1, 0.5}}, {}, 0, kNoCap);
    uint32_t y = s.Add(0, {{1, 1.0}}, {}, 0, kNoCap);
    Solve(s);
    EXPECT_NEAR(s.Rate(x), 20.0 / 3, 1e-12);
    EXPECT_NEAR(s.Rate(y), 20.0 / 3, 1e-12);
    // alone, the split flow gets both paths: 20
    s.Remove(0, y);
    Solve(s);
    EXPECT_NEAR(s.Rate(x), 20.0, 1e-12);
}

TEST(FlowMaxMin, CapLimitsOneFlowAndTheRestGoesToTheOthers)
{
    MaxMinSolver s({100}, 0);
    uint32_t a = s.Add(0, {{0, 1.0}}, {}, 0, 10); // e.g. a QP window over its RTT
    uint32_t b = s.Add(0, {{0, 1.0}}, {}, 0, kNoCap);
    Solve(s);
    EXPECT_DOUBLE_EQ(s.Rate(a), 10);
    EXPECT_DOUBLE_EQ(s.Rate(b), 90);
}

TEST(FlowMaxMin, AcksTakeTheirShareFirst)
{
    // Flow a sends on link 0; flow b sends on link 1 and its ACKs (share r of its rate) come
    // back on link 0. Link 1 gives b all of C; link 0 carries a + r b = C: a = C (1 - r).
    const double c = 100;
    const double r = 86.0 / 4178; // an ACK per 4096-byte frame
    MaxMinSolver s({c, c}, 0);
    uint32_t a = s.Add(0, {{0, 1.0}}, {}, 0, kNoCap);
    uint32_t b = s.Add(0, {{1, 1.0}}, {{0, 1.0}}, r, kNoCap);
    Solve(s);
    EXPECT_DOUBLE_EQ(s.Rate(b), c);
    EXPECT_NEAR(s.Rate(a), c * (1 - r), c * kAckFixedPoint);
    // Both ways (a host sends one flow and receives another, as in a ring): each link carries
    // x + r x = C, so x = C / (1 + r).
    MaxMinSolver t({c, c}, 0);
    uint32_t x = t.Add(0, {{0, 1.0}}, {{1, 1.0}}, r, kNoCap);
    uint32_t y = t.Add(0, {{1, 1.0}}, {{0, 1.0}}, r, kNoCap);
    Solve(t);
    EXPECT_NEAR(t.Rate(x), c / (1 + r), c * kAckFixedPoint);
    EXPECT_NEAR(t.Rate(y), c / (1 + r), c * kAckFixedPoint);
}

TEST(FlowMaxMin, CountsBitsSentAndCarried)
{
    // 100 Gbit/s for 1 us = 100,000 bits; the link counts only from 0.5 us (the warm-up)
    MaxMinSolver s({100e9}, 500000);
    uint32_t a = s.Add(0, {{0, 1.0}}, {}, 0, kNoCap);
    Solve(s, 0);
    EXPECT_NEAR(s.SentBits(a, 1e6), 100000, 1e-6);
    EXPECT_NEAR(s.CarriedBits(0, 1e6), 50000, 1e-6);
    s.Remove(1e6, a);
    EXPECT_NEAR(s.CarriedBits(0, 3e6), 50000, 1e-6);
}

TEST(FlowMaxMin, IncrementalSolveEqualsASolveFromScratch)
{
    // Random flows over 12 links (some shared, some split, some with ACKs and caps) come and
    // go; after every change the incremental rates equal a new solver's over the same flows.
    std::mt19937 rng(7);
    const uint32_t links = 12;
    std::vector<double> cap(links);
    for (uint32_t l = 0; l < links; ++l)
    {
        cap[l] = 10 + 10 * (l % 4);
    }
    struct Spec
    {
        std::vector<LinkShare> data;
        std::vector<LinkShare> acks;
        double ack;
        double cap;
    };
    MaxMinSolver inc(cap, 0);
    std::vector<std::pair<uint32_t, Spec>> active;
    for (int round = 0; round < 300; ++round)
    {
        bool add = active.size() < 3 || (rng() % 3 != 0 && active.size() < 40);
        if (!add && rng() % 2 == 0)
        {
            // one leaves and another starts at the same time: the same links, weights and cap
            // (a connection's next transfer: it takes the place of the one that left), or one
            // of them different (it must not)
            std::size_t k = rng() % active.size();
            Spec sp = active[k].second;
            switch (rng() % 6)
            {
            case 0:
                sp.cap = std::isfinite(sp.cap) ? kNoCap : 2.0;
                break;
            case 1:
                sp.data.front().share = sp.data.front().share == 1.0 ? 0.5 : 1.0;
                break;
            case 2:
                sp.acks.assign(1, {static_cast<uint32_t>(rng() % links), 1.0});
                break;
            default:
                break;
            }
            if (rng() % 4 == 0)
            {
                // one that comes and goes unsolved has no rate to hand on
                inc.Remove(round, inc.Add(round, sp.data, sp.acks, sp.ack, sp.cap));
            }
            else
            {
                inc.Remove(round, active[k].first);
                active.erase(active.begin() + static_cast<std::ptrdiff_t>(k));
            }
            uint32_t h = inc.Add(round, sp.data, sp.acks, sp.ack, sp.cap);
            active.emplace_back(h, sp);
        }
        else if (add)
        {
            Spec sp;
            uint32_t hops = 1 + rng() % 3;
            std::vector<uint32_t> used;
            for (uint32_t h = 0; h < hops; ++h)
            {
                uint32_t l = rng() % links;
                if (std::find(used.begin(), used.end(), l) != used.end())
                {
                    continue;
                }
                used.push_back(l);
            }
            std::sort(used.begin(), used.end());
            bool split = rng() % 4 == 0;
            for (uint32_t l : used)
            {
                sp.data.push_back({l, split ? 0.5 : 1.0});
            }
            if (rng() % 2 == 0)
            {
                sp.acks.push_back({static_cast<uint32_t>(rng() % links), 1.0});
            }
            sp.ack = 0.01;
            sp.cap = rng() % 5 == 0 ? 3.0 + rng() % 7 : kNoCap;
            uint32_t h = inc.Add(round, sp.data, sp.acks, sp.ack, sp.cap);
            active.emplace_back(h, sp);
        }
        else
        {
            std::size_t k = rng() % active.size();
            inc.Remove(round, active[k].first);
            active.erase(active.begin() + static_cast<std::ptrdiff_t>(k));
        }
        inc.Solve(round, g_changed);
        MaxMinSolver fresh(cap, 0);
        std::vector<uint32_t> handles;
        for (const auto& [h, sp] : active)
        {
            handles.push_back(fresh.Add(round, sp.data, sp.acks, sp.ack, sp.cap));
        }
        fresh.Solve(round, g_changed);
        // the same allocation (the ACK passes converge from either start to within
        // kAckFixedPoint of a rate)
        for (std::size_t i = 0; i < active.size(); ++i)
        {
            double x = fresh.Rate(handles[i]);
            EXPECT_NEAR(inc.Rate(active[i].first), x, 2 * kAckFixedPoint * std::max(x, 1.0))
                << "round " << round << " flow " << i;
        }
    }
}

TEST(FlowMaxMin, AloneOnTheirLinksAsFilled)
{
    // A ring's flows, each alone on its links (host i's uplink i and downlink n + i) with its
    // ACKs on its neighbours' (the closure of a ring step), some capped, some split over two
    // uplinks, come and go; now and then a second flow shares a downlink. After every change
    // the rates taken as each flow's least constraint (where no link carries two flows' data)
    // equal progressive filling's, to the bit.
    std::mt19937 rng(11);
    const uint32_t hosts = 12;
    std::vector<double> cap(3 * hosts, 100.0);
    MaxMinSolver direct(cap, 0);
    MaxMinSolver filled(cap, 0);
    filled.SetAloneWay(false);
    struct Live
    {
        uint32_t a;
        uint32_t b;
    };
    std::vector<std::pair<uint32_t, Live>> active; // sender host, handles
    uint64_t multiFlowSolves = 0;
    for (int round = 0; round < 400; ++round)
    {
        uint32_t i = rng() % hosts;
        auto it =
            std::find_if(active.begin(), active.end(), [&](const auto& e) { return e.first == i; });
        if (it != active.end() && rng() % 3 != 0)
        {
            direct.Remove(round, it->second.a);
            filled.Remove(round, it->second.b);
            active.erase(it);
        }
        else
        {
            // now and then to the host after next, whose downlink its neighbour's flow may use
            uint32_t next = (i + (rng() % 6 == 0 ? 2 : 1)) % hosts;
            std::vector<LinkShare> data;
            if (rng() % 4 == 0)
            {
                data = {{i, 0.5}, {2 * hosts + i, 0.5}, {hosts + next, 1.0}};
            }
            else
            {
                data = {{i, 1.0}, {hosts + next, 1.0}};
            }
            std::vector<LinkShare> acks = {{next, 1.0}, {hosts + i, 1.0}};
            double ackShare = 0.02 + 0.01 * (rng() % 5);
            double rateCap = rng() % 4 == 0 ? 40.0 + rng() % 60 : kNoCap;
            active.emplace_back(i, Live{direct.Add(round, data, acks, ackShare, rateCap),
                                        filled.Add(round, data, acks, ackShare, rateCap)});
        }
        uint64_t before = direct.FlowsSolved();
        direct.Solve(round, g_changed);
        filled.Solve(round, g_changed);
        multiFlowSolves += direct.FlowsSolved() - before > 1 ? 1 : 0;
        ASSERT_EQ(direct.FlowsSolved(), filled.FlowsSolved()) << "round " << round;
        ASSERT_EQ(direct.Passes(), filled.Passes()) << "round " << round;
        for (const auto& [host, h] : active)
        {
            ASSERT_EQ(direct.Rate(h.a), filled.Rate(h.b)) << "round " << round << " host " << host;
        }
    }
    EXPECT_GT(multiFlowSolves, 50u); // the ACKs tie the ring's flows into closures
}

/**
 * The textbook progressive filling (no ACKs): every unfrozen flow's rate rises together until
 * a link is full or a flow reaches its cap; the flows held there freeze; repeat.
 */
std::vector<double>
FilledByHand(const std::vector<double>& capacity,
             const std::vector<std::vector<LinkShare>>& flows,
             const std::vector<double>& caps)
{
    std::size_t n = flows.size();
    std::vector<double> rate(n, 0);
    std::vector<bool> frozen(n, false);
    std::size_t left = n;
    while (left > 0)
    {
        // the least further rise any constraint allows
        double step = std::numeric_limits<double>::infinity();
        for (std::size_t l = 0; l < capacity.size(); ++l)
        {
            double used = 0;
            double rising = 0;
            for (std::size_t i = 0; i < n; ++i)
            {
                for (const LinkShare& u : flows[i])
                {
                    if (u.link == l)
                    {
                        used += u.share * rate[i];
                        rising += frozen[i] ? 0 : u.share;
                    }
                }
            }
            if (rising > 0)
            {
                step = std::min(step, (capacity[l] - used) / rising);
            }
        }
        for (std::size_t i = 0; i < n; ++i)
        {
            if (!frozen[i])
            {
                step = std::min(step, caps[i] - rate[i]);
            }
        }
        for (std::size_t i = 0; i < n; ++i)
        {
            rate[i] += frozen[i] ? 0 : step;
        }
        // freeze the flows at their cap or on a full link
        for (std::size_t i = 0; i < n; ++i)
        {
            if (frozen[i])
            {
                continue;
            }
            bool held = rate[i] >= caps[i] * (1 - 1e-12);
            for (const LinkShare& u : flows[i])
            {
                double used = 0;
                for (std::size_t k = 0; k < n; ++k)
                {
                    for (const LinkShare& v : flows[k])
                    {
                        used += v.link == u.link ? v.share * rate[k] : 0;
                    }
                }
                held = held || used >= capacity[u.link] * (1 - 1e-12);
            }
            if (held)
            {
                frozen[i] = true;
                --left;
            }
        }
    }
    return rate;
}

TEST(FlowMaxMin, RandomFabricsGetTheTextbookAllocation)
{
    // Flows of one to three hops over 10 links of mixed capacity, many alone on some of their
    // links and sharing others, some split, some capped: the solver's rates are the textbook
    // progressive filling's.
    std::mt19937 rng(5);
    for (int trial = 0; trial < 300; ++trial)
    {
        std::vector<double> capacity(10);
        for (double& c : capacity)
        {
            c = 10.0 * (1 + rng() % 6);
        }
        std::size_t n = 2 + rng() % 9;
        std::vector<std::vector<LinkShare>> flows(n);
        std::vector<double> caps(n, kNoCap);
        MaxMinSolver s(capacity, 0);
        std::vector<uint32_t> handles;
        for (std::size_t i = 0; i < n; ++i)
        {
            std::vector<uint32_t> links;
            for (uint32_t h = 0, hops = 1 + rng() % 3; h < hops; ++h)
            {
                uint32_t l = rng() % 10;
                if (std::find(links.begin(), links.end(), l) == links.end())
                {
                    links.push_back(l);
                }
            }
            double share = rng() % 4 == 0 ? 0.5 : 1.0;
            for (uint32_t l : links)
            {
                flows[i].push_back({l, share});
            }
            caps[i] = rng() % 4 == 0 ? 5.0 + rng() % 20 : kNoCap;
            handles.push_back(s.Add(0, flows[i], {}, 0, caps[i]));
        }
        Solve(s);
        std::vector<double> expected = FilledByHand(capacity, flows, caps);
        for (std::size_t i = 0; i < n; ++i)
        {
            EXPECT_NEAR(s.Rate(handles[i]), expected[i], 1e-9 * std::max(expected[i], 1.0))
                << "trial " << trial << " flow " << i;
        }
    }
}

} // namespace
