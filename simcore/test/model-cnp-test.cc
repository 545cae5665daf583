/*
 * Test 4: CNP pacing at the notification point: one CNP per QP per CNP interval when every
 * packet is marked (Kmin = Kmax = 0: any packet that finds a queue is marked).
 */
#include "model-test-util.h"

#include "ns3/callback.h"

#include <gtest/gtest.h>

#include <algorithm>
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
    r.Fabric().Nic(0)->TraceConnectWithoutContext("CnpTx", ns3::MakeCallback(&OnCnp));
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

// Test 4b: the notification point's two modes with sparse marks (RED from 0 to 10 MB at Pmax 1 %
// on a 2-to-1 incast held by PFC, cc none: a mark every ~100 us per QP, so many land inside the
// interval after a CNP). "window" (DCQCN paper: at most one CNP per interval, if a frame that
// arrived in it was marked): every marked frame is answered by a CNP no later than one interval
// (plus the last hop) after the switch sent it. "holdoff": marks inside the interval are
// forgotten, so some marked frames get no CNP within that time. Both: CNPs an interval apart.
namespace
{

std::vector<std::pair<uint32_t, int64_t>> g_marked; // (flow, time the switch sent it)

void
OnSwitchTx(uint32_t port, const RocePacket& p)
{
    if (p.kind == PacketKind::DATA && p.ecn)
    {
        g_marked.emplace_back(p.flow, NowPs());
    }
}

/** Marked frames with no CNP for their flow within [sent, sent + slack]. */
size_t
UnansweredMarks(const std::string& mode, double intervalUs)
{
    g_cnpTimes.clear();
    g_marked.clear();
    Scenario s;
    s.durationNs = 10000000;
    uint32_t sw = Star(s, 3, 100, 1);
    SetCc(s, "none", true);
    for (auto& c : s.switchCfg)
    {
        for (auto& e : c.ecn)
        {
            e.kminBytes = 0;
            e.kmaxBytes = 10000000;
            e.pmax = 0.01;
        }
    }
    for (auto& n : s.nicCfg)
    {
        n.cnpIntervalUs = intervalUs;
        n.cnpMode = mode;
    }
    AddFlow(s, 1, 0);
    AddFlow(s, 2, 0);
    FabricRunner r(s);
    r.Fabric().Nic(0)->TraceConnectWithoutContext("CnpTx", ns3::MakeCallback(&OnCnp));
    r.Fabric().Switch(sw)->TraceConnectWithoutContext("Tx", ns3::MakeCallback(&OnSwitchTx));
    r.Run(RunLimits(), nullptr);
    int64_t intervalPs = static_cast<int64_t>(intervalUs * 1e6);
    // last hop: 1082 bytes at 100G (86.56 ns) + 1 us; one more frame time of slack
    int64_t slackPs = intervalPs + 1000000 + 2 * 86560;
    size_t unanswered = 0;
    for (const auto& [flow, sent] : g_marked)
    {
        const auto& t = g_cnpTimes[flow];
        auto it = std::lower_bound(t.begin(), t.end(), sent);
        if (it == t.end() || *it > sent + slackPs)
        {
            ++unanswered;
        }
    }
    for (uint32_t flow : {0u, 1u})
    {
        const auto& t = g_cnpTimes[flow];
        for (size_t i = 1; i < t.size(); ++i)
        {
            EXPECT_GE(t[i] - t[i - 1], intervalPs) << mode;
        }
    }
    EXPECT_GT(g_marked.size(), 20u) << mode; // marks are sparse but there are enough of them
    return unanswered;
}

} // namespace

TEST(ModelCnp, WindowModeAnswersEveryMarkWithinOneInterval)
{
    // Marks in the last interval before the end of the run may be owed a CNP after it.
    EXPECT_LE(UnansweredMarks("window", 50), 2u);
}

TEST(ModelCnp, HoldoffModeForgetsMarksInsideTheInterval)
{
    EXPECT_GT(UnansweredMarks("holdoff", 50), 10u);
}
