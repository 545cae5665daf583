/*
 * Test 5: the DCQCN reaction point driven directly. One CNP at alpha = 1 halves the rate; fast
 * recovery moves halfway to the target per timer period (40 -> 20 -> 30, 35, 37.5, 38.75,
 * 39.375 Gbit/s); then additive increase; alpha decays by (1 - g) per period without CNP.
 */
#include "model/dcqcn.h"

#include "ns3/core-module.h"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

using namespace fabric;
using namespace ns3;

namespace
{

Ptr<Dcqcn>
MakeRp(double raiMbps)
{
    auto rp = CreateObject<Dcqcn>();
    rp->SetAttribute("G", DoubleValue(1.0 / 256));
    rp->SetAttribute("AlphaUpdatePeriod", TimeValue(MicroSeconds(55)));
    rp->SetAttribute("RateDecreaseInterval", TimeValue(MicroSeconds(50)));
    rp->SetAttribute("RateIncreaseTimer", TimeValue(MicroSeconds(55)));
    rp->SetAttribute("ByteCounter", UintegerValue(0));
    rp->SetAttribute("FastRecoverySteps", UintegerValue(5));
    rp->SetAttribute("RaiBps", DoubleValue(raiMbps * 1e6));
    rp->SetAttribute("RhaiBps", DoubleValue(200e6));
    rp->SetAttribute("MinRateBps", DoubleValue(100e6));
    return rp;
}

} // namespace

TEST(ModelDcqcn, CutAndFastRecovery)
{
    Simulator::Destroy();
    auto rp = MakeRp(40);
    rp->Init(40e9);
    std::vector<double> rates;
    Simulator::Schedule(MicroSeconds(10), [&] {
        rp->OnCnp();
        rates.push_back(rp->GetRateBps());
        EXPECT_DOUBLE_EQ(rp->GetTargetBps(), 40e9);
        EXPECT_DOUBLE_EQ(rp->GetAlpha(), 1.0); // (1 - g) x 1 + g
    });
    for (int k = 1; k <= 6; ++k)
    {
        Simulator::Schedule(MicroSeconds(10 + 55 * k + 1), [&] { rates.push_back(rp->GetRateBps()); });
    }
    Simulator::Stop(MicroSeconds(400));
    Simulator::Run();
    ASSERT_EQ(rates.size(), 7u);
    double expected[] = {20e9, 30e9, 35e9, 37.5e9, 38.75e9, 39.375e9};
    for (int i = 0; i < 6; ++i)
    {
        EXPECT_NEAR(rates[i], expected[i], 1.0) << "step " << i;
    }
    // Step 6 is additive increase: target stays at line rate (capped), rate halfway to it.
    EXPECT_NEAR(rates[6], (39.375e9 + 40e9) / 2, 1.0);
    rp->Dispose();
    Simulator::Destroy();
}

TEST(ModelDcqcn, AdditiveIncreaseRaisesTarget)
{
    Simulator::Destroy();
    auto rp = MakeRp(1000); // Rai 1 Gbit/s to see the target move
    rp->Init(100e9);
    double targetAfter6 = 0;
    Simulator::Schedule(MicroSeconds(10), [&] { rp->OnCnp(); });
    // A second CNP after fast recovery: target = rate at that moment.
    Simulator::Schedule(MicroSeconds(10 + 55 * 5 + 1), [&] { rp->OnCnp(); });
    Simulator::Schedule(MicroSeconds(10 + 55 * 5 + 1 + 55 * 6 + 1),
                        [&] { targetAfter6 = rp->GetTargetBps(); });
    Simulator::Stop(MicroSeconds(1000));
    Simulator::Run();
    // First cut 100 -> 50, five fast-recovery steps reach 98.4375; the second CNP sets the
    // target there; after five more fast-recovery steps the sixth is additive: target + Rai.
    EXPECT_NEAR(targetAfter6, 98.4375e9 + 1e9, 1e3);
    rp->Dispose();
    Simulator::Destroy();
}

