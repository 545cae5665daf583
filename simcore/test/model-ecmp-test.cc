/*
 * Test 9: ECMP. Flows between two leaves of a leaf-spine with n spines pick a spine by the
 * 5-tuple hash. Balls into bins: with m = n flows the expected fraction of spines used is
 * 1 - (1 - 1/n)^n; with m >> n each spine carries 1/n of the flows. The packets of a run take
 * exactly the hashed paths.
 */
#include "model-test-util.h"

#include <gtest/gtest.h>

#include <cmath>
#include <set>

using namespace fabric;
using namespace fabric::test;

namespace
{

/** Two leaves with 2 hosts each and n spines. Hosts 0,1 on leaf0; 2,3 on leaf1. */
Scenario
LeafSpine(int n, uint32_t seed)
{
    Scenario s;
    s.durationNs = 50000;
    for (int i = 0; i < 4; ++i)
    {
        AddNode(s, "h" + std::to_string(i), true);
    }
    uint32_t l0 = AddNode(s, "leaf0", false);
    uint32_t l1 = AddNode(s, "leaf1", false);
    AddLink(s, 0, l0, 100, 1);
    AddLink(s, 1, l0, 100, 1);
    AddLink(s, 2, l1, 100, 1);
    AddLink(s, 3, l1, 100, 1);
    for (int k = 0; k < n; ++k)
    {
        uint32_t sp = AddNode(s, "spine" + std::to_string(k), false);
        AddLink(s, l0, sp, 400, 1);
        AddLink(s, l1, sp, 400, 1);
    }
    for (size_t i = 0; i < s.switchCfg.size(); ++i)
    {
        s.switchCfg[i].ecmpSeed = seed * 7919u + static_cast<uint32_t>(i);
    }
    SetCc(s, "none", false);
    return s;
}

/** Spine index (0..n-1) the flow's path crosses. */
int
SpineOf(FabricRunner& r, const FlowSpec& f)
{
    auto path = r.Fabric().NodePathOf(f);
    if (path.size() != 5)
    {
        return -1;
    }
    return static_cast<int>(path[2]) - 6;
}

} // namespace

TEST(ModelEcmp, FractionOfPathsUsedMatchesBallsIntoBins)
{
    for (int n : {4, 16})
    {
        const int trials = 400;
        double usedSum = 0;
        for (int t = 0; t < trials; ++t)
        {
            Scenario s = LeafSpine(n, static_cast<uint32_t>(t + 1));
            for (int i = 0; i < n; ++i)
            {
                AddFlow(s, 0, 2).udpSrcPort = static_cast<uint16_t>(49152 + i);
            }
            FabricRunner r(s);
            std::set<int> used;
            for (const auto& f : s.flows)
            {
                int sp = SpineOf(r, f);
                ASSERT_GE(sp, 0);
                used.insert(sp);
            }
            usedSum += static_cast<double>(used.size()) / n;
        }
        double expected = 1 - std::pow(1 - 1.0 / n, n);
        EXPECT_NEAR(usedSum / trials, expected, 0.02) << "n=" << n;
        std::cout << "n=" << n << " used fraction " << usedSum / trials << " expected " << expected
                  << std::endl;
    }
}

TEST(ModelEcmp, ManyFlowsSpreadEvenly)
{
    const int n = 8;
    const int m = 200000;
    Scenario s = LeafSpine(n, 1);
    std::vector<int> load(n, 0);
    for (int i = 0; i < m; ++i)
    {
        FlowSpec& f = AddFlow(s, static_cast<uint32_t>(i % 2), static_cast<uint32_t>(2 + (i / 2) % 2));
        f.udpSrcPort = static_cast<uint16_t>(1024 + i / 4); // unique 5-tuples
    }
    FabricRunner r(s);
    for (const auto& f : s.flows)
    {
        int sp = SpineOf(r, f);
        ASSERT_GE(sp, 0);
        ++load[sp];
    }
    for (int k = 0; k < n; ++k)
    {
        // 1/8 of the flows each, within 2% of that share (3.4 binomial sigmas at m = 200,000).
        EXPECT_NEAR(load[k] / static_cast<double>(m), 1.0 / n, 0.02 / n) << "spine " << k;
    }
}

TEST(ModelEcmp, PacketsFollowTheHashedPath)
{
    const int n = 8;
    Scenario s = LeafSpine(n, 3);
    for (int i = 0; i < 3; ++i)
    {
        AddFlow(s, 0, 2, 20000).udpSrcPort = static_cast<uint16_t>(50000 + 17 * i);
    }
    FabricRunner r(s);
    std::set<int> predicted;
    for (const auto& f : s.flows)
    {
        predicted.insert(SpineOf(r, f));
    }
    r.Run(RunLimits(), nullptr);
    FabricSwitch* leaf0 = r.Fabric().Switch(4);
    std::set<int> carried;
    for (int k = 0; k < n; ++k)
    {
        uint32_t p = leaf0->PortToward(static_cast<uint32_t>(6 + k));
        if (leaf0->GetPort(p).txWireBytesWarm > 0)
        {
            carried.insert(k);
        }
    }
    EXPECT_EQ(carried, predicted);
    EXPECT_EQ(r.Results()["summary"]["flows_completed"].get<uint64_t>(), 3u);
}
