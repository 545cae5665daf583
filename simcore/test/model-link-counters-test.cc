/*
 * Per-link counters in summary.link_utilization: ECN marks made at each egress and PFC pauses
 * received by each egress. They add up to the summary totals and sit where congestion is.
 */
#include "model-test-util.h"

#include <gtest/gtest.h>

#include <map>
#include <string>

using namespace fabric;
using namespace fabric::test;

namespace
{

struct LinkEntry
{
    double utilization = 0;
    uint64_t marks = 0;
    uint64_t pausesIn = 0;
};

/** link_utilization as a map, checking the list is sorted by link name and well formed. */
std::map<std::string, LinkEntry>
Links(const nlohmann::ordered_json& summary)
{
    std::map<std::string, LinkEntry> m;
    std::string prev;
    for (const auto& e : summary.at("link_utilization"))
    {
        std::string name = e.at("link").get<std::string>();
        EXPECT_LE(prev, name) << "link_utilization not sorted";
        prev = name;
        LinkEntry l;
        l.utilization = e.at("utilization").get<double>();
        l.marks = e.at("ecn_marked_packets").get<uint64_t>();
        l.pausesIn = e.at("pauses_received").get<uint64_t>();
        EXPECT_TRUE(l.utilization > 0 || l.marks > 0 || l.pausesIn > 0) << name;
        EXPECT_EQ(m.count(name), 0u) << name;
        m[name] = l;
    }
    return m;
}

} // namespace

TEST(ModelLinkCounters, EcnMarksOnlyOnCongestedEgressOfIncast)
{
    // 2-to-1 incast at 25G: only sw->h0 builds a queue, so only it marks.
    Scenario s;
    uint32_t sw = Star(s, 3, 25, 1);
    s.seed = 4;
    s.durationNs = 20000000; // utilization measured after the DCQCN start-up dip
    s.warmupNs = 10000000;  // (docs/validation.md)
    SetCc(s, "dcqcn", true);
    for (auto& c : s.switchCfg)
    {
        for (auto& e : c.ecn)
        {
            e.kminBytes = 5000;
            e.kmaxBytes = 200000;
            e.pmax = 0.01;
        }
    }
    AddFlow(s, 1, 0);
    AddFlow(s, 2, 0);
    (void)sw;
    FabricRunner r(s);
    r.Run(RunLimits(), nullptr);
    auto res = r.Results();
    const auto& summary = res.at("summary");
    uint64_t total = summary.at("ecn_marked_packets").get<uint64_t>();
    ASSERT_GT(total, 10u) << "the incast should mark";
    auto links = Links(summary);
    uint64_t sum = 0;
    for (const auto& [name, l] : links)
    {
        sum += l.marks;
        if (name != "sw->h0")
        {
            EXPECT_EQ(l.marks, 0u) << name << " is not congested but has ECN marks";
        }
    }
    EXPECT_EQ(sum, total);
    ASSERT_EQ(links.count("sw->h0"), 1u);
    EXPECT_EQ(links["sw->h0"].marks, total);
    EXPECT_GT(links["sw->h0"].utilization, 0.9);
    // The senders' links carry data and are not congested: present, unmarked.
    ASSERT_EQ(links.count("h1->sw"), 1u);
    EXPECT_GT(links["h1->sw"].utilization, 0.3);
    EXPECT_EQ(links["h1->sw"].marks, 0u);
    // The CNPs go back to the senders (one per marked frame at the default interval or fewer).
    EXPECT_GT(summary.at("cnps_sent").get<uint64_t>(), 0u);
    EXPECT_LE(summary.at("cnps_sent").get<uint64_t>(), total);
}

TEST(ModelLinkCounters, PausesReceivedMatchPfcList)
{
    // 4-to-1 incast without congestion control into a small buffer: the switch pauses the
    // senders, so each sender's link h->sw receives pauses; the per-link numbers equal the
    // per-(port, priority) pfc entries summed over priorities and the summary total.
    Scenario s;
    Star(s, 5, 100, 1);
    s.seed = 2;
    s.durationNs = 500000;
    SetCc(s, "none", false);
    for (auto& c : s.switchCfg)
    {
        c.bufferBytes = 400000;
    }
    for (uint32_t h = 1; h <= 4; ++h)
    {
        AddFlow(s, h, 0);
    }
    FabricRunner r(s);
    r.Run(RunLimits(), nullptr);
    auto res = r.Results();
    const auto& summary = res.at("summary");
    uint64_t received = summary.at("pfc_pauses_received").get<uint64_t>();
    ASSERT_GT(received, 0u) << "the incast should trigger PFC";
    EXPECT_EQ(summary.at("ecn_marked_packets").get<uint64_t>(), 0u);
    std::map<std::string, uint64_t> fromPfc;
    for (const auto& e : summary.at("pfc"))
    {
        fromPfc[e.at("port").get<std::string>()] += e.at("pauses_received").get<uint64_t>();
    }
    auto links = Links(summary);
    uint64_t sum = 0;
    for (const auto& [name, l] : links)
    {
        sum += l.pausesIn;
        EXPECT_EQ(l.marks, 0u) << name;
        uint64_t expect = fromPfc.count(name) ? fromPfc[name] : 0;
        EXPECT_EQ(l.pausesIn, expect) << name;
        if (name.rfind("sw->", 0) == 0)
        {
            EXPECT_EQ(l.pausesIn, 0u) << "hosts never send PFC: " << name;
        }
    }
    EXPECT_EQ(sum, received);
    for (uint32_t h = 1; h <= 4; ++h)
    {
        std::string name = "h" + std::to_string(h) + "->sw";
        ASSERT_EQ(links.count(name), 1u) << name;
        EXPECT_GT(links[name].pausesIn, 0u) << name;
    }
}
