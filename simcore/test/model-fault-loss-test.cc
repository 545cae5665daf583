/*
 * Loss faults (scenario `faults`, kind "loss") against hand calculations.
 * Go-back-N wastes about one bandwidth-delay product per loss: with p losses per delivered
 * packet, efficiency = 1 / (1 + p x BDP in packets) (the same formula as model-gbn-test, here
 * with seeded random loss through the fault schedule). Without NACK only the RTO recovers.
 */
#include "model-test-util.h"

#include <gtest/gtest.h>

#include <map>

using namespace fabric;
using namespace fabric::test;

namespace
{

FaultSpec
Loss(uint32_t from, uint32_t to, double rate, uint64_t everyN)
{
    FaultSpec f;
    f.kind = FaultKind::LOSS;
    f.link = {from, to};
    f.bothDirections = false;
    f.lossRate = rate;
    f.everyN = everyN;
    f.dataOnly = true;
    return f;
}

void
CheckRandomLoss(double rate, double delayUs)
{
    Scenario s;
    s.durationNs = 4000000;
    uint32_t sw = Star(s, 2, 100, delayUs);
    SetCc(s, "none", false);
    FlowSpec& f = AddFlow(s, 1, 0);
    f.window = 1000; // never window-limited
    s.faults.push_back(Loss(sw, 0, rate, 0));
    FabricRunner r(s);
    r.Run(RunLimits(), nullptr);
    auto res = r.Results();
    double line = 100.0 * 1000 / 1082;
    double efficiency = res["summary"]["throughput_gbps"].get<double>() / line;
    double delivered = res["flows"][0]["bytes_delivered"].get<double>() / 1000;
    double losses = res["faults"]["drops"]["link_loss"].get<double>();
    ASSERT_GT(losses, 10);
    EXPECT_EQ(res["summary"]["drops"]["total"].get<double>(), losses);
    double p = losses / delivered;
    double rttUs = 4 * delayUs + 2 * (1082 + 86) * 8 / 100e3;
    double bdpPackets = rttUs * 1e-6 * 100e9 / 8 / 1082;
    double expected = 1 / (1 + p * bdpPackets);
    EXPECT_NEAR(efficiency, expected, 0.05) << "rate " << rate << " p " << p << " BDP " << bdpPackets;
    std::cout << "loss rate " << rate << " delay " << delayUs << " us: BDP " << bdpPackets
              << " pkts, p " << p << ", efficiency " << efficiency << " predicted " << expected
              << std::endl;
}

} // namespace

TEST(FaultLoss, RandomLossShortBdp)
{
    CheckRandomLoss(0.002, 2);
}

TEST(FaultLoss, RandomLossLongBdp)
{
    CheckRandomLoss(0.0005, 8);
}

TEST(FaultLoss, SameSeedSameLossesOtherSeedOther)
{
    auto run = [](uint32_t seed) {
        Scenario s;
        s.seed = seed;
        s.durationNs = 500000;
        uint32_t sw = Star(s, 2, 100, 1);
        SetCc(s, "none", false);
        AddFlow(s, 1, 0).window = 1000;
        s.faults.push_back(Loss(sw, 0, 0.01, 0));
        FabricRunner r(s);
        r.Run(RunLimits(), nullptr);
        return r.Results()["faults"]["drops"]["link_loss"].get<uint64_t>();
    };
    EXPECT_EQ(run(1), run(1));
    EXPECT_NE(run(1), run(2));
}