TEST(ModelDcqcn, AlphaDecaysAndCutsAreSpaced)
{
    // A CNP inside the 50 us decrease interval does not cut at once; the cut waits for the end
    // of the interval (1 + 50 = 51 us), at the alpha of that moment (1): 50 -> 25 Gbit/s. It used
    // to be dropped, which is neither the paper (every CNP cuts) nor the firmware (a CNP inside
    // rate_reduce_monitor_period is acted on at the period's end).
    Simulator::Destroy();
    auto rp = MakeRp(40);
    rp->Init(100e9);
    double alphaLater = 0;
    double rateAfterSecond = 0;
    double rateAfterFirst = 0;
    double rateJustBefore = 0;
    double rateAtEnd = 0;
    Simulator::Schedule(MicroSeconds(1), [&] {
        rp->OnCnp();
        rateAfterFirst = rp->GetRateBps();
    });
    Simulator::Schedule(MicroSeconds(20), [&] {
        rp->OnCnp(); // within the 50 us decrease interval: no cut now
        rateAfterSecond = rp->GetRateBps();
    });
    Simulator::Schedule(NanoSeconds(50999), [&] { rateJustBefore = rp->GetRateBps(); });
    Simulator::Schedule(NanoSeconds(51001), [&] { rateAtEnd = rp->GetRateBps(); });
    Simulator::Schedule(MicroSeconds(20 + 55 * 10 + 1), [&] { alphaLater = rp->GetAlpha(); });
    Simulator::Stop(MicroSeconds(700));
    Simulator::Run();
    EXPECT_NEAR(rateAfterFirst, 50e9, 1.0);
    EXPECT_NEAR(rateAfterSecond, 50e9, 1.0);
    EXPECT_NEAR(rateJustBefore, 50e9, 1.0);
    EXPECT_NEAR(rateAtEnd, 25e9, 1.0);
    // restart-on-CNP alpha (the paper's wording, the attribute default): 10 idle periods after
    // the CNP at 20 us; the deferred cut does not touch alpha
    EXPECT_NEAR(alphaLater, std::pow(1 - 1.0 / 256, 10), 1e-12);
    rp->Dispose();
    Simulator::Destroy();
}

TEST(ModelDcqcn, PeriodicAlphaTimer)
{
    // Free-running alpha timer (fluid model, NVIDIA dce_tcp_rtt): ticks at 55, 110, ... us; a
    // tick adds g if a CNP came since the previous one. CNP at 1 us: tick 55 -> 1; ticks 110..275
    // decay: (1 - g)^4 at 276 us; CNP at 300 us (alpha not moved by it), tick 330:
    // (1 - g)^5 + g; tick 385: ((1 - g)^5 + g)(1 - g).
    Simulator::Destroy();
    auto rp = MakeRp(40);
    rp->SetAttribute("AlphaTimerRestartsOnCnp", BooleanValue(false));
    rp->Init(100e9);
    const double k = 1 - 1.0 / 256;
    std::vector<std::pair<int64_t, double>> probes = {{54, 1.0},
                                                      {56, 1.0},
                                                      {276, std::pow(k, 4)},
                                                      {301, std::pow(k, 4)},
                                                      {331, std::pow(k, 5) + 1.0 / 256},
                                                      {386, (std::pow(k, 5) + 1.0 / 256) * k}};
    std::vector<double> seen(probes.size(), -1);
    Simulator::Schedule(MicroSeconds(1), [&] { rp->OnCnp(); });
    Simulator::Schedule(MicroSeconds(300), [&] { rp->OnCnp(); });
    for (size_t i = 0; i < probes.size(); ++i)
    {
        Simulator::Schedule(MicroSeconds(probes[i].first), [&, i] { seen[i] = rp->GetAlpha(); });
    }
    Simulator::Stop(MicroSeconds(400));
    Simulator::Run();
    for (size_t i = 0; i < probes.size(); ++i)
    {
        EXPECT_NEAR(seen[i], probes[i].second, 1e-12) << "at " << probes[i].first << " us";
    }
    rp->Dispose();
    Simulator::Destroy();
}
