/*
 * Test 4: CNP pacing at the notification point: one CNP per QP per CNP interval when every
 * packet is marked (Kmin = Kmax = 0: any packet that finds a queue is marked).
 */
#include "model-test-util.h"

#include "ns3/callback.h"

#include <gtest/gtest.h>

#include <map>

using namespace fabric;
using namespace fabric::test;

namespace
{

std::map<uint32_t, std::vector<int64_t>> g_cnpTimes;

void
OnCnp(uint32_t flow)
{
    g_cnpTimes[flow].push_back(NowPs());
}

void
CheckInterval(double intervalUs)
{
    g_cnpTimes.clear();
    Scenario s;
    s.durationNs = 1000000;
    Star(s, 3, 100, 1);
    SetCc(s, "none", true);
    for (auto& sw : s.switchCfg)
    {
        for (auto& e : sw.ecn)
        {
            e.kminBytes = 0;
            e.kmaxBytes = 0;
        }
    }
    for (auto& n : s.nicCfg)
    {
        n.cnpIntervalUs = intervalUs;
    }
    AddFlow(s, 1, 0);
    AddFlow(s, 2, 0);
    FabricRunner r(s);
    r.Impl().Nic(0)->TraceConnectWithoutContext("CnpTx", ns3::MakeCallback(&OnCnp));
    r.Run(RunLimits(), nullptr);
    int64_t intervalPs = static_cast<int64_t>(intervalUs * 1e6);
    for (uint32_t flow : {0u, 1u})
    {
        const auto& t = g_cnpTimes[flow];
        ASSERT_FALSE(t.empty());
        // Every packet after the first few is marked, so CNPs come one interval apart (plus at
        // most one packet time), and never closer.
        for (size_t i = 1; i < t.size(); ++i)
        {
            EXPECT_GE(t[i] - t[i - 1], intervalPs);
            EXPECT_LE(t[i] - t[i - 1], intervalPs + 200000) << "gap " << i;
        }
        double expected = (1000e6 - t.front()) / (intervalPs + 0.0);
        EXPECT_NEAR(static_cast<double>(t.size()), expected, 1.5) << "flow " << flow;
    }
    auto res = r.Results();
    EXPECT_EQ(res["summary"]["cnps_sent"].get<uint64_t>(),
              g_cnpTimes[0].size() + g_cnpTimes[1].size());
}

} // namespace

TEST(ModelCnp, OnePerQpPer50us)
{
    CheckInterval(50);
}

TEST(ModelCnp, OnePerQpPer10us)
{
    CheckInterval(10);
}
