/*
 * The NVIDIA firmware's departures from the DCQCN paper, driven on the reaction point directly
 * (docs/model.md, DCQCN): target clamping (clamp_tgt_rate, clamp_tgt_rate_after_time_inc), the
 * bound on one cut (rpg_min_dec_fac) and the byte counter (rpg_byte_reset). Every expected value
 * is worked out by hand in the comments.
 */
#include "model/dcqcn.h"

#include "ns3/core-module.h"

#include <gtest/gtest.h>

using namespace fabric;
using namespace ns3;

namespace
{

/**
 * A reaction point with round numbers: g = 1/256, alpha period 55 us, cuts at least 50 us
 * apart, increase timer 100 us, F = 1, Rai 40 Mbit/s, Rhai 200 Mbit/s, no byte counter.
 */
Ptr<Dcqcn>
MakeRp(bool clamp, bool clampAfterTimer, double maxDecrease, uint64_t byteCounter = 0)
{
    auto rp = CreateObject<Dcqcn>();
    rp->SetAttribute("G", DoubleValue(1.0 / 256));
    rp->SetAttribute("AlphaUpdatePeriod", TimeValue(MicroSeconds(55)));
    rp->SetAttribute("RateDecreaseInterval", TimeValue(MicroSeconds(50)));
    rp->SetAttribute("RateIncreaseTimer", TimeValue(MicroSeconds(100)));
    rp->SetAttribute("ByteCounter", UintegerValue(byteCounter));
    rp->SetAttribute("FastRecoverySteps", UintegerValue(1));
    rp->SetAttribute("RaiBps", DoubleValue(40e6));
    rp->SetAttribute("RhaiBps", DoubleValue(200e6));
    rp->SetAttribute("MinRateBps", DoubleValue(1e6));
    rp->SetAttribute("ClampTargetRate", BooleanValue(clamp));
    rp->SetAttribute("ClampTargetAfterTimerIncrease", BooleanValue(clampAfterTimer));
    rp->SetAttribute("MaxDecrease", DoubleValue(maxDecrease));
    return rp;
}

} // namespace

// Paper semantics (clamp on) for contrast: cut 1 at 10 us (40 -> 20, target 40); cut 2 at 70 us
// sets the target to the current rate, 20 Gbit/s.
TEST(ModelDcqcnClamp, PaperClampSetsTargetOnEveryCut)
{
    Simulator::Destroy();
    auto rp = MakeRp(true, false, 1.0);
    rp->Init(40e9);
    double target2 = 0;
    Simulator::Schedule(MicroSeconds(10), [&] { rp->OnCnp(); });
    Simulator::Schedule(MicroSeconds(70), [&] {
        rp->OnCnp();
        target2 = rp->GetTargetBps();
    });
    Simulator::Stop(MicroSeconds(80));
    Simulator::Run();
    EXPECT_DOUBLE_EQ(target2, 20e9);
    rp->Dispose();
    Simulator::Destroy();
}

