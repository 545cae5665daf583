/*
 * Accounting a user can trust (issue 7, section 3), second part: counters over the whole run
 * and after warm-up side by side, per-(port, priority) ingress occupancy and XOFF counts, and
 * each flow's path. The expectations are identities a hand calculation gives, checked against
 * independent quantities (a second run cut at the warm-up, the egress queues, link counters).
 */
#include "model-test-util.h"

#include "model/roce-packet.h"

#include <gtest/gtest.h>

#include <cmath>
#include <set>

using namespace fabric;
using namespace fabric::test;
using json = nlohmann::ordered_json;

namespace
{

/**
 * h0 and h1 send long-lived flows to h2 at 100 Gbit/s through one switch with a 1 MB buffer,
 * no congestion control, ECN marking on: the egress toward h2 fills, is marked, and PFC
 * pauses h0 and h1 (XOFF/XON).
 */
Scenario
PausingIncast(uint64_t durationNs, uint64_t warmupNs)
{
    Scenario s;
    uint32_t sw = Star(s, 3, 100, 1);
    SetCc(s, "none", true);
    s.switchCfg[sw].bufferBytes = 1000000;
    s.switchCfg[sw].pfc.pauseMode = PauseMode::XOFF_XON;
    // Marking from 5 KB: the egress queue is marked whatever the ingress XOFF point (with the
    // 100 KB default, whether the queue got there before PFC paused the senders depended on the
    // order of frames arriving at the same picosecond).
    for (auto& e : s.switchCfg[sw].ecn)
    {
        e.kminBytes = 5000;
        e.kmaxBytes = 200000;
    }
    s.durationNs = durationNs;
    s.warmupNs = warmupNs;
    AddFlow(s, 0, 2);
    AddFlow(s, 1, 2);
    return s;
}

json
Simulate(const Scenario& s)
{
    FabricRunner r(s);
    r.Run(RunLimits(), nullptr);
    return r.Results();
}

uint64_t
U(const json& j, const char* key)
{
    return j[key].get<uint64_t>();
}

} // namespace

TEST(ModelCounters, WithoutWarmupAfterWarmupEqualsWholeRunAndTheSummary)
{
    json res = Simulate(PausingIncast(300000, 0));
    const json& s = res["summary"];
    const json& whole = s["counters"]["whole_run"];
    EXPECT_EQ(whole, s["counters"]["after_warmup"]);
    EXPECT_EQ(U(whole, "ecn_marked_packets"), U(s, "ecn_marked_packets"));
    EXPECT_EQ(U(whole, "cnps_sent"), U(s, "cnps_sent"));
    EXPECT_EQ(U(whole, "pfc_pauses_sent"), U(s, "pfc_pauses_sent"));
    EXPECT_EQ(U(whole, "pfc_pauses_received"), U(s, "pfc_pauses_received"));
    EXPECT_EQ(U(whole, "retransmitted_packets"), U(s, "retransmitted_packets"));
    EXPECT_EQ(U(whole["drops"], "total"), U(s["drops"], "total"));
    // The scenario exercises what it checks.
    EXPECT_GT(U(whole, "ecn_marked_packets"), 0u);
    EXPECT_GT(U(whole, "pfc_pauses_sent"), 0u);
    double pauseUs = 0;
    for (const json& e : s["pfc"])
    {
        pauseUs += e["pause_duration_us"].get<double>();
        EXPECT_EQ(e["pauses_sent"], e["pauses_sent_after_warmup"]) << e.dump();
        EXPECT_EQ(e["pause_duration_us"], e["pause_duration_us_after_warmup"]) << e.dump();
    }
    EXPECT_GT(pauseUs, 0);
    EXPECT_NEAR(whole["pfc_pause_duration_us"].get<double>(), pauseUs, 1e-3 * s["pfc"].size());
}

