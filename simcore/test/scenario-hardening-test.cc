/*
 * Input that cannot hurt the simulator (issue 7 section 4), at the scenario layer: physical
 * bounds on rates, timers and pause quanta; duplicate keys; JSON errors with line and column;
 * the switch buffer against its PFC headroom; the RTO against the base RTT of each flow.
 * The command-line side (devices, directories, --out) is in cli-contract-test.cc.
 */
#include "scenario/json-input.h"
#include "scenario/scenario-checks.h"
#include "scenario/scenario-parser.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

namespace
{

using nlohmann::json;

json
LeafSpine(int hostsPerLeaf = 2)
{
    return {{"schema_version", 1},
            {"duration_us", 100},
            {"topology",
             {{"kind", "leaf_spine"},
              {"leaves", 2},
              {"spines", 2},
              {"hosts_per_leaf", hostsPerLeaf},
              {"host_rate_gbps", 100},
              {"fabric_rate_gbps", 100},
              {"link_delay_us", 1}}}};
}

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

TEST(PhysicalBounds, RatesTimersAndQuantaHaveLowerBounds)
{
    json d = LeafSpine();
    d["topology"]["fabric_rate_gbps"] = 1e-6;
    EXPECT_EQ(ErrorOfDoc(d), "topology.fabric_rate_gbps: must be >= 0.01 and <= 1600 Gbit/s");
    d["topology"]["fabric_rate_gbps"] = 1e-300;
    EXPECT_EQ(ErrorOfDoc(d), "topology.fabric_rate_gbps: must be >= 0.01 and <= 1600 Gbit/s");
    d["topology"]["fabric_rate_gbps"] = 0.01; // 10 Mbit/s, the slowest Ethernet, is allowed
    d["switch"] = {{"pfc", {{"enabled", false}}}};
    EXPECT_EQ(ErrorOfDoc(d), "");

    d = LeafSpine();
    d["nic"] = {{"cc", {{"min_rate_mbps", 1e-300}}}};
    EXPECT_EQ(ErrorOfDoc(d), "nic.cc.min_rate_mbps: must be >= 1 and <= 1600000 Mbit/s");
    d["nic"] = {{"cc", {{"rai_mbps", 0.5}}}};
    EXPECT_EQ(ErrorOfDoc(d), "nic.cc.rai_mbps: must be >= 1 and <= 1600000 Mbit/s");
    d["nic"] = {{"cc", {{"alpha_update_us", 1e-300}}}};
    EXPECT_EQ(ErrorOfDoc(d), "nic.cc.alpha_update_us: must be >= 1 and <= 1000000 us");
    d["nic"] = {{"cc", {{"rate_increase_timer_us", 0.5}}}};
    EXPECT_EQ(ErrorOfDoc(d), "nic.cc.rate_increase_timer_us: must be >= 1 and <= 1000000 us");

    d = LeafSpine();
    d["switch"] = {{"pfc", {{"pause_mode", "quanta"}, {"pause_quanta", 1}}}};
    EXPECT_EQ(ErrorOfDoc(d), "switch.pfc.pause_quanta: must be an integer >= 512 and <= 65535");
    d["switch"]["pfc"]["pause_quanta"] = 512;
    EXPECT_EQ(ErrorOfDoc(d), "");
    d["switch"] = {{"pfc", {{"alpha", 1e-300}}}};
    EXPECT_EQ(ErrorOfDoc(d), "switch.pfc.alpha: must be >= 0.0078125 and <= 64");
}

TEST(StrictJson, DuplicateKeysNamedByPath)
{
    EXPECT_EQ(ErrorOf(R"({"schema_version": 1, "schema_version": 1})"),
              "schema_version: duplicate key \"schema_version\" (each key may appear once in an "
              "object)");
    EXPECT_EQ(ErrorOf(R"({"a": [1, {"b": 2}, [3, {"c": 1, "c": 2}]]})").substr(0, 25),
              "a[2][1].c: duplicate key ");
    // duplicates are found before anything else is validated (unknown fields included)
    EXPECT_EQ(ErrorOf(R"({"x": {"k": 1}, "y": {"k": 1, "z": {"k": 1, "k": 2}}})").substr(0, 20),
              "y.z.k: duplicate key");
}

TEST(StrictJson, ErrorsCarryLineAndColumn)
{
    EXPECT_EQ(ErrorOf("{\"schema_version\": 1,\n \"duration_us\": 1e400}"),
              "(root): invalid JSON at line 2, column 21: number 1e400 is out of range");
    EXPECT_EQ(ErrorOf("{\"a\": -1e999}").rfind("(root): invalid JSON at line 1, column", 0), 0u);
    std::string cut = ErrorOf("{\n\n  \"a\": tru");
    EXPECT_EQ(cut.rfind("(root): invalid JSON at line 3, column", 0), 0u) << cut;
    EXPECT_EQ(ErrorOf("  \n\t"), "(root): file is empty");
    std::string deep(200, '[');
    EXPECT_EQ(ErrorOf(deep).rfind("[0][0]", 0), 0u) << ErrorOf(deep);
    EXPECT_NE(ErrorOf(deep).find("nested deeper than 64 levels"), std::string::npos);
    // non-printable bytes never reach the message
    std::string garbage = std::string("{\"a\": \"") + '\x01' + '\xff' + "\"}";
    std::string msg = ErrorOf(garbage);
    for (char c : msg)
    {
        EXPECT_TRUE(c >= 0x20 && c < 0x7f) << msg;
    }
}

TEST(StrictJson, SizeCapAppliesToBytesToo)
{
    std::string big(1000, ' ');
    try
    {
        fabric::ParseStrictJson(big, 999);
        FAIL() << "accepted";
    }
    catch (const fabric::ScenarioError& e)
    {
        EXPECT_EQ(std::string(e.what()).rfind("(root): file is larger than 999 bytes", 0), 0u);
    }
}

TEST(SwitchBuffer, SmallerThanHeadroomIsRefusedWithTheNumbers)
{
    // leaf0: 3 host ports at 25G and 1 spine port at 100G, 1 us cables, MTU 1000 (+82 wire):
    // 25G: 2 x 3125 B/us x 1 us + 2 x 1082 + 3125 = 11539 -> 56 cells of 208 = 11648 B;
    // 100G: 2 x 12500 + 2164 + 12500 = 39664 -> 191 cells = 39728 B. Total 74672 B.
    json d = {{"schema_version", 1},
              {"topology",
               {{"kind", "leaf_spine"},
                {"leaves", 1},
                {"spines", 1},
                {"hosts_per_leaf", 3},
                {"host_rate_gbps", 25},
                {"fabric_rate_gbps", 100},
                {"link_delay_us", 1}}},
              {"switch", {{"buffer_bytes", 65536}}}};
    EXPECT_EQ(ErrorOfDoc(d),
              "switch.buffer_bytes: 65536 bytes cannot hold the PFC headroom reserved on switch "
              "\"leaf0\" (4 ports x 1 lossless priority x 11648..39728 bytes headroom = 74672 "
              "bytes): no shared buffer would be left (buffer_bytes is the whole buffer, headroom "
              "included)");
    // 10,000 B of shared pool: alpha 1/16 gives a 625 B threshold, below one 1248 B frame
    // (1082 B in 208 B cells); 74672 + 16 x 1248 = 94640 B is the least that works.
    d["switch"]["buffer_bytes"] = 74672 + 10000;
    std::string msg = ErrorOfDoc(d);
    EXPECT_NE(msg.find("leaves a shared pool of 10000 bytes"), std::string::npos) << msg;
    EXPECT_NE(msg.find("need at least 94640 bytes"), std::string::npos) << msg;
    d["switch"]["buffer_bytes"] = 94640;
    EXPECT_EQ(ErrorOfDoc(d), "");
    // Without PFC there is no headroom to reserve.
    d["switch"] = {{"buffer_bytes", 65536}, {"pfc", {{"enabled", false}}}};
    EXPECT_EQ(ErrorOfDoc(d), "");
    // A per-switch override is named as the field to change.
    d["switch"] = json::object();
    d["switch_overrides"] = {{"leaf0", {{"buffer_bytes", 70000}}}};
    EXPECT_EQ(ErrorOfDoc(d).rfind("switch_overrides.leaf0.buffer_bytes: 70000 bytes", 0), 0u);
}

TEST(SwitchBuffer, FourHundredPortsDoNotFitTwelveMegabytes)
{
    // 400 hosts at 100G: 400 x 39728 + 1 spine port 39728 = 15,931,. B > the 12 MB default.
    json d = LeafSpine(400);
    d["topology"]["leaves"] = 1;
    d["topology"]["spines"] = 1;
    std::string msg = ErrorOfDoc(d);
    EXPECT_EQ(msg.rfind("switch.buffer_bytes: 12000000 bytes cannot hold the PFC headroom reserved "
                        "on switch \"leaf0\" (401 ports x 1 lossless priority x 39728 bytes "
                        "headroom = 15930928 bytes)",
                        0),
              0u)
        << msg;
}

TEST(BaseRtt, HandComputedForLeafSpinePaths)
{
    // Per hop: 2 x 1 us + (1082 B data + 86 B ACK) x 8 / 100 Gbit/s = 2093.44 ns.
    json d = LeafSpine();
    d["traffic"] = {{{"kind", "pairs"}, {"pairs", json::array({json::array({"h0", "h1"}), json::array({"h0", "h2"})})}}};
    fabric::Scenario s = fabric::LoadScenario(d.dump());
    std::vector<double> rtt = fabric::FlowBaseRttNs(s);
    ASSERT_EQ(rtt.size(), 2u);
    EXPECT_NEAR(rtt[0], 2 * 2093.44, 1e-6); // same leaf: 2 hops
    EXPECT_NEAR(rtt[1], 4 * 2093.44, 1e-6); // across the spines: 4 hops
    EXPECT_TRUE(fabric::ScenarioWarnings(s).empty());
}

TEST(BaseRtt, RtoBelowItWarnsOncePerField)
{
    json d = LeafSpine();
    d["traffic"] = {{{"kind", "pairs"}, {"pairs", json::array({json::array({"h0", "h1"}), json::array({"h0", "h2"}), json::array({"h3", "h1"})})}}};
    d["nic"] = {{"rto_us", 5}}; // 5 us: above the 4.19 us path, below the 8.37 us ones
    std::vector<fabric::ScenarioWarning> w =
        fabric::ScenarioWarnings(fabric::LoadScenario(d.dump()));
    ASSERT_EQ(w.size(), 1u);
    EXPECT_EQ(w[0].code, "rto_below_base_rtt");
    EXPECT_EQ(w[0].field, "nic.rto_us");
    EXPECT_EQ(w[0].message.rfind("nic.rto_us (5 us) is below the base RTT of 2 flows (up to "
                                 "8.374 us, flow 1 h0 -> h2)",
                                 0),
              0u)
        << w[0].message;
    d["nic_overrides"] = {{"h3", {{"rto_us", 4}}}};
    w = fabric::ScenarioWarnings(fabric::LoadScenario(d.dump()));
    ASSERT_EQ(w.size(), 2u);
    EXPECT_EQ(w[0].field, "nic.rto_us");
    EXPECT_EQ(w[1].field, "nic_overrides.h3.rto_us");
    EXPECT_EQ(fabric::WarningsJson(w)[1]["code"], "rto_below_base_rtt");
}

} // namespace