// Clamp off (and clamp-after-timer off): two CNPs 60 us apart, no increase in between (the timer
// is 100 us). Cut 1 at alpha = 1: 40 -> 20 Gbit/s, target stays 40. At 70 us alpha is
// (1 - g)^1 x 1 (one full 55 us period) = 255/256; cut 2: 20 x (1 - 255/512) = 10.0390625 Gbit/s.
// The target is still 40 (the pre-first-cut rate). Fast recovery (F = 1: the first timer step
// after the cut) at 170 us then moves the rate halfway to 40: 25.01953125 Gbit/s.
TEST(ModelDcqcnClamp, ClampOffKeepsTargetAcrossCuts)
{
    Simulator::Destroy();
    auto rp = MakeRp(false, false, 1.0);
    rp->Init(40e9);
    double rate1 = 0, target1 = 0, rate2 = 0, target2 = 0, rate3 = 0, target3 = 0;
    Simulator::Schedule(MicroSeconds(10), [&] {
        rp->OnCnp();
        rate1 = rp->GetRateBps();
        target1 = rp->GetTargetBps();
    });
    Simulator::Schedule(MicroSeconds(70), [&] {
        rp->OnCnp();
        rate2 = rp->GetRateBps();
        target2 = rp->GetTargetBps();
    });
    Simulator::Schedule(MicroSeconds(171), [&] {
        rate3 = rp->GetRateBps();
        target3 = rp->GetTargetBps();
    });
    Simulator::Stop(MicroSeconds(200));
    Simulator::Run();
    EXPECT_DOUBLE_EQ(rate1, 20e9);
    EXPECT_DOUBLE_EQ(target1, 40e9);
    EXPECT_NEAR(rate2, 20e9 * (1 - 255.0 / 512), 1.0);
    EXPECT_NEAR(rate2, 10.0390625e9, 1.0);
    EXPECT_DOUBLE_EQ(target2, 40e9);
    EXPECT_NEAR(rate3, (10.0390625e9 + 40e9) / 2, 1.0); // 25.01953125 Gbit/s
    EXPECT_DOUBLE_EQ(target3, 40e9);
    rp->Dispose();
    Simulator::Destroy();
}

// Clamp-after-timer: cut 1 at 10 us (40 -> 20, target 40). Without a timer increase, a cut at
// 70 us keeps the target at 40 (previous test). Here the timer fires at 110 us (fast recovery:
// rate (20 + 40) / 2 = 30, target 40), so the cut at 120 us clamps: target = 30 Gbit/s, and the
// rate becomes 30 x (1 - alpha/2) with alpha = 1 decayed over one 55 us period since the CNP at
// 10 us (110 us elapsed = two periods: (255/256)^2).
TEST(ModelDcqcnClamp, ClampAfterTimerIncrease)
{
    Simulator::Destroy();
    auto rp = MakeRp(false, true, 1.0);
    rp->Init(40e9);
    double rateBefore = 0, rate2 = 0, target2 = 0;
    bool flagBefore = false, flagAfter = true;
    Simulator::Schedule(MicroSeconds(10), [&] { rp->OnCnp(); });
    Simulator::Schedule(MicroSeconds(115), [&] {
        rateBefore = rp->GetRateBps();
        flagBefore = rp->GetTimerIncreasedSinceCut();
    });
    Simulator::Schedule(MicroSeconds(120), [&] {
        rp->OnCnp();
        rate2 = rp->GetRateBps();
        target2 = rp->GetTargetBps();
        flagAfter = rp->GetTimerIncreasedSinceCut();
    });
    Simulator::Stop(MicroSeconds(130));
    Simulator::Run();
    EXPECT_DOUBLE_EQ(rateBefore, 30e9);
    EXPECT_TRUE(flagBefore);
    EXPECT_DOUBLE_EQ(target2, 30e9);
    double alpha = (255.0 / 256) * (255.0 / 256);
    EXPECT_NEAR(rate2, 30e9 * (1 - alpha / 2), 1.0);
    EXPECT_FALSE(flagAfter);
    rp->Dispose();
    Simulator::Destroy();
}

// Clamp-after-timer with only byte-counter increases between the cuts: no clamp. Byte counter
// 1 MB: sending 1 MB after cut 1 (40 -> 20, target 40) is one byte stage, B = 1 <= F: fast
// recovery to 30. The cut at 70 us keeps the target at 40.
TEST(ModelDcqcnClamp, ByteCounterIncreaseDoesNotClamp)
{
    Simulator::Destroy();
    auto rp = MakeRp(false, true, 1.0, 1000000);
    rp->Init(40e9);
    double rateAfterBytes = 0, target2 = 0;
    Simulator::Schedule(MicroSeconds(10), [&] { rp->OnCnp(); });
    Simulator::Schedule(MicroSeconds(20), [&] {
        rp->OnBytesSent(1000000);
        rateAfterBytes = rp->GetRateBps();
    });
    Simulator::Schedule(MicroSeconds(70), [&] {
        rp->OnCnp();
        target2 = rp->GetTargetBps();
    });
    Simulator::Stop(MicroSeconds(80));
    Simulator::Run();
    EXPECT_DOUBLE_EQ(rateAfterBytes, 30e9);
    EXPECT_EQ(rp->GetByteStage(), 0u); // reset by the second cut
    EXPECT_DOUBLE_EQ(target2, 40e9);
    rp->Dispose();
    Simulator::Destroy();
}

