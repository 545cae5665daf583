/*
 * Validation messages, defaults, override merging, DCQCN presets, per-priority ECN, ECMP seed
 * mixing, and robustness against malformed input.
 */
#include "scenario/device-config.h"
#include "scenario/scenario-parser.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <random>
#include <set>

namespace
{

using nlohmann::json;

json
Minimal()
{
    return {{"schema_version", 1},
            {"duration_us", 1000},
            {"topology",
             {{"kind", "leaf_spine"}, {"leaves", 2}, {"spines", 2}, {"hosts_per_leaf", 2}}}};
}

/** The one-line error of a document, or "" when it is accepted. */
std::string
ErrorOf(const std::string& bytes)
{
    try
    {
        fabric::LoadScenario(bytes);
        return "";
    }
    catch (const fabric::ScenarioError& e)
    {
        return e.what();
    }
}

std::string
ErrorOfDoc(const json& doc)
{
    return ErrorOf(doc.dump());
}

TEST(Validation, MessagesNamePathAndAllowedValues)
{
    json d = Minimal();
    d["seed"] = "x";
    EXPECT_EQ(ErrorOfDoc(d), "seed: must be an integer");
    d = Minimal();
    d["seed"] = 1.5;
    EXPECT_EQ(ErrorOfDoc(d), "seed: must be an integer");
    d = Minimal();
    d["seed"] = -1;
    EXPECT_EQ(ErrorOfDoc(d), "seed: must be an integer >= 0 and <= 2147483647");

    d = Minimal();
    d["topology"] = {
        {"kind", "explicit"},
        {"nodes", {{{"id", "s"}, {"kind", "switch"}}, {{"id", "h"}, {"kind", "host"}}}},
        {"links", {{{"a", "h"}, {"b", "s"}, {"rate_gbps", 2000}, {"delay_us", 1}}}}};
    EXPECT_EQ(ErrorOfDoc(d), "topology.links[0].rate_gbps: must be >= 0.01 and <= 1600 Gbit/s");
    d["topology"]["links"][0]["rate_gbps"] = 100;
    d["topology"]["links"][0]["length_km"] = 1;
    EXPECT_EQ(ErrorOfDoc(d),
              "topology.links[0].delay_us: give exactly one of delay_us and length_km");
    d["topology"]["links"][0].erase("delay_us");
    d["topology"]["nodes"][1]["id"] = "bad id";
    EXPECT_EQ(ErrorOfDoc(d),
              "topology.nodes[1].id: must match ^[A-Za-z0-9_.:-]{1,64}$ (got \"bad id\")");

    d = Minimal();
    d["switch"] = {{"ecn", {{"kmin_bytes", 300000}, {"kmax_bytes", 200000}}}};
    EXPECT_EQ(ErrorOfDoc(d), "switch.ecn.kmin_bytes: must be <= switch.ecn.kmax_bytes (200000)");

    d = Minimal();
    d["traffic"] = {{{"kind", "incast"}, {"senders", {"h1"}}, {"receiver", "h9"}}};
    EXPECT_EQ(ErrorOfDoc(d), "traffic[0].receiver: unknown host \"h9\"");
    d["traffic"][0]["receiver"] = "leaf0";
    EXPECT_EQ(ErrorOfDoc(d), "traffic[0].receiver: \"leaf0\" is a switch, not a host");
    d["traffic"][0]["kind"] = "broadcast";
    EXPECT_EQ(ErrorOfDoc(d).rfind("traffic[0].kind: must be one of \"incast\"", 0), 0u);

    d = Minimal();
    d["nic"] = {{"transport", "erd"}, {"erd", {{"paths", 17}}}};
    EXPECT_EQ(ErrorOfDoc(d), "nic.erd.paths: must be an integer >= 1 and <= 16");
    d["nic"]["erd"] = {{"nack_interval_us", "often"}};
    EXPECT_EQ(ErrorOfDoc(d), "nic.erd.nack_interval_us: must be a number 0.1 .. 1000000 us or "
                             "\"auto\"");
    d["nic"]["erd"] = {{"nack_interval_us", 0.05}};
    EXPECT_EQ(ErrorOfDoc(d), "nic.erd.nack_interval_us: must be >= 0.1 and <= 1000000 us");
    d["nic"]["erd"] = {{"window", 3}};
    EXPECT_EQ(ErrorOfDoc(d).rfind("nic.erd.window: unknown field", 0), 0u) << ErrorOfDoc(d);
    d["nic"] = {{"transport", "rd"}};
    EXPECT_EQ(ErrorOfDoc(d),
              "nic.transport: must be one of \"rc\", \"xrc\", \"sprayed\", \"erd\"");
    d = Minimal();
    d["nic"] = {{"cc", {{"preset", "fast"}}}};
    EXPECT_EQ(ErrorOfDoc(d), "nic.cc.preset: must be one of \"dcqcn-paper\", \"nvidia-default\", "
                             "\"hpcc-dcqcn\"");
    d = Minimal();
    d["switch"] = {{"pfc", {{"headroom_bytes", "big"}}}};
    EXPECT_EQ(
        ErrorOfDoc(d),
        "switch.pfc.headroom_bytes: must be \"auto\" or an integer >= 0 and <= 64000000 bytes");

    d = Minimal();
    d["topology"]["kind"] = "ring";
    EXPECT_EQ(ErrorOfDoc(d).rfind("topology.kind: must be one of \"leaf_spine\"", 0), 0u);
    d = Minimal();
    d.erase("topology");
    EXPECT_EQ(ErrorOfDoc(d), "topology: field required");
    d = Minimal();
    d["monitor"] = {{"sample_interval_us", 0.001}};
    EXPECT_EQ(ErrorOfDoc(d), "monitor.sample_interval_us: must be >= 0.1 and <= 10000000 us");
    d = Minimal();
    d["duration_us"] = 1000000;
    d["monitor"] = {{"sample_interval_us", 5}};
    EXPECT_EQ(ErrorOfDoc(d).rfind("monitor.sample_interval_us: must be >= 10 us", 0), 0u);
    d = Minimal();
    d["monitor"] = {{"flows", "all"}, {"queues", {"leaf0->h0", "h0->spine0"}}};
    EXPECT_EQ(ErrorOfDoc(d), "monitor.queues[1]: no link between \"h0\" and \"spine0\"");
}

TEST(Validation, UnknownFieldsAtEveryLevel)
{
    json d = Minimal();
    d["topology"]["hosts_per_spine"] = 2;
    EXPECT_EQ(ErrorOfDoc(d).rfind("topology.hosts_per_spine: unknown field", 0), 0u);
    d = Minimal();
    d["switch"] = {{"pfc", {{"alpah", 1}}}};
    EXPECT_EQ(ErrorOfDoc(d).rfind("switch.pfc.alpah: unknown field", 0), 0u);
    d = Minimal();
    d["switch_overrides"] = {{"leaf1", {{"ecn", {{"kmn_bytes", 1}}}}}};
    EXPECT_EQ(ErrorOfDoc(d).rfind("switch_overrides.leaf1.ecn.kmn_bytes: unknown field", 0), 0u);
    d = Minimal();
    d["traffic"] = {{{"kind", "perftest"}, {"src", "h0"}, {"dst", "h1"}, {"size_bytes", 5}}};
    EXPECT_EQ(ErrorOfDoc(d).rfind("traffic[0].size_bytes: unknown field", 0), 0u);
}

TEST(Defaults, MatchTheSpec)
{
    fabric::Scenario s =
        fabric::LoadScenario(R"({"schema_version": 1, "topology": {"kind": "leaf_spine"}})");
    EXPECT_EQ(s.seed, 1u);
    EXPECT_EQ(s.durationNs, 10000000u);
    EXPECT_EQ(s.warmupNs, 0u);
    EXPECT_EQ(s.topo.nodes.size(), 4u + 2 + 2);
    const fabric::SwitchConfig& sw = s.switchCfg[s.topo.index.at("leaf0")];
    EXPECT_EQ(sw.bufferBytes, 12000000u);
    EXPECT_EQ(sw.cellBytes, 208u);
    EXPECT_TRUE(sw.pfc.enabled);
    EXPECT_DOUBLE_EQ(sw.pfc.alpha, 1.0 / 16);
    EXPECT_TRUE(sw.pfc.headroomAuto);
    EXPECT_EQ(sw.pfc.xonOffsetBytes, 4160u);
    EXPECT_EQ(sw.pfc.pauseMode, fabric::PauseMode::XOFF_XON);
    for (const auto& e : sw.ecn)
    {
        EXPECT_EQ(e.kminBytes, 100000u);
        EXPECT_EQ(e.kmaxBytes, 400000u);
        EXPECT_DOUBLE_EQ(e.pmax, 0.2);
    }
    EXPECT_EQ(sw.dataPriority, 3);
    const fabric::NicConfig& nic = s.nicCfg[s.topo.index.at("h0")];
    EXPECT_EQ(nic.mtuBytes, 1000u);
    EXPECT_EQ(nic.qpDepth, 16u);
    EXPECT_EQ(nic.messageBytes, 65536u);
    EXPECT_EQ(nic.cc.algorithm, "dcqcn");
    // the default preset, nvidia-default: dce_tcp_g 1019 and min_time_between_cnps 4 us
    EXPECT_DOUBLE_EQ(nic.cc.g, 5.0 / 1024);
    EXPECT_DOUBLE_EQ(nic.cnpIntervalUs, 4);
    EXPECT_DOUBLE_EQ(nic.rtoUs, 1000);
    EXPECT_EQ(s.monitor.sampleIntervalUs, 10);
    EXPECT_TRUE(s.flows.empty());
}

TEST(Presets, ExpandToTheDocumentedValues)
{
    fabric::CcConfig paper = fabric::DcqcnPreset("dcqcn-paper");
    EXPECT_DOUBLE_EQ(paper.g, 1.0 / 256);
    EXPECT_DOUBLE_EQ(paper.alphaUpdateUs, 55);
    EXPECT_DOUBLE_EQ(paper.rateDecreaseIntervalUs, 50);
    EXPECT_DOUBLE_EQ(paper.rateIncreaseTimerUs, 55);
    EXPECT_EQ(paper.byteCounterBytes, 10000000u);
    EXPECT_EQ(paper.fastRecoverySteps, 5u);
    EXPECT_DOUBLE_EQ(paper.raiMbps, 40);
    EXPECT_DOUBLE_EQ(paper.rhaiMbps, 200);
    EXPECT_DOUBLE_EQ(paper.minRateMbps, 100);
    EXPECT_TRUE(paper.clampTargetRate);
    EXPECT_FALSE(paper.clampTargetAfterTimerIncrease);
    EXPECT_DOUBLE_EQ(paper.maxDecrease, 1.0);
    fabric::CcConfig nv = fabric::DcqcnPreset("nvidia-default");
    EXPECT_DOUBLE_EQ(nv.g, 0.0048828125);
    EXPECT_DOUBLE_EQ(nv.alphaUpdateUs, 1);
    EXPECT_DOUBLE_EQ(nv.rateDecreaseIntervalUs, 4);
    EXPECT_DOUBLE_EQ(nv.rateIncreaseTimerUs, 300);
    EXPECT_EQ(nv.byteCounterBytes, 32767u);
    EXPECT_EQ(nv.fastRecoverySteps, 1u);
    EXPECT_DOUBLE_EQ(nv.raiMbps, 5);
    EXPECT_DOUBLE_EQ(nv.rhaiMbps, 50);
    EXPECT_DOUBLE_EQ(nv.minRateMbps, 1);
    EXPECT_FALSE(nv.clampTargetRate);
    EXPECT_TRUE(nv.clampTargetAfterTimerIncrease);
    EXPECT_DOUBLE_EQ(nv.maxDecrease, 0.5);
    // the notification point: min_time_between_cnps 4 us (the paper's NP: 50 us)
    EXPECT_DOUBLE_EQ(nv.presetCnpIntervalUs, 4);
    EXPECT_DOUBLE_EQ(paper.presetCnpIntervalUs, 50);

    // A preset chosen in the scenario, one field set explicitly over it.
    json d = Minimal();
    d["nic"] = {{"cc", {{"preset", "nvidia-default"}, {"rai_mbps", 20}}}};
    fabric::Scenario s = fabric::LoadScenario(d.dump());
    const fabric::CcConfig& cc = s.nicCfg[s.topo.index.at("h1")].cc;
    EXPECT_DOUBLE_EQ(cc.rateIncreaseTimerUs, 300);
    EXPECT_DOUBLE_EQ(cc.raiMbps, 20);
    EXPECT_DOUBLE_EQ(s.nicCfg[s.topo.index.at("h1")].cnpIntervalUs, 4);
    // an explicit spacing wins over the preset's; another preset brings its own
    d["nic"]["cnp_interval_us"] = 20;
    EXPECT_DOUBLE_EQ(fabric::LoadScenario(d.dump()).nicCfg[1].cnpIntervalUs, 20);
    d["nic"] = {{"cc", {{"preset", "dcqcn-paper"}}}};
    EXPECT_DOUBLE_EQ(fabric::LoadScenario(d.dump()).nicCfg[1].cnpIntervalUs, 50);
}

TEST(Presets, ClampAndMaxDecreaseOverrideThePreset)
{
    json d = Minimal();
    d["nic"] = {{"cc",
                 {{"preset", "nvidia-default"},
                  {"clamp_target_rate", true},
                  {"clamp_target_after_timer_increase", false},
                  {"max_decrease", 0.25}}}};
    fabric::Scenario s = fabric::LoadScenario(d.dump());
    const fabric::CcConfig& cc = s.nicCfg[s.topo.index.at("h1")].cc;
    EXPECT_TRUE(cc.clampTargetRate);
    EXPECT_FALSE(cc.clampTargetAfterTimerIncrease);
    EXPECT_DOUBLE_EQ(cc.maxDecrease, 0.25);
    EXPECT_EQ(cc.byteCounterBytes, 32767u);

    d["nic"]["cc"] = {{"max_decrease", 1.5}};
    EXPECT_EQ(ErrorOfDoc(d), "nic.cc.max_decrease: must be >= 0 and <= 1");
    d["nic"]["cc"] = {{"max_decrease", -0.1}};
    EXPECT_EQ(ErrorOfDoc(d), "nic.cc.max_decrease: must be >= 0 and <= 1");
    d["nic"]["cc"] = {{"clamp_target_rate", 1}};
    EXPECT_NE(ErrorOfDoc(d).find("nic.cc.clamp_target_rate: must be"), std::string::npos)
        << ErrorOfDoc(d);
}

TEST(Overrides, DeepMergeOnlyTheGivenFields)
{
    json d = Minimal();
    d["switch"] = {{"buffer_bytes", 9000000},
                   {"ecn", {{"kmin_bytes", 100000}, {"kmax_bytes", 400000}, {"pmax", 0.2}}},
                   {"ecn_by_priority", {{"5", {{"kmax_bytes", 800000}}}}}};
    d["switch_overrides"] = {
        {"leaf1", {{"ecn", {{"kmin_bytes", 1000}}}, {"pfc", {{"enabled", false}}}}}};
    d["nic"] = {{"qp_depth", 8}, {"cc", {{"preset", "nvidia-default"}}}};
    d["nic_overrides"] = {{"h3", {{"cc", {{"rai_mbps", 10}}}}}};
    fabric::Scenario s = fabric::LoadScenario(d.dump());
    const auto& leaf0 = s.switchCfg[s.topo.index.at("leaf0")];
    const auto& leaf1 = s.switchCfg[s.topo.index.at("leaf1")];
    EXPECT_EQ(leaf0.ecn[3].kminBytes, 100000u);
    EXPECT_EQ(leaf1.ecn[3].kminBytes, 1000u);   // overridden
    EXPECT_EQ(leaf1.ecn[3].kmaxBytes, 400000u); // kept from switch.ecn
    EXPECT_DOUBLE_EQ(leaf1.ecn[3].pmax, 0.2);   // kept
    EXPECT_EQ(leaf1.bufferBytes, 9000000u);     // kept from switch
    EXPECT_FALSE(leaf1.pfc.enabled);
    EXPECT_TRUE(leaf0.pfc.enabled);
    // ecn_by_priority is merged over the (overridden) ecn of each switch.
    EXPECT_EQ(leaf0.ecn[5].kminBytes, 100000u);
    EXPECT_EQ(leaf0.ecn[5].kmaxBytes, 800000u);
    EXPECT_EQ(leaf1.ecn[5].kminBytes, 1000u);
    EXPECT_EQ(leaf1.ecn[5].kmaxBytes, 800000u);
    const auto& h3 = s.nicCfg[s.topo.index.at("h3")];
    const auto& h2 = s.nicCfg[s.topo.index.at("h2")];
    EXPECT_DOUBLE_EQ(h3.cc.raiMbps, 10);
    EXPECT_DOUBLE_EQ(h3.cc.rateIncreaseTimerUs, 300); // preset from nic kept
    EXPECT_EQ(h3.qpDepth, 8u);
    EXPECT_DOUBLE_EQ(h2.cc.raiMbps, 5);

    d["switch_overrides"] = {{"leaf1", {{"ecn", {{"kmin_bytes", 500000}}}}}};
    EXPECT_EQ(ErrorOfDoc(d), "switch_overrides.leaf1.ecn.kmin_bytes: must be <= "
                             "switch_overrides.leaf1.ecn.kmax_bytes (400000)");
    d["switch_overrides"] = {{"spine7", {{"buffer_bytes", 100000}}}};
    EXPECT_EQ(ErrorOfDoc(d), "switch_overrides.spine7: unknown switch \"spine7\"");
    d["switch_overrides"] = json::object();
    d["nic_overrides"] = {{"leaf0", {{"qp_depth", 1}}}};
    EXPECT_EQ(ErrorOfDoc(d), "nic_overrides.leaf0: \"leaf0\" is a switch, not a host");
}

TEST(Overrides, EcmpSeedMixedPerSwitchUnlessOverridden)
{
    json d = Minimal();
    d["switch"] = {{"ecmp_seed", 99}};
    d["switch_overrides"] = {{"spine1", {{"ecmp_seed", 1234}}}};
    fabric::Scenario s = fabric::LoadScenario(d.dump());
    std::set<uint32_t> seeds;
    for (const char* id : {"leaf0", "leaf1", "spine0"})
    {
        uint32_t idx = s.topo.index.at(id);
        EXPECT_EQ(s.switchCfg[idx].ecmpSeed, fabric::MixEcmpSeed(99, idx));
        seeds.insert(s.switchCfg[idx].ecmpSeed);
    }
    EXPECT_EQ(seeds.size(), 3u);
    EXPECT_EQ(s.switchCfg[s.topo.index.at("spine1")].ecmpSeed, 1234u);
    EXPECT_NE(fabric::MixEcmpSeed(99, 4), fabric::MixEcmpSeed(100, 4));
}

TEST(Overrides, EcnMarkPointPerSwitch)
{
    json d = Minimal();
    fabric::Scenario s = fabric::LoadScenario(d.dump());
    for (const char* id : {"leaf0", "leaf1", "spine0", "spine1"})
    {
        EXPECT_FALSE(s.switchCfg[s.topo.index.at(id)].ecnMarkOnDequeue) << id; // "enqueue"
    }
    d["switch"] = {{"ecn_mark_point", "dequeue"}};
    d["switch_overrides"] = {{"spine1", {{"ecn_mark_point", "enqueue"}}}};
    s = fabric::LoadScenario(d.dump());
    EXPECT_TRUE(s.switchCfg[s.topo.index.at("leaf0")].ecnMarkOnDequeue);
    EXPECT_TRUE(s.switchCfg[s.topo.index.at("spine0")].ecnMarkOnDequeue);
    EXPECT_FALSE(s.switchCfg[s.topo.index.at("spine1")].ecnMarkOnDequeue); // overridden

    d["switch"] = {{"ecn_mark_point", "egress"}};
    d["switch_overrides"] = json::object();
    EXPECT_EQ(ErrorOfDoc(d), "switch.ecn_mark_point: must be one of \"enqueue\", \"dequeue\"");
    d["switch"] = json::object();
    d["switch_overrides"] = {{"leaf1", {{"ecn_mark_point", true}}}};
    EXPECT_EQ(ErrorOfDoc(d),
              "switch_overrides.leaf1.ecn_mark_point: must be one of \"enqueue\", \"dequeue\"");
    // One setting per switch: not a per-priority ECN field.
    d["switch_overrides"] = json::object();
    d["switch"] = {{"ecn_by_priority", {{"3", {{"ecn_mark_point", "dequeue"}}}}}};
    EXPECT_EQ(ErrorOfDoc(d).rfind("switch.ecn_by_priority.3.ecn_mark_point: unknown field", 0), 0u)
        << ErrorOfDoc(d);
}

TEST(Overrides, DciEdgesGetTheDciBuffer)
{
    json d = Minimal();
    d["topology"] = {{"kind", "dci"}, {"dci_buffer_bytes", 50000000}};
    // 100 km at 100G: 12.5 MB of PFC headroom on the long-haul port, so 20 MB (not less)
    d["switch_overrides"] = {{"b-dci", {{"buffer_bytes", 20000000}}}};
    fabric::Scenario s = fabric::LoadScenario(d.dump());
    EXPECT_EQ(s.switchCfg[s.topo.index.at("a-dci")].bufferBytes, 50000000u);
    EXPECT_EQ(s.switchCfg[s.topo.index.at("b-dci")].bufferBytes, 20000000u);
    EXPECT_EQ(s.switchCfg[s.topo.index.at("a-spine0")].bufferBytes, 12000000u);
}

TEST(Schema, DefaultsDocumentIsItselfValidAndComplete)
{
    nlohmann::ordered_json defaults = fabric::ScenarioDefaults();
    EXPECT_EQ(defaults["switch"]["pfc"]["headroom_bytes"], "auto");
    EXPECT_EQ(defaults["nic"]["cc"]["preset"], "nvidia-default");
    EXPECT_EQ(defaults["monitor"]["queues"], "auto");
    nlohmann::ordered_json again;
    EXPECT_NO_THROW(fabric::LoadScenario(defaults.dump(), &again));
    EXPECT_EQ(defaults, again);
}

TEST(Robustness, MalformedInputOnlyEverThrowsScenarioError)
{
    std::string valid = R"({"schema_version": 1, "duration_us": 200,
        "topology": {"kind": "explicit", "nodes": [{"id": "s", "kind": "switch"},
            {"id": "a", "kind": "host"}, {"id": "b", "kind": "host"}],
          "links": [{"a": "a", "b": "s", "rate_gbps": 100, "delay_us": 1},
                    {"a": "b", "b": "s", "rate_gbps": 100, "length_km": 0.1}]},
        "switch": {"ecn": {"kmin_bytes": 1000}, "ecn_by_priority": {"3": {"pmax": 0.5}}},
        "switch_overrides": {"s": {"pfc": {"headroom_bytes": 1000}}},
        "nic_overrides": {"a": {"cc": {"preset": "nvidia-default"}}},
        "traffic": [{"kind": "incast", "senders": ["a"], "receiver": "b", "qps": 2},
                    {"kind": "workload", "distribution": "custom", "cdf": [[10, 50], [100, 100]],
                     "load": 0.01}],
        "monitor": {"queues": ["s->b"], "flows": [0, 1]}})";
    ASSERT_EQ(ErrorOf(valid), "");
    std::mt19937 rng(12345);
    int rejected = 0;
    // Every truncation.
    for (std::size_t n = 0; n < valid.size(); ++n)
    {
        std::string err;
        ASSERT_NO_FATAL_FAILURE(err = ErrorOf(valid.substr(0, n))) << n;
        EXPECT_EQ(err.find('\n'), std::string::npos);
        rejected += err.empty() ? 0 : 1;
    }
    EXPECT_EQ(rejected, static_cast<int>(valid.size()));
    // Random byte edits, and random JSON values spliced in place of values.
    const char* junk[] = {"null",
                          "-1",
                          "1e400",
                          "\"\"",
                          "[]",
                          "{}",
                          "true",
                          "1.5",
                          "\"h9\"",
                          "18446744073709551616",
                          "-9223372036854775809",
                          "[[[]]]",
                          "0"};
    for (int i = 0; i < 3000; ++i)
    {
        std::string doc = valid;
        if (i % 2 == 0)
        {
            std::size_t pos = rng() % doc.size();
            doc[pos] = static_cast<char>(rng() % 256);
        }
        else
        {
            std::size_t colon = doc.find(':', rng() % doc.size());
            if (colon == std::string::npos)
            {
                continue;
            }
            std::size_t end = doc.find_first_of(",}", colon);
            doc = doc.substr(0, colon + 1) + junk[rng() % (sizeof(junk) / sizeof(*junk))] +
                  doc.substr(end);
        }
        try
        {
            fabric::LoadScenario(doc);
        }
        catch (const fabric::ScenarioError& e)
        {
            EXPECT_EQ(std::string(e.what()).find('\n'), std::string::npos);
        }
        // Anything else propagates and fails the test.
    }
    // Very deep nesting is refused without recursion trouble.
    std::string deep(100000, '[');
    EXPECT_NE(ErrorOf(deep).find(": nested deeper than 64 levels"), std::string::npos);
    EXPECT_EQ(ErrorOf(""), "(root): file is empty");
    EXPECT_EQ(ErrorOf(" \n"), "(root): file is empty");
    // Line and column (1-based) of the offending "}".
    EXPECT_EQ(ErrorOf("{\"schema_version\": 1,}"),
              "(root): invalid JSON at line 1, column 22: syntax error while parsing object key - "
              "unexpected '}'; expected string literal");
}

} // namespace
