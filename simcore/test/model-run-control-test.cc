/*
 * Run control: limits stop a run early with RunStatus::LIMIT and partial results; progress is
 * reported; bad flows (unroutable, self-addressed, switch endpoints) are skipped, not crashed on;
 * the same scenario twice gives identical results.
 */
#include "model-test-util.h"

#include <gtest/gtest.h>

using namespace fabric;
using namespace fabric::test;

namespace
{

Scenario
Busy()
{
    Scenario s;
    s.durationNs = 2000000;
    Star(s, 5, 100, 1);
    for (uint32_t i = 1; i <= 4; ++i)
    {
        AddFlow(s, i, 0);
    }
    s.monitor.queues.push_back({5, 0});
    s.monitor.flows = {0, 1};
    s.monitor.ports.push_back({5, 1});
    return s;
}

} // namespace

TEST(ModelRunControl, EventLimitStopsEarly)
{
    FabricRunner r(Busy());
    RunLimits lim;
    lim.maxEvents = 20000;
    EXPECT_EQ(r.Run(lim, nullptr), RunStatus::LIMIT);
    EXPECT_LT(r.SimTimeNs(), 2000000u);
    EXPECT_GT(r.SimTimeNs(), 0u);
    EXPECT_LT(r.Events(), 40000u);
    auto res = r.Results();
    EXPECT_GT(res["summary"]["throughput_gbps"].get<double>(), 0);
}

TEST(ModelRunControl, FinalProgressReported)
{
    FabricRunner r(Busy());
    int calls = 0;
    Progress last;
    r.Run(RunLimits(), [&](const Progress& p) {
        ++calls;
        last = p;
    });
    EXPECT_GE(calls, 1);
    EXPECT_EQ(last.simTimeNs, 2000000u);
    EXPECT_EQ(last.durationNs, 2000000u);
    EXPECT_EQ(last.events, r.Events());
}

TEST(ModelRunControl, DegenerateFlowsAreSkipped)
{
    Scenario s = Busy();
    AddFlow(s, 1, 1);        // to itself
    AddFlow(s, 5, 0);        // from a switch
    AddFlow(s, 1, 5);        // to a switch
    AddFlow(s, 1, 999);      // no such node
    AddFlow(s, 999, 1);      // no such node
    AddNode(s, "lonely", true);
    AddFlow(s, 1, static_cast<uint32_t>(s.topo.nodes.size() - 1)); // unreachable
    s.monitor.queues.push_back({999, 1});
    s.monitor.flows.push_back(12345);
    FabricRunner r(s);
    EXPECT_EQ(r.Run(RunLimits(), nullptr), RunStatus::OK);
    auto res = r.Results();
    EXPECT_EQ(res["flows"].size(), s.flows.size());
    EXPECT_EQ(res["flows"][4]["bytes_delivered"].get<uint64_t>(), 0u);
}

TEST(ModelRunControl, SameScenarioSameResults)
{
    Scenario s = Busy();
    SetCc(s, "dcqcn", true);
    for (uint32_t i = 0; i < 30; ++i)
    {
        AddFlow(s, 1 + i % 4, 0, 5000 + 3000 * i, 1000 * i);
    }
    std::string a;
    std::string b;
    {
        FabricRunner r(s);
        r.Run(RunLimits(), nullptr);
        a = r.Results().dump();
    }
    {
        FabricRunner r(s);
        r.Run(RunLimits(), nullptr);
        b = r.Results().dump();
    }
    EXPECT_EQ(a, b);
    EXPECT_GT(a.size(), 1000u);
}