TEST(ModelCounters, AfterWarmupIsTheWholeRunLessARunCutAtTheWarmup)
{
    // The same scenario and seed cut at W (no warm-up) is, event for event, the first W of the
    // run with warm-up W: its whole-run counters are the baseline the longer run subtracts.
    const uint64_t warmupNs = 120000;
    json cut = Simulate(PausingIncast(warmupNs, 0))["summary"]["counters"]["whole_run"];
    json full = Simulate(PausingIncast(300000, warmupNs))["summary"]["counters"];
    const json& whole = full["whole_run"];
    const json& after = full["after_warmup"];
    for (const char* key : {"ecn_marked_packets", "cnps_sent", "pfc_pauses_sent",
                            "pfc_pauses_received", "retransmitted_packets"})
    {
        SCOPED_TRACE(key);
        EXPECT_EQ(U(whole, key), U(cut, key) + U(after, key));
    }
    EXPECT_EQ(U(whole["drops"], "total"), U(cut["drops"], "total") + U(after["drops"], "total"));
    EXPECT_NEAR(whole["pfc_pause_duration_us"].get<double>(),
                cut["pfc_pause_duration_us"].get<double>() +
                    after["pfc_pause_duration_us"].get<double>(),
                2e-3);
    EXPECT_GT(U(cut, "pfc_pauses_sent"), 0u);
    EXPECT_GT(U(after, "ecn_marked_packets"), 0u);
}

TEST(ModelCounters, GoodputAfterWarmupIsTheLineRateOfAnUncontendedFlow)
{
    // One flow alone at 100 Gbit/s: after the first frame's latency it delivers a 1000-byte
    // payload per 1082-byte frame, 100 x 1000 / 1082 = 92.421 Gbit/s. From its start the first
    // frame's latency (two serializations and two 1 us hops) counts against it.
    Scenario s;
    Star(s, 2, 100, 1);
    SetCc(s, "none", false);
    s.durationNs = 200000;
    s.warmupNs = 50000;
    AddFlow(s, 0, 1);
    json f = Simulate(s)["flows"][0];
    double bound = 100.0 * 1000.0 / (1000.0 + kDataOverheadBytes);
    double warm = f["goodput_after_warmup_gbps"].get<double>();
    EXPECT_NEAR(warm, bound, 1e-3 * bound);
    EXPECT_LE(warm, bound + 5e-5);
    EXPECT_LT(f["goodput_gbps"].get<double>(), warm);
    EXPECT_FALSE(f.contains("path")); // telemetry.flow_paths is off
}

TEST(ModelCounters, IngressOccupancyIsTheEgressQueueInCellsAndXoffsArePausesSent)
{
    // Every DATA frame is charged to its ingress from its admission to the start of its
    // transmission, exactly while it sits in the egress queue toward h2. All frames are 1062
    // bytes in the buffer (1082 on the wire less 20 of preamble and gap), charged as whole
    // 208-byte cells: 6 cells = 1248 bytes. So the ingress means sum to the egress queue's
    // mean x 1248 / 1062, and in XOFF/XON mode every XOFF is one pause.
    Scenario s = PausingIncast(300000, 40000);
    json res = Simulate(s);
    const json& sum = res["summary"];
    uint8_t prio = s.flows[0].priority;
    const double frame = 1000.0 + kDataOverheadBytes - kPreambleIfgBytes;
    ASSERT_EQ(frame, 1062.0);
    ASSERT_EQ(std::ceil(frame / 208.0) * 208.0, 1248.0);
    double ratio = 1248.0 / frame;
    double egressMean = -1;
    uint64_t egressMaxRun = 0;
    for (const json& q : sum["queues"])
    {
        if (q["queue"] == "sw->h2" && q["priority"] == prio)
        {
            egressMean = q["mean_bytes"].get<double>();
            egressMaxRun = U(q, "max_bytes_whole_run");
        }
    }
    ASSERT_GT(egressMean, 0);
    double ingressMean = 0;
    uint64_t ingressMaxRun = 0;
    std::set<std::string> seen;
    for (const json& e : sum["ingress"])
    {
        ASSERT_EQ(e["priority"], prio) << e.dump();
        seen.insert(e["ingress"].get<std::string>());
        ingressMean += e["mean_bytes"].get<double>();
        ingressMaxRun = std::max(ingressMaxRun, U(e, "max_bytes_whole_run"));
        EXPECT_LE(U(e, "max_bytes"), U(e, "max_bytes_whole_run"));
        EXPECT_LE(U(e, "xoff_count"), U(e, "xoff_count_whole_run"));
        EXPECT_EQ(U(e, "max_bytes_whole_run") % 1248, 0u); // whole frames of 6 cells
        // This switch paused the sender behind that ingress once per XOFF.
        std::string link = e["ingress"];
        std::string port = "sw->" + link.substr(0, link.find("->"));
        uint64_t pausesSent = 0;
        uint64_t pausesSentWarm = 0;
        for (const json& p : sum["pfc"])
        {
            if (p["port"] == port && p["priority"] == prio)
            {
                pausesSent = U(p, "pauses_sent");
                pausesSentWarm = U(p, "pauses_sent_after_warmup");
            }
        }
        EXPECT_EQ(U(e, "xoff_count_whole_run"), pausesSent) << port;
        EXPECT_EQ(U(e, "xoff_count"), pausesSentWarm) << port;
        EXPECT_GT(pausesSent, 0u) << port;
    }
    EXPECT_EQ(seen, (std::set<std::string>{"h0->sw", "h1->sw"}));
    EXPECT_NEAR(ingressMean, egressMean * ratio, 0.1 + 0.05 * ratio + 1e-9 * ingressMean);
    // One ingress holds at most the whole queue, at least half of it (two equal senders).
    EXPECT_LE(ingressMaxRun, static_cast<uint64_t>(egressMaxRun * ratio + 0.5));
    EXPECT_GE(ingressMaxRun, static_cast<uint64_t>(egressMaxRun * ratio / 2));
}

