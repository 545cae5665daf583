/*
 * Test 1: one long-lived flow on one link reaches line rate x payload / (payload + headers).
 */
#include "model-test-util.h"

#include <gtest/gtest.h>

#include <iostream>

using namespace fabric;
using namespace fabric::test;

namespace
{

double
RunOneLink(double rateGbps, uint32_t mtu, bool viaSwitch)
{
    Scenario s;
    s.durationNs = 1000000;
    s.warmupNs = 100000;
    uint32_t h0 = AddNode(s, "h0", true);
    uint32_t h1 = AddNode(s, "h1", true);
    if (viaSwitch)
    {
        uint32_t sw = AddNode(s, "sw", false);
        AddLink(s, h0, sw, rateGbps, 1);
        AddLink(s, sw, h1, rateGbps, 1);
    }
    else
    {
        AddLink(s, h0, h1, rateGbps, 1);
    }
    for (auto& n : s.nicCfg)
    {
        n.mtuBytes = mtu;
    }
    SetCc(s, "none", false);
    AddFlow(s, h0, h1);
    FabricRunner r(s);
    EXPECT_EQ(r.Run(RunLimits(), nullptr), RunStatus::OK);
    auto res = r.Results();
    EXPECT_EQ(res["summary"]["drops"]["total"].get<uint64_t>(), 0u);
    double g = res["summary"]["throughput_gbps"].get<double>();
    std::cout << rateGbps << "G MTU " << mtu << ": goodput " << g << " Gbit/s" << std::endl;
    return g;
}

} // namespace

TEST(ModelLineRate, DirectLink100G)
{
    // 1000 B payload + 82 B of preamble/IFG, Ethernet, IPv4, UDP, BTH and ICRC.
    double expected = 100.0 * 1000.0 / 1082.0;
    double got = RunOneLink(100, 1000, false);
    EXPECT_NEAR(got, expected, expected * 0.01) << "goodput " << got;
}

TEST(ModelLineRate, ThroughSwitch25GMtu4096)
{
    double expected = 25.0 * 4096.0 / (4096.0 + 82.0);
    double got = RunOneLink(25, 4096, true);
    EXPECT_NEAR(got, expected, expected * 0.01) << "goodput " << got;
}
