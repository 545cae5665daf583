/*
 * The runner's parts (issue 19, section 1): the RunController owns the after-warm-up baseline the
 * result subtracts, the ResultAssembler only reads the run, and the result can be asked for at
 * any time.
 */
#include "model-test-util.h"

#include <gtest/gtest.h>

using namespace fabric;
using namespace fabric::test;

namespace
{

/** 16-to-1 incast on one 100G switch, PFC on, no CC: pauses before and after the warm-up. */
Scenario
Incast(uint64_t durationNs, uint64_t warmupNs)
{
    Scenario s;
    s.durationNs = durationNs;
    s.warmupNs = warmupNs;
    Star(s, 17, 100, 1);
    SetCc(s, "none", false);
    for (uint32_t i = 1; i <= 16; ++i)
    {
        AddFlow(s, i, 0);
    }
    return s;
}

} // namespace

TEST(ModelRunParts, WarmupBaselineIsTheCountersWhenTheWarmupEnded)
{
    FabricRunner r(Incast(300000, 100000));
    r.Run(RunLimits(), nullptr);
    const WarmupBaseline& warm = r.Fabric().Controller().Warmup();
    const FabricCounters& end = r.Fabric().Context().counters;
    // Frames and pauses happened on both sides of the warm-up.
    EXPECT_GT(warm.counters.packetsTx, 0u);
    EXPECT_LT(warm.counters.packetsTx, end.packetsTx);
    EXPECT_GT(warm.counters.pausesSent, 0u);
    EXPECT_LT(warm.counters.pausesSent, end.pausesSent);
    auto sum = r.Results()["summary"];
    auto after = sum["counters"]["after_warmup"];
    auto whole = sum["counters"]["whole_run"];
    EXPECT_EQ(after["pfc_pauses_sent"].get<uint64_t>(), end.pausesSent - warm.counters.pausesSent);
    EXPECT_EQ(whole["pfc_pauses_sent"].get<uint64_t>(), end.pausesSent);
    // Per port: the baseline of the switch's port toward a sender is what the pfc rows subtract.
    const FabricDevice* sw = r.Fabric().Device(17);
    uint32_t p = sw->PortToward(1);
    const PortWarmup& base = warm.AtPort(17, p);
    const Port& port = sw->GetPort(p);
    bool found = false;
    for (const auto& row : sum["pfc"])
    {
        if (row["port"] == "sw->h1" && row["priority"] == 3)
        {
            found = true;
            EXPECT_EQ(row["pauses_sent"].get<uint32_t>(), port.pausesSent[3]);
            EXPECT_EQ(row["pauses_sent_after_warmup"].get<uint32_t>(),
                      port.pausesSent[3] - base.pausesSent[3]);
            EXPECT_GT(base.pausesSent[3], 0u);
        }
    }
    EXPECT_TRUE(found);
}

TEST(ModelRunParts, RunEndingInsideTheWarmupHasNothingAfterIt)
{
    FabricRunner r(Incast(50000, 100000));
    r.Run(RunLimits(), nullptr);
    const WarmupBaseline& warm = r.Fabric().Controller().Warmup();
    EXPECT_EQ(warm.counters.packetsTx, r.Fabric().Context().counters.packetsTx);
    auto after = r.Results()["summary"]["counters"]["after_warmup"];
    EXPECT_EQ(after["pfc_pauses_sent"].get<uint64_t>(), 0u);
    EXPECT_EQ(after["pfc_pause_duration_us"].get<double>(), 0.0);
}

TEST(ModelRunParts, ResultsBeforeTheRunAndTwiceAfterIt)
{
    FabricRunner r(Incast(100000, 0));
    // Before the run: no baseline taken yet, every port reads a zero baseline.
    auto before = r.Results();
    EXPECT_EQ(before["summary"]["flows_completed"].get<uint64_t>(), 0u);
    EXPECT_EQ(r.Fabric().Controller().Warmup().AtPort(17, 0).pausesSent[3], 0u);
    r.Run(RunLimits(), nullptr);
    // The assembler reads a const view: asking twice gives the same bytes.
    EXPECT_EQ(r.Results().dump(), r.Results().dump());
}
