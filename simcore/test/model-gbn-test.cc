/*
 * Test 10: go-back-N under periodic loss. Dropping one data packet in every N on the
 * bottleneck (a loss fault dropping every n-th DATA frame) wastes about one bandwidth-delay product
 * per loss: efficiency = 1 / (1 + p x BDP in packets), p = losses per delivered packet.
 */
#include "model-test-util.h"

#include <gtest/gtest.h>

using namespace fabric;
using namespace fabric::test;

namespace
{

void
Check(uint64_t period, double delayUs)
{
    Scenario s;
    s.durationNs = 4000000;
    s.warmupNs = 0;
    uint32_t sw = Star(s, 2, 100, delayUs);
    SetCc(s, "none", false);
    FlowSpec& f = AddFlow(s, 1, 0);
    f.window = 1000; // never window-limited
    // Every period-th DATA frame the switch sends toward the receiver is lost (a loss fault).
    AddPeriodicDataLoss(s, sw, 0, period);
    FabricRunner r(s);
    r.Run(RunLimits(), nullptr);
    auto res = r.Results();
    double goodput = res["summary"]["throughput_gbps"].get<double>();
    double line = 100.0 * 1000 / 1082;
    double efficiency = goodput / line;
    double delivered = res["flows"][0]["bytes_delivered"].get<double>() / 1000;
    double losses = res["faults"]["drops"]["link_loss"].get<double>();
    ASSERT_GT(losses, 10);
    double p = losses / delivered;
    // RTT: data and ACK serialization on both hops plus four propagation delays.
    double rttUs = 4 * delayUs + 2 * (1082 + 86) * 8 / 100e3;
    double bdpPackets = rttUs * 1e-6 * 100e9 / 8 / 1082;
    double expected = 1 / (1 + p * bdpPackets);
    EXPECT_NEAR(efficiency, expected, 0.05)
        << "period " << period << " p " << p << " BDP " << bdpPackets;
    EXPECT_GT(res["summary"]["retransmitted_packets"].get<uint64_t>(), 0u);
    std::cout << "period " << period << " delay " << delayUs << " BDP " << bdpPackets
              << " pkts, efficiency " << efficiency << " predicted " << expected << std::endl;
}

} // namespace

TEST(ModelGoBackN, OneLossIn500)
{
    Check(500, 2);
}

TEST(ModelGoBackN, OneLossIn2000LongerLinks)
{
    Check(2000, 8);
}

TEST(ModelGoBackN, NoTestOnlyDropReasonInResults)
{
    // The loss above is a real loss fault: the former test-only hook's "corrupt" reason is gone
    // from every result (summary, accounting, counters).
    Scenario s;
    s.durationNs = 200000;
    Star(s, 2, 100, 1);
    AddFlow(s, 1, 0);
    FabricRunner r(s);
    r.Run(RunLimits(), nullptr);
    auto res = r.Results();
    std::vector<std::string> keys;
    for (auto it = res["summary"]["drops"].begin(); it != res["summary"]["drops"].end(); ++it)
    {
        keys.push_back(it.key());
    }
    EXPECT_EQ(keys, (std::vector<std::string>{"total", "headroom_overflow", "buffer_overflow",
                                              "tail_drop"}));
    EXPECT_EQ(res.dump().find("corrupt"), std::string::npos);
}
