/*
 * Test 2: a window-limited flow on a long link: throughput = min(C, W / RTT), W = QD x message.
 */
#include "model-test-util.h"

#include <gtest/gtest.h>

#include <iostream>

using namespace fabric;
using namespace fabric::test;

namespace
{

double
Goodput(uint32_t qd, uint32_t messageBytes, double delayUs, double& rttUs)
{
    Scenario s;
    s.durationNs = 2000000;
    s.warmupNs = 500000; // 5 RTTs; the measurement covers 15 RTTs
    uint32_t h0 = AddNode(s, "h0", true);
    uint32_t h1 = AddNode(s, "h1", true);
    AddLink(s, h0, h1, 100, delayUs);
    SetCc(s, "none", false);
    FlowSpec& f = AddFlow(s, h0, h1);
    f.window = qd;
    f.messageBytes = messageBytes;
    // RTT of one packet: data serialization + propagation + ACK serialization + propagation.
    rttUs = (1082 * 8 / 100e3) + delayUs + (86 * 8 / 100e3) + delayUs;
    FabricRunner r(s);
    r.Run(RunLimits(), nullptr);
    double g = r.Results()["summary"]["throughput_gbps"].get<double>();
    std::cout << "QD " << qd << " x " << messageBytes << " B, RTT " << rttUs << " us: goodput " << g
              << " Gbit/s" << std::endl;
    return g;
}

} // namespace

TEST(ModelWindow, WindowLimitedOnTenKilometres)
{
    double rtt = 0;
    // 4 x 64000 B outstanding over a 50 us link (10 km): W / RTT = 256000 x 8 / 100.093 us.
    double got = Goodput(4, 64000, 50, rtt);
    double expected = std::min(100.0 * 1000 / 1082, 4 * 64000 * 8 / (rtt * 1e3));
    EXPECT_NEAR(got, expected, expected * 0.03) << "got " << got << " expected " << expected;
    EXPECT_LT(expected, 25.0); // really window-limited
}

TEST(ModelWindow, LargeWindowReachesLineRate)
{
    double rtt = 0;
    double got = Goodput(64, 64000, 50, rtt); // W / RTT = 327 Gbit/s > C
    double expected = 100.0 * 1000 / 1082;
    EXPECT_NEAR(got, expected, expected * 0.03) << "got " << got;
}

TEST(ModelWindow, HalfTheWindowHalfTheThroughput)
{
    double rtt = 0;
    double got = Goodput(2, 64000, 50, rtt);
    double expected = 2 * 64000 * 8 / (rtt * 1e3);
    EXPECT_NEAR(got, expected, expected * 0.03) << "got " << got;
}
