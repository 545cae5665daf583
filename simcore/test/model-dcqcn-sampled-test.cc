/*
 * The sampled DCQCN reaction point (fabric::DcqcnSampled, the HPCC simulator's "Mellanox
 * version") driven directly with the hpcc-dcqcn parameters: 100G line rate, g 1/256, alpha
 * period 1 us, decrease check every 4 us, increase timer 300 us, F 1, Rai 20 / Rhai 200 Mbit/s,
 * min rate 1 Gbit/s, target clamped only after a timer increase. Expected values by hand.
 */
#include "model/dcqcn-sampled.h"

#include "ns3/core-module.h"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

using namespace fabric;
using namespace ns3;

namespace
{

constexpr double kG = 1.0 / 256;

Ptr<DcqcnSampled>
MakeRp()
{
    auto rp = CreateObject<DcqcnSampled>();
    rp->SetAttribute("G", DoubleValue(kG));
    rp->SetAttribute("AlphaUpdatePeriod", TimeValue(MicroSeconds(1)));
    rp->SetAttribute("RateDecreaseInterval", TimeValue(MicroSeconds(4)));
    rp->SetAttribute("RateIncreaseTimer", TimeValue(MicroSeconds(300)));
    rp->SetAttribute("ByteCounter", UintegerValue(0));
    rp->SetAttribute("FastRecoverySteps", UintegerValue(1));
    rp->SetAttribute("RaiBps", DoubleValue(20e6));
    rp->SetAttribute("RhaiBps", DoubleValue(200e6));
    rp->SetAttribute("MinRateBps", DoubleValue(1e9));
    rp->SetAttribute("ClampTargetRate", BooleanValue(false));
    rp->SetAttribute("ClampTargetAfterTimerIncrease", BooleanValue(true));
    rp->Init(100e9);
    return rp;
}

void
At(double us, std::function<void()> f)
{
    Simulator::Schedule(NanoSeconds(static_cast<int64_t>(std::llround(us * 1000))), f);
}

} // namespace

TEST(ModelDcqcnSampled, FirstCnpSetsAlphaAndCutsAtTheNextCheck)
{
    Simulator::Destroy();
    auto rp = MakeRp();
    std::vector<double> seen;
    At(10, [&] {
        rp->OnCnp();
        seen.push_back(rp->GetRateBps()); // no cut on the CNP itself
        seen.push_back(rp->GetAlpha());   // alpha = 1
    });
    At(14.0005, [&] { seen.push_back(rp->GetRateBps()); }); // before the check at 14.001
    At(14.002, [&] { seen.push_back(rp->GetRateBps()); });
    At(314.002, [&] { seen.push_back(rp->GetRateBps()); }); // fast recovery
    At(614.002, [&] { seen.push_back(rp->GetRateBps()); seen.push_back(rp->GetTargetBps()); });
    Simulator::Stop(MicroSeconds(700));
    Simulator::Run();
    ASSERT_EQ(seen.size(), 7u);
    EXPECT_DOUBLE_EQ(seen[0], 100e9);
    EXPECT_DOUBLE_EQ(seen[1], 1.0);
    EXPECT_DOUBLE_EQ(seen[2], 100e9);
    // Four alpha periods without a CNP: alpha (1-g)^4 at the check.
    double r1 = 100e9 * (1 - std::pow(1 - kG, 4) / 2);
    EXPECT_NEAR(seen[3], r1, 1.0);
    double r2 = (r1 + 100e9) / 2; // fast recovery toward the unchanged target
    EXPECT_NEAR(seen[4], r2, 1.0);
    EXPECT_NEAR(seen[5], (r2 + 100e9) / 2, 1.0); // additive: target capped at line rate
    EXPECT_DOUBLE_EQ(seen[6], 100e9);
    rp->Dispose();
    Simulator::Destroy();
}

