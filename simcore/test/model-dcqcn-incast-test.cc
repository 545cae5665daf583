/*
 * Fabric-level DCQCN check: the 2-to-1 incast at 25G of docs/examples/valid/leaf-spine-incast.json
 * (paper ECN marking on the switch: Kmin 5 KB, Kmax 200 KB, Pmax 1 %), run for 5 ms with the
 * nvidia-default preset. Goodput is compared with the same fabric without congestion control,
 * which PFC keeps lossless and the bottleneck busy (the bottleneck's goodput, headers excluded).
 * Measured figures and the reasons behind them: docs/validation.md (DCQCN rows).
 */
#include "helper/fabric-runner.h"
#include "scenario/scenario-parser.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <string>

using namespace fabric;

namespace
{

struct Outcome
{
    double goodputGbps = 0;
    uint64_t drops = 0;
    uint64_t pfcPauses = 0;
    uint64_t cnps = 0;
    uint64_t events = 0;
    uint64_t packetsTx = 0;
};

Outcome
RunIncast(const std::string& preset,
          const std::string& algorithm,
          double cnpIntervalUs,
          double rtoUs = -1,
          const std::string& markPoint = "")
{
    std::string path = std::string(FABRICSIM_EXAMPLES_DIR) + "/valid/leaf-spine-incast.json";
    nlohmann::json j = nlohmann::json::parse(ReadScenarioFile(path));
    j["duration_us"] = 5000;
    j["nic"]["cc"] = {{"preset", preset}, {"algorithm", algorithm}};
    if (cnpIntervalUs >= 0)
    {
        j["nic"]["cnp_interval_us"] = cnpIntervalUs;
    }
    if (rtoUs > 0)
    {
        j["nic"]["rto_us"] = rtoUs;
    }
    if (!markPoint.empty())
    {
        j["switch"]["ecn_mark_point"] = markPoint;
    }
    Scenario s = LoadScenario(j.dump());
    FabricRunner r(s);
    r.Run(RunLimits(), nullptr);
    auto res = r.Results();
    const auto& sum = res["summary"];
    Outcome o;
    o.goodputGbps = sum["throughput_gbps"].get<double>();
    o.drops = sum["drops"]["total"].get<uint64_t>();
    o.pfcPauses = sum["pfc_pauses_sent"].get<uint64_t>();
    o.cnps = sum["cnps_sent"].get<uint64_t>();
    o.events = r.Events();
    o.packetsTx = r.PacketsTx();
    return o;
}

} // namespace

// The preset's CNP spacing stretched to the paper's 50 us (what nvidia-default ran with before it
// carried the firmware's 4 us): >= 90 % of the bottleneck goodput, nothing dropped. Measured:
// 23.09 of 23.09 Gbit/s. The senders' byte counter recovers faster than one CNP per 50 us cuts,
// so the queue reaches the PFC threshold and PFC pauses the senders now and then; DCQCN does cut
// (CNPs > 0), but barely: the picture of no congestion control.
TEST(ModelDcqcnIncast, NvidiaDefaultAtPaperCnpSpacingNearLineRate)
{
    Outcome ref = RunIncast("nvidia-default", "none", -1);
    Outcome nv = RunIncast("nvidia-default", "dcqcn", 50);
    ASSERT_GT(ref.goodputGbps, 20.0);
    EXPECT_GE(nv.goodputGbps, 0.9 * ref.goodputGbps)
        << nv.goodputGbps << " of " << ref.goodputGbps << " Gbit/s";
    EXPECT_EQ(nv.drops, 0u);
    EXPECT_GT(nv.cnps, 0u);
}

// With the firmware's NP spacing (cnp_interval_us 4) the model does NOT reach 90 %: measured
// 15.98 Gbit/s (69 %; 1.74 before the clamp semantics). Marking at enqueue with Kmax 200 KB
// lets the queue overshoot to ~500 KB before the first all-marked packets come back; the CNP
// every 4 us for the whole drain cuts the rate to the 1 Mbit/s floor, and only the 300 us
// increase timer restores it (docs/validation.md). This floor guards the improvement only.
// The default RTO (1 ms) is shorter than the 8.4 ms a QP paced at 1 Mbit/s waits per frame, so
// the RTO check finds nothing outstanding past its deadline: it must look again one RTO later
// (it used to re-arm 1 ps ahead and spin, billions of events). Events stay a few per packet.
TEST(ModelDcqcnIncast, NvidiaDefaultCnpEvery4usKnownGap)
{
    Outcome ref = RunIncast("nvidia-default", "none", -1);
    Outcome nv = RunIncast("nvidia-default", "dcqcn", 4);
    EXPECT_GE(nv.goodputGbps, 0.55 * ref.goodputGbps)
        << nv.goodputGbps << " of " << ref.goodputGbps << " Gbit/s";
    EXPECT_EQ(nv.drops, 0u);
    EXPECT_LT(nv.events, 4 * nv.packetsTx) << nv.events << " events for " << nv.packetsTx;
}

// The preset carries its notification point: cnp_interval_us left unset runs the firmware's
// min_time_between_cnps, 4 us, the same run to the byte as 4 us named.
TEST(ModelDcqcnIncast, NvidiaDefaultCnpSpacingComesFromThePreset)
{
    Outcome unset = RunIncast("nvidia-default", "dcqcn", -1);
    Outcome four = RunIncast("nvidia-default", "dcqcn", 4);
    Outcome fifty = RunIncast("nvidia-default", "dcqcn", 50);
    EXPECT_EQ(unset.goodputGbps, four.goodputGbps);
    EXPECT_EQ(unset.cnps, four.cnps);
    EXPECT_EQ(unset.events, four.events);
    EXPECT_GT(unset.cnps, 2 * fifty.cnps) << unset.cnps << " against " << fifty.cnps;
}

// The same run with switch.ecn_mark_point "dequeue": the marker sees the queue a frame leaves
// behind, so the feedback carries no queueing delay and the queue no longer overshoots Kmax
// before the senders hear of it. Measured: 22.32 of 23.09 Gbit/s (97 %; 69 % at enqueue),
// 0 PFC pauses, 1050 CNPs.
TEST(ModelDcqcnIncast, NvidiaDefaultCnpEvery4usDequeueMarking)
{
    Outcome ref = RunIncast("nvidia-default", "none", -1);
    Outcome nv = RunIncast("nvidia-default", "dcqcn", 4, -1, "dequeue");
    EXPECT_GE(nv.goodputGbps, 0.9 * ref.goodputGbps)
        << nv.goodputGbps << " of " << ref.goodputGbps << " Gbit/s";
    EXPECT_EQ(nv.drops, 0u);
    EXPECT_GT(nv.cnps, 0u);
}