TEST(ModelCounters, FlowPathsFollowTheEcmpChoiceTheLinksCarried)
{
    // Two leaves, two spines, two hosts per leaf. Cross-leaf flows cross one spine, chosen by
    // the per-flow ECMP hash; run alone, a flow's bytes appear on exactly one leaf0->spine link,
    // which must be the spine of its recorded path.
    auto build = [](Scenario& s) {
        for (const char* h : {"h0", "h1", "h2", "h3"})
        {
            AddNode(s, h, true);
        }
        uint32_t leaf0 = AddNode(s, "leaf0", false);
        uint32_t leaf1 = AddNode(s, "leaf1", false);
        uint32_t spine0 = AddNode(s, "spine0", false);
        uint32_t spine1 = AddNode(s, "spine1", false);
        s.topo.nodes[spine0].tier = 2;
        s.topo.nodes[spine1].tier = 2;
        AddLink(s, 0, leaf0, 100, 1);
        AddLink(s, 1, leaf0, 100, 1);
        AddLink(s, 2, leaf1, 100, 1);
        AddLink(s, 3, leaf1, 100, 1);
        for (uint32_t leaf : {leaf0, leaf1})
        {
            for (uint32_t spine : {spine0, spine1})
            {
                AddLink(s, leaf, spine, 100, 1);
            }
        }
        SetCc(s, "none", false);
        s.durationNs = 50000;
        s.flowPaths = true;
    };
    std::set<std::string> spinesUsed;
    for (uint16_t i = 0; i < 8; ++i)
    {
        Scenario s;
        build(s);
        FlowSpec& f = AddFlow(s, 0, 2, 10000);
        f.udpSrcPort = static_cast<uint16_t>(49152 + 7 * i);
        json res = Simulate(s);
        const json& path = res["flows"][0]["path"];
        ASSERT_TRUE(path.is_array()) << res["flows"][0].dump();
        ASSERT_EQ(path.size(), 5u) << path.dump();
        EXPECT_EQ(path[0], "h0");
        EXPECT_EQ(path[1], "leaf0");
        EXPECT_EQ(path[3], "leaf1");
        EXPECT_EQ(path[4], "h2");
        std::string carried;
        for (const json& l : res["summary"]["link_utilization"])
        {
            std::string link = l["link"];
            if (link.rfind("leaf0->spine", 0) == 0 && l["utilization"].get<double>() > 0)
            {
                EXPECT_TRUE(carried.empty()) << "a flow's packets crossed two spines";
                carried = link.substr(std::string("leaf0->").size());
            }
        }
        EXPECT_EQ(path[2], carried);
        spinesUsed.insert(carried);
    }
    EXPECT_EQ(spinesUsed.size(), 2u); // the hash spreads eight flows over both spines

    Scenario s;
    build(s);
    AddFlow(s, 0, 1, 10000);
    AddFlow(s, 0, 1, 100000, 45000); // still in flight: its first packet left the last switch
    AddFlow(s, 0, 1, 100000, 49999); // its first packet has not reached the switch yet
    json flows = Simulate(s)["flows"];
    EXPECT_EQ(flows[0]["path"], json::array({"h0", "leaf0", "h1"}));
    EXPECT_EQ(flows[1]["path"], json::array({"h0", "leaf0", "h1"}));
    EXPECT_TRUE(flows[2]["path"].is_null());
}