TEST(FaultLoss, WithoutNackTheRtoRecovers)
{
    // 100 packets of 1000 B; every 40th DATA frame on sw->h0 is lost. Without NACK the receiver
    // stays silent about the hole, so each loss costs one RTO (100 us) before go-back-N.
    Scenario s;
    s.durationNs = 2000000;
    uint32_t sw = Star(s, 2, 100, 1);
    SetCc(s, "none", false);
    for (auto& n : s.nicCfg)
    {
        n.nackEnabled = false;
        n.rtoUs = 100;
    }
    AddFlow(s, 1, 0, 100000).window = 1000;
    s.faults.push_back(Loss(sw, 0, 0, 40));
    FabricRunner r(s);
    r.Run(RunLimits(), nullptr);
    auto res = r.Results();
    ASSERT_FALSE(res["flows"][0]["fct_us"].is_null()) << "the flow never completed";
    double fct = res["flows"][0]["fct_us"].get<double>();
    uint64_t timeouts = r.Fabric().Context().flows[0].timeouts;
    uint64_t losses = res["faults"]["drops"]["link_loss"].get<uint64_t>();
    EXPECT_GE(losses, 2u);
    EXPECT_GE(timeouts, 1u);
    // Each timeout waits one RTO after the last progress; the data itself takes ~10 us.
    double ideal = res["flows"][0]["ideal_fct_us"].get<double>();
    EXPECT_GE(fct, ideal + timeouts * 100.0 - 15);
    EXPECT_LE(fct, ideal + timeouts * 100.0 + timeouts * 30.0 + 30);
    std::cout << "losses " << losses << " timeouts " << timeouts << " fct " << fct << " us (ideal "
              << ideal << ")" << std::endl;
}

TEST(FaultLoss, LossEndsAtEndTime)
{
    Scenario s;
    s.durationNs = 400000;
    uint32_t sw = Star(s, 2, 100, 1);
    SetCc(s, "none", false);
    AddFlow(s, 1, 0).window = 1000;
    FaultSpec f = Loss(sw, 0, 0, 10);
    f.endNs = 100000; // 100 us of every-10th loss at 92.4 Gbit/s payload: ~1155 frames, ~115 lost
    s.faults.push_back(f);
    FabricRunner r(s);
    r.Run(RunLimits(), nullptr);
    auto res = r.Results();
    double losses = res["faults"]["drops"]["link_loss"].get<double>();
    EXPECT_GT(losses, 80);
    EXPECT_LT(losses, 120);
    ASSERT_EQ(res["faults"]["events"].size(), 2u);
    EXPECT_EQ(res["faults"]["events"][1]["event"], "loss_end");
    EXPECT_EQ(res["faults"]["events"][1]["t_us"].get<double>(), 100);
}

TEST(FaultLoss, PortCountersCountFramesBytesAndDropsPerPort)
{
    // 100 DATA packets of 1000 B (1082 B on the wire) from h1 to h0; every 10th frame on
    // sw->h0 is lost and sent again. Each port counts what it started to transmit.
    Scenario s;
    s.durationNs = 1000000;
    s.portCounters = true;
    uint32_t sw = Star(s, 2, 100, 1);
    SetCc(s, "none", false);
    AddFlow(s, 1, 0, 100000).window = 1000;
    s.faults.push_back(Loss(sw, 0, 0, 10));
    FabricRunner r(s);
    r.Run(RunLimits(), nullptr);
    auto res = r.Results();
    ASSERT_TRUE(res.contains("port_counters"));
    uint64_t retrans = r.Fabric().Context().flows[0].retransmits;
    uint64_t losses = res["faults"]["drops"]["link_loss"].get<uint64_t>();
    ASSERT_GT(losses, 0u);
    std::map<std::string, nlohmann::ordered_json> rows;
    for (const auto& e : res["port_counters"]["ports"])
    {
        rows[e["port"].get<std::string>() + "#" + std::to_string(e["priority"].get<int>())] = e;
    }
    EXPECT_EQ(rows["h1->sw#3"]["tx_packets"].get<uint64_t>(), 100 + retrans);
    EXPECT_EQ(rows["h1->sw#3"]["tx_bytes"].get<uint64_t>(), (100 + retrans) * 1082);
    // The switch forwards every frame it received (nothing is lost on h1->sw).
    EXPECT_EQ(rows["sw->h0#3"]["tx_packets"].get<uint64_t>(), 100 + retrans);
    // h0 acknowledges on priority 7 (ACK and NACK frames of 86 bytes).
    uint64_t acks = rows["h0->sw#7"]["tx_packets"].get<uint64_t>();
    EXPECT_EQ(rows["h0->sw#7"]["tx_bytes"].get<uint64_t>(), acks * 86);
    ASSERT_EQ(res["port_counters"]["drops"].size(), 1u);
    EXPECT_EQ(res["port_counters"]["drops"][0]["port"], "sw->h0");
    EXPECT_EQ(res["port_counters"]["drops"][0]["by_reason"]["link_loss"].get<uint64_t>(), losses);
}
