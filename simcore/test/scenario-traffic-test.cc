/*
 * Traffic generators: the workload generator's sizes and offered load against the CDF's
 * analytic mean, reproducibility from the seed, and the structure of every other generator.
 */
#include "scenario/flow-size-cdf.h"
#include "scenario/scenario-parser.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cmath>
#include <map>
#include <set>

namespace
{

using nlohmann::json;

fabric::Scenario
Load(const json& doc)
{
    return fabric::LoadScenario(doc.dump());
}

json
LeafSpine(int leaves, int hostsPerLeaf, double rateGbps = 100)
{
    return {
        {"kind", "leaf_spine"},           {"leaves", leaves},           {"spines", 2},
        {"hosts_per_leaf", hostsPerLeaf}, {"host_rate_gbps", rateGbps}, {"fabric_rate_gbps", 400}};
}

json
Base(const json& topology, const json& traffic, double durationUs = 1000)
{
    return {{"schema_version", 1},
            {"duration_us", durationUs},
            {"topology", topology},
            {"traffic", traffic}};
}

/** Mean of a piecewise-linear CDF computed here independently: segment midpoints by mass. */
double
AnalyticMean(const std::vector<std::pair<double, double>>& pts)
{
    double mean = pts[0].first * pts[0].second / 100;
    for (std::size_t i = 1; i < pts.size(); ++i)
    {
        mean += (pts[i].second - pts[i - 1].second) / 100 * 0.5 * (pts[i].first + pts[i - 1].first);
    }
    return mean;
}

TEST(FlowSizeCdf, WebSearchMeanByHand)
{
    // From (0, 0): 15% x 5K (0..10K), then 5% x 15K, 10% x 25K, 10% x 40K, 13% x 65K,
    // 7% x 140K, 10% x 600K, 10% x 1.5M, 10% x 3.5M, 7% x 7.5M, 3% x 20M.
    double byHand = 0.15 * 5e3 + 0.05 * 15e3 + 0.10 * 25e3 + 0.10 * 40e3 + 0.13 * 65e3 +
                    0.07 * 140e3 + 0.10 * 600e3 + 0.10 * 1.5e6 + 0.10 * 3.5e6 + 0.07 * 7.5e6 +
                    0.03 * 20e6;
    EXPECT_NEAR(fabric::FlowSizeCdf::Named("websearch").Mean(), byHand, 1e-6);
    EXPECT_NEAR(byHand, 1711250, 1); // "about 1.71 MB" (shared/reference/parameters.md)
}

TEST(FlowSizeCdf, InverseWithLinearInterpolation)
{
    fabric::FlowSizeCdf cdf({{1000, 50}, {3000, 100}});
    EXPECT_EQ(cdf.Sample(0.0), 1000u);
    EXPECT_EQ(cdf.Sample(0.5), 1000u);  // the point mass of the first point
    EXPECT_EQ(cdf.Sample(0.75), 2000u); // halfway along the segment
    EXPECT_EQ(cdf.Sample(1.0), 3000u);
    EXPECT_DOUBLE_EQ(cdf.Mean(), 0.5 * 1000 + 0.5 * 2000);
}

struct WorkloadStats
{
    std::size_t flows = 0;
    double meanSize = 0;
    double offeredLoad = 0;
};

WorkloadStats
RunWorkload(const std::string& dist, double load, int hostsCount, double durationUs, uint32_t seed)
{
    json doc = Base(LeafSpine(hostsCount / 16, 16),
                    json::array({{{"kind", "workload"}, {"distribution", dist}, {"load", load}}}),
                    durationUs);
    doc["seed"] = seed;
    fabric::Scenario s = Load(doc);
    WorkloadStats st;
    st.flows = s.flows.size();
    double bytes = 0;
    for (const auto& f : s.flows)
    {
        bytes += static_cast<double>(f.sizeBytes);
    }
    st.meanSize = bytes / static_cast<double>(st.flows);
    double capacityBytes = hostsCount * 100e9 / 8 * durationUs * 1e-6;
    st.offeredLoad = bytes / capacityBytes;
    return st;
}

TEST(Workload, MeanSizeAndOfferedLoadMatchTheCdf)
{
    for (const std::string dist : {"websearch", "fb_hadoop", "alistorage"})
    {
        SCOPED_TRACE(dist);
        double mean = AnalyticMean(fabric::FlowSizeCdf::Named(dist).Points());
        // Pick the duration for about 2 x 10^5 flows over 64 hosts at 50% of 100 Gbit/s.
        double perHostPerUs = 0.5 * 100e9 / 8 / mean * 1e-6;
        double durationUs = std::min(1e6, 2e5 / (64 * perHostPerUs));
        WorkloadStats st = RunWorkload(dist, 0.5, 64, durationUs, 11);
        ASSERT_GE(st.flows, 100000u);
        EXPECT_NEAR(st.meanSize / mean, 1.0, 0.03) << "mean " << st.meanSize << " vs " << mean;
        EXPECT_NEAR(st.offeredLoad / 0.5, 1.0, 0.02) << "load " << st.offeredLoad;
    }
}

TEST(Workload, SeedReproducesAndChangesFlows)
{
    json traffic =
        json::array({{{"kind", "workload"}, {"distribution", "fb_hadoop"}, {"load", 0.4}}});
    json doc = Base(LeafSpine(2, 4), traffic, 2000);
    doc["seed"] = 5;
    fabric::Scenario a = Load(doc);
    fabric::Scenario b = Load(doc);
    doc["seed"] = 6;
    fabric::Scenario c = Load(doc);
    ASSERT_GT(a.flows.size(), 10u);
    ASSERT_EQ(a.flows.size(), b.flows.size());
    bool differs = a.flows.size() != c.flows.size();
    for (std::size_t i = 0; i < a.flows.size(); ++i)
    {
        EXPECT_EQ(a.flows[i].startNs, b.flows[i].startNs);
        EXPECT_EQ(a.flows[i].sizeBytes, b.flows[i].sizeBytes);
        EXPECT_EQ(a.flows[i].dst, b.flows[i].dst);
        if (i < c.flows.size())
        {
            differs = differs || a.flows[i].startNs != c.flows[i].startNs ||
                      a.flows[i].sizeBytes != c.flows[i].sizeBytes;
        }
    }
    EXPECT_TRUE(differs);
}

TEST(Workload, ArrivalsStayInsideTheWindowAndNeverSelf)
{
    json traffic = json::array({{{"kind", "workload"},
                                 {"distribution", "alistorage"},
                                 {"load", 0.8},
                                 {"start_us", 100},
                                 {"stop_us", 300},
                                 {"hosts", {"h0", "h1", "h5"}}}});
    fabric::Scenario s = Load(Base(LeafSpine(2, 4), traffic, 500));
    ASSERT_GT(s.flows.size(), 100u);
    std::set<std::string> used;
    for (std::size_t i = 0; i < s.flows.size(); ++i)
    {
        const auto& f = s.flows[i];
        EXPECT_EQ(f.id, i);
        EXPECT_GE(f.startNs, 100000u);
        EXPECT_LT(f.startNs, 300000u);
        EXPECT_NE(f.src, f.dst);
        used.insert(s.topo.nodes[f.src].id);
        used.insert(s.topo.nodes[f.dst].id);
        if (i > 0)
        {
            EXPECT_LE(s.flows[i - 1].startNs, f.startNs);
        }
    }
    EXPECT_EQ(used, (std::set<std::string>{"h0", "h1", "h5"}));
}

TEST(Permutation, IsADerangementForEverySeed)
{
    for (uint32_t seed = 0; seed < 20; ++seed)
    {
        json doc =
            Base(LeafSpine(2, 8), json::array({{{"kind", "permutation"}, {"size_bytes", 1000}}}));
        doc["seed"] = seed;
        fabric::Scenario s = Load(doc);
        ASSERT_EQ(s.flows.size(), 16u);
        std::set<uint32_t> srcs;
        std::set<uint32_t> dsts;
        for (const auto& f : s.flows)
        {
            EXPECT_NE(f.src, f.dst);
            srcs.insert(f.src);
            dsts.insert(f.dst);
        }
        EXPECT_EQ(srcs.size(), 16u);
        EXPECT_EQ(dsts.size(), 16u);
    }
}

TEST(Incast, QpsGiveDistinctSourcePorts)
{
    json traffic = json::array({{{"kind", "incast"},
                                 {"senders", {"h1", "h2", "h3"}},
                                 {"receiver", "h0"},
                                 {"size_bytes", 4096},
                                 {"qps", 4}}});
    fabric::Scenario s = Load(Base(LeafSpine(1, 4), traffic));
    ASSERT_EQ(s.flows.size(), 12u);
    std::set<uint16_t> ports;
    for (const auto& f : s.flows)
    {
        EXPECT_EQ(s.topo.nodes[f.dst].id, "h0");
        EXPECT_EQ(f.sizeBytes, 4096u);
        EXPECT_EQ(f.priority, 3);
        ports.insert(f.udpSrcPort);
    }
    EXPECT_EQ(ports.size(), 12u);
    // auto monitor: the one receiving host's ToR egress, the first 16 flows
    ASSERT_EQ(s.monitor.queues.size(), 1u);
    EXPECT_EQ(s.topo.nodes[s.monitor.queues[0].node].id, "leaf0");
    EXPECT_EQ(s.topo.nodes[s.monitor.queues[0].neighbor].id, "h0");
    EXPECT_EQ(s.monitor.flows.size(), 12u);
    EXPECT_EQ(s.monitor.ports.size(), 1u);
}

TEST(Perftest, SizeIsMessageTimesIterationsAndWindowIsTxDepth)
{
    json traffic = json::array({{{"kind", "perftest"},
                                 {"src", "h0"},
                                 {"dst", "h3"},
                                 {"message_bytes", 4096},
                                 {"tx_depth", 4},
                                 {"iterations", 1000}},
                                {{"kind", "perftest"}, {"src", "h1"}, {"dst", "h2"}}});
    json doc = Base(LeafSpine(2, 2), traffic);
    doc["nic"] = {{"qp_depth", 32}, {"message_bytes", 8192}};
    fabric::Scenario s = Load(doc);
    ASSERT_EQ(s.flows.size(), 2u);
    EXPECT_EQ(s.flows[0].sizeBytes, 4096u * 1000);
    EXPECT_EQ(s.flows[0].window, 4u);
    EXPECT_EQ(s.flows[0].messageBytes, 4096u);
    EXPECT_EQ(s.flows[1].sizeBytes, 0u); // iterations 0: long-lived
    EXPECT_EQ(s.flows[1].window, 32u);   // nic.qp_depth
    EXPECT_EQ(s.flows[1].messageBytes, 8192u);
}

TEST(Pairs, TorPairsMatchHostsByIndex)
{
    json traffic = json::array({{{"kind", "pairs"},
                                 {"tor_pairs", json::array({json::array({"leaf0", "leaf2"})})},
                                 {"qps", 2}}});
    fabric::Scenario s = Load(Base(LeafSpine(3, 3), traffic));
    ASSERT_EQ(s.flows.size(), 6u);
    std::multiset<std::pair<std::string, std::string>> got;
    for (const auto& f : s.flows)
    {
        got.insert({s.topo.nodes[f.src].id, s.topo.nodes[f.dst].id});
    }
    std::multiset<std::pair<std::string, std::string>> want{
        {"h0", "h6"}, {"h0", "h6"}, {"h1", "h7"}, {"h1", "h7"}, {"h2", "h8"}, {"h2", "h8"}};
    EXPECT_EQ(got, want);
}

TEST(AllToAll, EveryOrderedPairOnce)
{
    json traffic =
        json::array({{{"kind", "all_to_all"}, {"hosts", {"h0", "h1", "h2", "h3", "h4"}}}});
    fabric::Scenario s = Load(Base(LeafSpine(2, 4), traffic));
    EXPECT_EQ(s.flows.size(), 20u);
    std::set<std::pair<uint32_t, uint32_t>> pairs;
    for (const auto& f : s.flows)
    {
        pairs.insert({f.src, f.dst});
    }
    EXPECT_EQ(pairs.size(), 20u);
}

TEST(Pingmesh, ProbesEveryIntervalCyclingPeers)
{
    json traffic = json::array({{{"kind", "pingmesh"},
                                 {"interval_us", 100},
                                 {"probe_bytes", 256},
                                 {"hosts", {"h0", "h1", "h2", "h3"}}}});
    fabric::Scenario s = Load(Base(LeafSpine(2, 2), traffic, 1000));
    // 10 rounds x 4 hosts; over 3 rounds each host probes each of its 3 peers once.
    ASSERT_EQ(s.flows.size(), 40u);
    std::map<std::pair<uint32_t, uint32_t>, int> count;
    for (const auto& f : s.flows)
    {
        EXPECT_TRUE(f.probe);
        EXPECT_EQ(f.sizeBytes, 256u);
        EXPECT_NE(f.src, f.dst);
        if (f.startNs < 300000)
        {
            ++count[{f.src, f.dst}];
        }
    }
    EXPECT_EQ(count.size(), 12u);
    for (const auto& [pair, n] : count)
    {
        EXPECT_EQ(n, 1);
    }
}

TEST(Monitor, AutoQueuesAreCappedAtSixteenReceivers)
{
    json traffic = json::array({{{"kind", "permutation"}, {"size_bytes", 1000}}});
    fabric::Scenario s = Load(Base(LeafSpine(4, 8), traffic));
    EXPECT_EQ(s.monitor.queues.size(), 16u);
    EXPECT_EQ(s.monitor.flows.size(), 16u);
    for (const auto& q : s.monitor.queues)
    {
        EXPECT_FALSE(s.topo.nodes[q.node].isHost);
        EXPECT_TRUE(s.topo.nodes[q.neighbor].isHost);
    }
}

TEST(Limits, FlowCountCheckedBeforeGenerating)
{
    // all_to_all over 256 hosts is 65280 connections; x 32 QPs = 2,088,960 > 2,000,000.
    json traffic = json::array({{{"kind", "all_to_all"}, {"qps", 32}}});
    try
    {
        Load(Base(LeafSpine(16, 16), traffic));
        FAIL() << "accepted";
    }
    catch (const fabric::ScenarioError& e)
    {
        EXPECT_EQ(e.Path(), "traffic[0]");
        EXPECT_NE(std::string(e.what()).find("2088960"), std::string::npos) << e.what();
    }
}

} // namespace
