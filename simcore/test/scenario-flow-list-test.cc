/*
 * The `flows` generator (an explicit list) and the scenario fields behind the hpcc-dcqcn
 * parameter set: ecn_by_rate, pfc.alpha_by_rate, framing, ecn_feedback, the preset, the
 * dcqcn_sampled algorithm.
 */
#include "scenario/device-config.h"
#include "scenario/scenario-error.h"
#include "scenario/scenario-parser.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <string>

namespace
{

using nlohmann::json;

json
Doc(const json& flows, double durationUs = 100)
{
    return {{"schema_version", 1},
            {"duration_us", durationUs},
            {"topology", {{"kind", "leaf_spine"}, {"leaves", 2}, {"spines", 1}, {"hosts_per_leaf", 2}}},
            {"traffic", json::array({{{"kind", "flows"}, {"flows", flows}}})}};
}

std::string
ErrorOf(const json& d)
{
    try
    {
        fabric::LoadScenario(d.dump());
    }
    catch (const fabric::ScenarioError& e)
    {
        return e.what();
    }
    return "";
}

} // namespace

TEST(FlowList, FlowsAsListedSortedByStart)
{
    json flows = json::array({
        {{"src", "h3"}, {"dst", "h0"}, {"size_bytes", 4727}, {"start_us", 12.5}, {"priority", 5}},
        {{"src", "h0"}, {"dst", "h2"}, {"size_bytes", 24375}, {"start_us", 0.962}},
        {{"src", "h1"}, {"dst", "h2"}, {"size_bytes", 0}, {"start_us", 0.962}, {"udp_src_port", 10000}},
    });
    fabric::Scenario s = fabric::LoadScenario(Doc(flows).dump());
    ASSERT_EQ(s.flows.size(), 3u);
    EXPECT_EQ(s.topo.nodes[s.flows[0].src].id, "h0");
    EXPECT_EQ(s.flows[0].sizeBytes, 24375u);
    EXPECT_EQ(s.flows[0].startNs, 962u);
    EXPECT_EQ(s.flows[0].priority, 3); // switch.data_priority
    EXPECT_EQ(s.flows[1].sizeBytes, 0u); // long-lived
    EXPECT_EQ(s.flows[1].udpSrcPort, 10000);
    EXPECT_EQ(s.flows[2].startNs, 12500u);
    EXPECT_EQ(s.flows[2].priority, 5);
    EXPECT_NE(s.flows[0].udpSrcPort, s.flows[2].udpSrcPort);
    for (std::size_t i = 0; i < s.flows.size(); ++i)
    {
        EXPECT_EQ(s.flows[i].id, i);
    }
    // The generator's start_us shifts every flow.
    json d = Doc(flows);
    d["traffic"][0]["start_us"] = 10;
    EXPECT_EQ(fabric::LoadScenario(d.dump()).flows[0].startNs, 10962u);
}

TEST(FlowList, ErrorsNameTheFlow)
{
    json ok = {{"src", "h0"}, {"dst", "h2"}, {"size_bytes", 1000}, {"start_us", 0}};
    auto with = [&](const json& bad) { return Doc(json::array({ok, bad})); };
    json late = ok;
    late["start_us"] = 100;
    EXPECT_EQ(ErrorOf(with(late)),
              "traffic[0].flows[1].start_us: plus the generator's start_us must be >= 0 and < "
              "duration_us (100)");
    json unknown = ok;
    unknown["dst"] = "h9";
    EXPECT_EQ(ErrorOf(with(unknown)), "traffic[0].flows[1].dst: unknown host \"h9\"");
    json sw = ok;
    sw["src"] = "leaf0";
    EXPECT_EQ(ErrorOf(with(sw)), "traffic[0].flows[1].src: \"leaf0\" is a switch, not a host");
    json self = ok;
    self["dst"] = "h0";
    EXPECT_EQ(ErrorOf(with(self)), "traffic[0].flows[1].dst: must differ from src");
    json noSize = ok;
    noSize.erase("size_bytes");
    EXPECT_EQ(ErrorOf(with(noSize)), "traffic[0].flows[1].size_bytes: field required");
    json extra = ok;
    extra["qps"] = 2;
    EXPECT_EQ(ErrorOf(with(extra)).rfind("traffic[0].flows[1].qps:", 0), 0u);
    json badPrio = ok;
    badPrio["priority"] = 7;
    EXPECT_EQ(ErrorOf(with(badPrio)).rfind("traffic[0].flows[1].priority: must be", 0), 0u);
    EXPECT_EQ(ErrorOf(Doc(json::array())).rfind("traffic[0].flows:", 0), 0u);
    json d = Doc(json::array({ok}));
    d["traffic"][0]["qps"] = 2; // not a field of this generator
    EXPECT_EQ(ErrorOf(d).rfind("traffic[0].qps:", 0), 0u);
}

TEST(FlowList, TheLimitIsCheckedBeforeReadingTheFlows)
{
    json ok = {{"src", "h0"}, {"dst", "h2"}, {"size_bytes", 1000}, {"start_us", 0}};
    json many = json::array();
    for (int i = 0; i < 200001; ++i)
    {
        many.push_back(ok);
    }
    EXPECT_EQ(ErrorOf(Doc(many)).rfind("traffic[0].flows: must have at most 200000", 0), 0u)
        << ErrorOf(Doc(many));
}

