/*
 * PFC deadlock from a cyclic buffer dependency (Guo et al. 2016, section 4.2): five switches in
 * a ring, one host on each, every host sending to the host two switches clockwise (the unique
 * shortest path), so every ring link carries two line-rate flows. Every ring egress is paused
 * by the next switch, whose ingress from it cannot drain: the cycle S0->S1->...->S4->S0 stalls
 * for good. The detector reports the cycle; a PFC watchdog on every port breaks it.
 */
#include "model-test-util.h"

#include <gtest/gtest.h>

#include <set>

using namespace fabric;
using namespace fabric::test;

namespace
{

Scenario
Ring(bool watchdog)
{
    Scenario s;
    s.durationNs = 4000000;
    for (int i = 0; i < 5; ++i)
    {
        AddNode(s, "h" + std::to_string(i), true);
    }
    for (int i = 0; i < 5; ++i)
    {
        AddNode(s, "s" + std::to_string(i), false);
    }
    for (uint32_t i = 0; i < 5; ++i)
    {
        AddLink(s, i, 5 + i, 100, 1);
        AddLink(s, 5 + i, 5 + (i + 1) % 5, 100, 1);
    }
    SetCc(s, "none", false);
    for (uint32_t i = 0; i < 5; ++i)
    {
        AddFlow(s, i, (i + 2) % 5).window = 1000;
    }
    s.watchdogs.deadlockReportNs = 500000;
    if (watchdog)
    {
        s.watchdogs.switchEnabled = true;
        s.watchdogs.switchAllPorts = true;
        s.watchdogs.switchDetectNs = 200000;
        s.watchdogs.switchRestoreNs = 200000;
    }
    return s;
}

uint64_t
DeliveredAfter(FabricRunner& r, double)
{
    uint64_t sum = 0;
    for (const FlowState& f : r.Fabric().Context().flows)
    {
        sum += f.bytesDelivered;
    }
    return sum;
}

} // namespace

TEST(FaultDeadlock, RingCyclicBufferDependencyIsReported)
{
    Scenario s = Ring(false);
    s.durationNs = 3000000;
    FabricRunner early(s);
    early.Run(RunLimits(), nullptr);
    uint64_t at3ms = DeliveredAfter(early, 0);
    s.durationNs = 4000000;
    FabricRunner r(s);
    r.Run(RunLimits(), nullptr);
    auto res = r.Results();
    ASSERT_TRUE(res.contains("faults")) << "a deadlock must put a faults object in the result";
    const auto& dl = res["faults"]["deadlocks"];
    ASSERT_GE(dl.size(), 1u);
    std::set<std::string> ports;
    for (const auto& p : dl[0]["ports"])
    {
        ports.insert(p.get<std::string>());
    }
    EXPECT_EQ(ports, (std::set<std::string>{"s0->s1", "s1->s2", "s2->s3", "s3->s4", "s4->s0"}));
    EXPECT_EQ(dl[0]["priority"].get<int>(), 3);
    double formed = dl[0]["formed_us"].get<double>();
    double detected = dl[0]["detected_us"].get<double>();
    // Without faults or watchdogs nothing is scheduled: the search runs once, at the end.
    EXPECT_EQ(detected, 4000);
    EXPECT_GT(formed, 0);
    EXPECT_LE(formed, 3000);
    // A deadlock is permanent: nothing is delivered between 3 and 4 ms.
    EXPECT_EQ(DeliveredAfter(r, 0), at3ms);
    std::cout << "deadlock formed at " << formed << " us, reported at " << detected << " us"
              << std::endl;
}

TEST(FaultDeadlock, WatchdogOnEveryPortBreaksIt)
{
    Scenario s = Ring(true);
    s.durationNs = 3000000;
    FabricRunner early(s);
    early.Run(RunLimits(), nullptr);
    uint64_t at3ms = DeliveredAfter(early, 0);
    s.durationNs = 4000000;
    FabricRunner r(s);
    r.Run(RunLimits(), nullptr);
    auto res = r.Results();
    EXPECT_EQ(res["faults"]["deadlocks"].size(), 0u);
    EXPECT_GT(res["faults"]["switch_watchdog_triggers"].get<int>(), 0);
    // Traffic still moves in the last millisecond (at least a tenth of one link's rate).
    EXPECT_GT(DeliveredAfter(r, 0) - at3ms, 100e9 / 8 * 1e-3 * 0.1);
}