// MaxDecrease: at alpha = 1 the paper cut is alpha/2 = 50 %. A bound of 0.5 leaves it at 50 %
// (40 -> 20); a bound of 0.25 holds it to 25 % (40 -> 30); a bound of 0 prevents cuts.
TEST(ModelDcqcnClamp, MaxDecreaseBoundsOneCut)
{
    for (double bound : {1.0, 0.5, 0.25, 0.0})
    {
        Simulator::Destroy();
        auto rp = MakeRp(false, true, bound);
        rp->Init(40e9);
        double rate = 0, alpha = 0;
        Simulator::Schedule(MicroSeconds(10), [&] {
            alpha = rp->GetAlpha();
            rp->OnCnp();
            rate = rp->GetRateBps();
        });
        Simulator::Stop(MicroSeconds(20));
        Simulator::Run();
        EXPECT_DOUBLE_EQ(alpha, 1.0);
        double expected = 40e9 * (1 - std::min(0.5, bound));
        EXPECT_DOUBLE_EQ(rate, expected) << "bound " << bound;
        rp->Dispose();
        Simulator::Destroy();
    }
}

// Byte counter at the NVIDIA default 32767 bytes: after a cut (40 -> 20, target 40), 32766 bytes
// do nothing, the 32767th byte is stage 1 (fast recovery: 30), 32767 more are stage 2 (B = 2 >
// F = 1, T = 0: additive; target 40 + Rai capped at line rate 40, rate 35); 32667 more bytes
// are short of stage 3.
TEST(ModelDcqcnClamp, ByteCounterStagesAt32767Bytes)
{
    Simulator::Destroy();
    auto rp = MakeRp(false, true, 0.5, 32767);
    rp->Init(40e9);
    double r0 = 0, r1 = 0, r2 = 0, r3 = 0;
    uint32_t s0 = 9, s1 = 9, s2 = 9, s3 = 9;
    Simulator::Schedule(MicroSeconds(10), [&] {
        rp->OnCnp();
        rp->OnBytesSent(32766);
        r0 = rp->GetRateBps();
        s0 = rp->GetByteStage();
        rp->OnBytesSent(1);
        r1 = rp->GetRateBps();
        s1 = rp->GetByteStage();
        rp->OnBytesSent(32767);
        r2 = rp->GetRateBps();
        s2 = rp->GetByteStage();
        rp->OnBytesSent(32767 - 100);
        r3 = rp->GetRateBps();
        s3 = rp->GetByteStage();
    });
    Simulator::Stop(MicroSeconds(20));
    Simulator::Run();
    EXPECT_DOUBLE_EQ(r0, 20e9);
    EXPECT_EQ(s0, 0u);
    EXPECT_DOUBLE_EQ(r1, 30e9);
    EXPECT_EQ(s1, 1u);
    EXPECT_DOUBLE_EQ(r2, 35e9);
    EXPECT_EQ(s2, 2u);
    EXPECT_DOUBLE_EQ(rp->GetTargetBps(), 40e9);
    EXPECT_DOUBLE_EQ(r3, 35e9); // 32667 bytes toward stage 3: not yet
    EXPECT_EQ(s3, 2u);
    rp->Dispose();
    Simulator::Destroy();
}
