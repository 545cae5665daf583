/*
 * PFC storm (Guo et al. 2016, section 4.3): h3's NIC keeps pausing leaf1. Without watchdogs
 * the pause spreads hop by hop (leaf1 -> spine -> leaf0 -> h1) and stops h1 -> h2, a flow that
 * never touches h3. With the switch and NIC watchdogs, the victim's throughput after detection
 * returns to within 5% of its fault-free value. Fabric links are 400G, so in the fault-free
 * run the victim is limited only by its own 100G host links (92.4 Gbit/s of payload).
 */
#include "model-test-util.h"

#include <gtest/gtest.h>

using namespace fabric;
using namespace fabric::test;

namespace
{

constexpr uint64_t kStormNs = 200000;
constexpr double kWindowFromUs = 700; // well after detection (300-350 us) and draining

Scenario
Build(bool storm, bool watchdogs)
{
    Scenario s;
    s.durationNs = 2000000;
    for (int i = 0; i < 4; ++i)
    {
        AddNode(s, "h" + std::to_string(i), true);
    }
    uint32_t leaf0 = AddNode(s, "leaf0", false);
    uint32_t leaf1 = AddNode(s, "leaf1", false);
    uint32_t spine = AddNode(s, "spine0", false);
    AddLink(s, 0, leaf0, 100, 1);
    AddLink(s, 1, leaf0, 100, 1);
    AddLink(s, 2, leaf1, 100, 1);
    AddLink(s, 3, leaf1, 100, 1);
    AddLink(s, leaf0, spine, 400, 1);
    AddLink(s, leaf1, spine, 400, 1);
    SetCc(s, "none", false);
    AddFlow(s, 0, 3).window = 200; // toward the faulty host
    AddFlow(s, 1, 2).window = 200; // the victim: never touches h3
    s.monitor.sampleIntervalUs = 10;
    s.monitor.flows = {1};
    if (storm)
    {
        FaultSpec f;
        f.kind = FaultKind::PFC_STORM;
        f.host = 3;
        f.priority = 3;
        f.startNs = kStormNs;
        s.faults.push_back(f);
    }
    if (watchdogs)
    {
        s.watchdogs.switchEnabled = true;
        s.watchdogs.switchDetectNs = 100000;
        s.watchdogs.switchRestoreNs = 5000000; // stays in drop mode for the whole test
        s.watchdogs.nicEnabled = true;
        s.watchdogs.nicDetectNs = 150000;
    }
    return s;
}

/** Mean victim rate (Gbit/s) from kWindowFromUs to the end, from the monitor series. */
double
VictimRate(const nlohmann::ordered_json& res)
{
    const auto& t = res["series"]["t_us"];
    const auto& v = res["series"]["flow_rates_gbps"]["1"];
    double sum = 0;
    int n = 0;
    for (size_t i = 0; i < t.size(); ++i)
    {
        if (t[i].get<double>() > kWindowFromUs)
        {
            sum += v[i].get<double>();
            ++n;
        }
    }
    return n ? sum / n : 0;
}

uint64_t
PausesReceived(const nlohmann::ordered_json& res, const std::string& port)
{
    for (const auto& e : res["summary"]["pfc"])
    {
        if (e["port"] == port)
        {
            return e["pauses_received"].get<uint64_t>();
        }
    }
    return 0;
}

nlohmann::ordered_json
RunScenario(const Scenario& s)
{
    FabricRunner r(s);
    r.Run(RunLimits(), nullptr);
    return r.Results();
}

} // namespace

TEST(FaultStorm, WithoutWatchdogsThePauseSpreadsAndStopsTheVictim)
{
    auto free = RunScenario(Build(false, false));
    auto storm = RunScenario(Build(true, false));
    double freeRate = VictimRate(free);
    EXPECT_NEAR(freeRate, 100.0 * 1000 / 1082, 1.0);
    EXPECT_LT(VictimRate(storm), 0.05 * freeRate);
    // Hop by hop: h3 pauses leaf1, leaf1 pauses the spine, the spine pauses leaf0, leaf0 pauses
    // the victim's sender h1.
    EXPECT_GT(PausesReceived(storm, "leaf1->h3"), 0u);
    EXPECT_GT(PausesReceived(storm, "spine0->leaf1"), 0u);
    EXPECT_GT(PausesReceived(storm, "leaf0->spine0"), 0u);
    EXPECT_GT(PausesReceived(storm, "h1->leaf0"), 0u);
    EXPECT_EQ(PausesReceived(free, "h1->leaf0"), 0u);
    // 65535 quanta at 100G last 335.5 us; the storm refreshes every half of that.
    EXPECT_GE(PausesReceived(storm, "leaf1->h3"), static_cast<uint64_t>(1800 / 167.8));
    std::cout << "victim fault-free " << freeRate << " Gbit/s, under storm " << VictimRate(storm)
              << std::endl;
}

TEST(FaultStorm, WatchdogsRestoreTheVictim)
{
    auto free = RunScenario(Build(false, false));
    auto guarded = RunScenario(Build(true, true));
    double freeRate = VictimRate(free);
    double rate = VictimRate(guarded);
    EXPECT_NEAR(rate, freeRate, 0.05 * freeRate);
    const auto& faults = guarded["faults"];
    EXPECT_GE(faults["switch_watchdog_triggers"].get<int>(), 1);
    EXPECT_EQ(faults["nic_watchdog_triggers"].get<int>(), 1);
    // The switch watchdog fires on leaf1->h3 between detect (100 us) and detect + its check
    // period (25 us) after the storm starts; the NIC watchdog 150 us after the first pause.
    bool sawSwitch = false;
    bool sawNic = false;
    for (const auto& e : faults["events"])
    {
        double t = e["t_us"].get<double>();
        if (e["event"] == "switch_watchdog" && e["target"] == "leaf1->h3")
        {
            sawSwitch = true;
            EXPECT_GE(t, 300);
            EXPECT_LE(t, 325.001);
        }
        if (e["event"] == "nic_watchdog")
        {
            sawNic = true;
            EXPECT_EQ(e["target"], "h3");
            EXPECT_EQ(t, 350);
        }
    }
    EXPECT_TRUE(sawSwitch);
    EXPECT_TRUE(sawNic);
    EXPECT_GT(faults["drops"]["pfc_watchdog"].get<int>(), 0);
    std::cout << "victim fault-free " << freeRate << " Gbit/s, storm with watchdogs " << rate
              << std::endl;
}

TEST(FaultStorm, SlowReceiverPausesItsTor)
{
    // h2 drains at 25 Gbit/s: the flow h1 -> h2 settles at the drain rate (of frame bytes),
    // and the NIC pauses leaf1.
    Scenario s = Build(false, false);
    FaultSpec f;
    f.kind = FaultKind::SLOW_RECEIVER;
    f.host = 2;
    f.drainGbps = 25;
    f.bufferBytes = 131072;
    s.faults.push_back(f);
    auto res = RunScenario(s);
    double rate = VictimRate(res);
    // Payload share of a 1062-byte frame (1000 payload + 62 header bytes without preamble/IFG).
    EXPECT_NEAR(rate, 25.0 * 1000 / 1062, 0.5);
    EXPECT_GT(PausesReceived(res, "leaf1->h2"), 0u);
    EXPECT_EQ(res["faults"]["drops"]["nic_rx_overflow"].get<int>(), 0);
}