TEST(ModelDcqcnSampled, OneCutPerCheckHoweverManyCnps)
{
    Simulator::Destroy();
    auto rp = MakeRp();
    // A CNP at 10 us, then every 0.5 us from 10.25 to 29.75 us: every alpha period has one, so
    // alpha stays exactly 1 and each check (14.001, 18.001, ..., 30.001) halves the rate.
    At(10, [&] { rp->OnCnp(); });
    for (int j = 0; j < 40; ++j)
    {
        At(10.25 + 0.5 * j, [&] { rp->OnCnp(); });
    }
    std::vector<double> rates;
    for (double t : {14.0, 14.002, 18.002, 22.002, 26.002, 30.002, 34.002, 329.0})
    {
        At(t, [&] { rates.push_back(rp->GetRateBps()); });
    }
    double alphaLater = 0;
    double targetLater = 0;
    At(40.5, [&] {
        alphaLater = rp->GetAlpha();
        targetLater = rp->GetTargetBps();
    });
    std::vector<double> increases;
    for (double t : {330.002, 630.002, 930.002})
    {
        At(t, [&] { increases.push_back(rp->GetRateBps()); });
    }
    Simulator::Stop(MicroSeconds(1000));
    Simulator::Run();
    std::vector<double> want = {100e9, 50e9, 25e9, 12.5e9, 6.25e9, 3.125e9, 3.125e9, 3.125e9};
    ASSERT_EQ(rates.size(), want.size());
    for (size_t i = 0; i < want.size(); ++i)
    {
        EXPECT_NEAR(rates[i], want[i], 1.0) << "sample " << i;
    }
    EXPECT_NEAR(alphaLater, std::pow(1 - kG, 10), 1e-12); // boundaries 31 .. 40 without CNP
    EXPECT_DOUBLE_EQ(targetLater, 100e9);                  // no timer increase: never clamped
    ASSERT_EQ(increases.size(), 3u);
    EXPECT_NEAR(increases[0], 51.5625e9, 1.0);   // fast recovery
    EXPECT_NEAR(increases[1], 75.78125e9, 1.0);  // additive (target capped at 100G)
    EXPECT_NEAR(increases[2], 87.890625e9, 1.0); // hyper
    rp->Dispose();
    Simulator::Destroy();
}

TEST(ModelDcqcnSampled, TargetClampedOnlyAfterATimerIncreaseAndRateFloored)
{
    Simulator::Destroy();
    auto rp = MakeRp();
    At(10, [&] { rp->OnCnp(); });
    for (int j = 0; j < 40; ++j)
    {
        At(10.25 + 0.5 * j, [&] { rp->OnCnp(); });
    }
    // Fast recovery at 330.001 us (51.5625G, timer stage 1); a CNP at 400.5 us is cut at the
    // check 402.001 us: the target follows the rate (clamp after a timer increase).
    At(400.5, [&] { rp->OnCnp(); });
    double rate = 0;
    double target = 0;
    At(402.002, [&] {
        rate = rp->GetRateBps();
        target = rp->GetTargetBps();
    });
    // Then CNPs every 0.5 us for 1 ms: a cut per 4 us with alpha rising by ~g per us reaches
    // the 1 Gbit/s floor (45 x 0.9^250 << 1) and stays there.
    for (int j = 0; j < 2000; ++j)
    {
        At(410.25 + 0.5 * j, [&] { rp->OnCnp(); });
    }
    double floor = 0;
    At(1400, [&] { floor = rp->GetRateBps(); });
    Simulator::Stop(MicroSeconds(1500));
    Simulator::Run();
    double alpha = ((std::pow(1 - kG, 370) * (1 - kG)) + kG) * (1 - kG);
    EXPECT_NEAR(target, 51.5625e9, 1.0);
    EXPECT_NEAR(rate, 51.5625e9 * (1 - alpha / 2), 1.0);
    EXPECT_DOUBLE_EQ(floor, 1e9);
    rp->Dispose();
    Simulator::Destroy();
}