TEST(HpccSettings, PresetAlgorithmFramingAndFeedback)
{
    json d = Doc(json::array({{{"src", "h0"}, {"dst", "h2"}, {"size_bytes", 1000}, {"start_us", 0}}}));
    d["nic"] = {{"header_bytes", 48},
                {"preamble_ifg_bytes", 0},
                {"ecn_feedback", "ack_flag"},
                {"cc", {{"algorithm", "dcqcn_sampled"}, {"preset", "hpcc-dcqcn"}}}};
    fabric::Scenario s = fabric::LoadScenario(d.dump());
    const fabric::NicConfig& nic = s.nicCfg[s.topo.index.at("h0")];
    EXPECT_EQ(nic.headerBytes, 48u);
    EXPECT_EQ(nic.preambleIfgBytes, 0u);
    EXPECT_TRUE(nic.ackFlagFeedback);
    EXPECT_EQ(nic.cc.algorithm, "dcqcn_sampled");
    fabric::CcConfig h = fabric::DcqcnPreset("hpcc-dcqcn");
    EXPECT_DOUBLE_EQ(nic.cc.alphaUpdateUs, 1);
    EXPECT_DOUBLE_EQ(h.g, 1.0 / 256);
    EXPECT_DOUBLE_EQ(h.rateDecreaseIntervalUs, 4);
    EXPECT_DOUBLE_EQ(h.rateIncreaseTimerUs, 300);
    EXPECT_EQ(h.byteCounterBytes, 0u);
    EXPECT_EQ(h.fastRecoverySteps, 1u);
    EXPECT_DOUBLE_EQ(h.raiMbps, 20);
    EXPECT_DOUBLE_EQ(h.rhaiMbps, 200);
    EXPECT_DOUBLE_EQ(h.minRateMbps, 1000);
    EXPECT_FALSE(h.clampTargetRate);
    EXPECT_TRUE(h.clampTargetAfterTimerIncrease);
    fabric::Scenario plain = fabric::LoadScenario(Doc(d["traffic"][0]["flows"]).dump());
    const fabric::NicConfig& def = plain.nicCfg[plain.topo.index.at("h0")];
    EXPECT_EQ(def.headerBytes + def.preambleIfgBytes, 82u); // the 82 B of kDataOverheadBytes
    EXPECT_FALSE(def.ackFlagFeedback);
    d["nic"]["ecn_feedback"] = "flag";
    EXPECT_EQ(ErrorOf(d), "nic.ecn_feedback: must be one of \"cnp\", \"ack_flag\"");
    d["nic"]["ecn_feedback"] = "cnp";
    d["nic"]["header_bytes"] = 10;
    EXPECT_EQ(ErrorOf(d), "nic.header_bytes: must be >= 20 and <= 256 bytes");
}

TEST(HpccSettings, EcnAndAlphaByLinkRate)
{
    json d = Doc(json::array({{{"src", "h0"}, {"dst", "h2"}, {"size_bytes", 1000}, {"start_us", 0}}}));
    d["switch"] = {{"ecn", {{"kmin_bytes", 400000}, {"kmax_bytes", 1600000}}},
                   {"ecn_by_rate", {{"400", {{"kmin_bytes", 1600000}, {"kmax_bytes", 6400000}}}}},
                   {"ecn_by_priority", {{"5", {{"pmax", 0.5}}}}},
                   {"pfc", {{"alpha", 0.125}, {"alpha_by_rate", {{"400", 0.5}}}}}};
    fabric::Scenario s = fabric::LoadScenario(d.dump());
    const fabric::SwitchConfig& sw = s.switchCfg[s.topo.index.at("leaf0")];
    ASSERT_EQ(sw.ecnByRate.size(), 1u);
    EXPECT_DOUBLE_EQ(sw.ecnByRate[0].first, 400);
    EXPECT_EQ(sw.ecnByRate[0].second[3].kminBytes, 1600000u);
    EXPECT_EQ(sw.ecnByRate[0].second[3].kmaxBytes, 6400000u);
    EXPECT_DOUBLE_EQ(sw.ecnByRate[0].second[3].pmax, 0.2);
    EXPECT_DOUBLE_EQ(sw.ecnByRate[0].second[5].pmax, 0.5); // by priority on top of by rate
    EXPECT_EQ(sw.ecnByRate[0].second[5].kminBytes, 1600000u);
    EXPECT_EQ(sw.ecn[3].kminBytes, 400000u);
    ASSERT_EQ(sw.pfc.alphaByRate.size(), 1u);
    EXPECT_DOUBLE_EQ(sw.pfc.alphaByRate[0].first, 400);
    EXPECT_DOUBLE_EQ(sw.pfc.alphaByRate[0].second, 0.5);
    json bad = d;
    bad["switch"]["ecn_by_rate"] = {{"fast", {{"kmin_bytes", 1}}}};
    EXPECT_EQ(ErrorOf(bad).rfind("switch.ecn_by_rate.fast: must be a link rate > 0", 0), 0u);
    bad["switch"]["ecn_by_rate"] = {{"400", {{"kmin_bytes", 7000000}}}};
    EXPECT_EQ(ErrorOf(bad), "switch.ecn_by_rate.400.kmin_bytes: must be <= "
                            "switch.ecn_by_rate.400.kmax_bytes (1600000)");
    bad = d;
    bad["switch"]["pfc"]["alpha_by_rate"] = {{"0", 0.5}};
    EXPECT_EQ(ErrorOf(bad).rfind("switch.pfc.alpha_by_rate.0: must be a link rate > 0", 0), 0u);
    bad["switch"]["pfc"]["alpha_by_rate"] = {{"100", 0}};
    EXPECT_EQ(ErrorOf(bad), "switch.pfc.alpha_by_rate.100: must be > 0 and <= 64");
}
