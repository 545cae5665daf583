/*
 * The configuration check (`fabricsim check`): one test per rule, each against the numbers
 * worked out by hand in the comment, and a clean scenario with no finding.
 */
#include "scenario/config-check.h"
#include "scenario/headroom.h"
#include "scenario/scenario-parser.h"

#include <gtest/gtest.h>

using namespace fabric;
using nlohmann::json;

namespace
{

/** 2 leaves x 1 spine x 2 hosts, 100G, 1 us; h0 -> h2 and h1 -> h3 long-lived. */
json
Base()
{
    return json::parse(R"({
      "schema_version": 1, "duration_us": 100,
      "topology": {"kind": "leaf_spine", "leaves": 2, "spines": 1, "hosts_per_leaf": 2},
      "traffic": [{"kind": "pairs", "pairs": [["h0", "h2"], ["h1", "h3"]]}]
    })");
}

std::vector<Finding>
Check(const json& doc)
{
    return CheckConfiguration(LoadScenario(doc.dump()));
}

const Finding*
Find(const std::vector<Finding>& f, const std::string& rule)
{
    for (const Finding& x : f)
    {
        if (x.rule == rule)
        {
            return &x;
        }
    }
    return nullptr;
}

} // namespace

TEST(ConfigCheck, DefaultsAreClean)
{
    auto f = Check(Base());
    for (const Finding& x : f)
    {
        ADD_FAILURE() << x.rule << ": " << x.message;
    }
}

TEST(ConfigCheck, HeadroomBelowCable)
{
    // 100G, 1 us: 2 x 12500 B/us x 1 us + 2 x 1082 + 12500 = 39664 B, rounded up to 208-byte
    // cells: 39728 B. 20000 B is short.
    json d = Base();
    d["switch"] = {{"pfc", {{"headroom_bytes", 20000}}}};
    auto all = Check(d);
    const Finding* x = Find(all, "headroom_below_cable");
    ASSERT_NE(x, nullptr);
    EXPECT_EQ(x->severity, "error");
    EXPECT_EQ(x->numbers.at("required_bytes"), 39728);
    EXPECT_EQ(x->numbers.at("headroom_bytes"), 20000);
    EXPECT_EQ(AutoHeadroomBytes(100, 1, 1000, 208), 39728u); // the model's formula (headroom.h)
}

TEST(ConfigCheck, QpDepthBelowBdp)
{
    // h0 -> h2: 4 hops of 1 us; RTT = 8 us + 4 x (1082 + 86) x 8 / 100e3 us = 8.37376 us;
    // BDP = 12500 B/us x 8.37376 = 104672 B. One message of 4096 B in flight caps the QP at
    // 4096 x 8 / 8.37376 us = 3.913 Gbit/s.
    json d = Base();
    d["nic"] = {{"qp_depth", 1}, {"message_bytes", 4096}};
    auto all = Check(d);
    const Finding* x = Find(all, "qp_depth_below_bdp");
    ASSERT_NE(x, nullptr);
    EXPECT_NEAR(x->numbers.at("base_rtt_us"), 8.374, 0.001);
    EXPECT_NEAR(x->numbers.at("bdp_bytes"), 104672, 1);
    EXPECT_NEAR(x->numbers.at("throughput_cap_gbps"), 3.913, 0.001);
    // issue 22 §4: the message prints the numbers as the app does ("104,672", "3.913"), not
    // "104671" beside a bdp_bytes of 104,672 or "3.910000"
    EXPECT_NE(x->message.find("4,096 B outstanding, below the 104,672 B bandwidth-delay"), std::string::npos)
        << x->message;
    EXPECT_NE(x->message.find("cannot exceed 3.913 Gbit/s"), std::string::npos) << x->message;
}

TEST(ConfigCheck, NumbersPrintAsTheAppPrintsThem)
{
    // the frontend: toLocaleString("en-US") for whole numbers, 4 significant digits otherwise
    EXPECT_EQ(FormatCheckNumber(39728), "39,728");
    EXPECT_EQ(FormatCheckNumber(8.934), "8.934");
    EXPECT_EQ(FormatCheckNumber(8.93), "8.93");
    EXPECT_EQ(FormatCheckNumber(0.0625), "0.0625");
    EXPECT_EQ(FormatCheckNumber(1234.5), "1,235");
    EXPECT_EQ(FormatCheckNumber(12345.6), "12,350");
    EXPECT_EQ(FormatCheckNumber(-5), "-5");
    EXPECT_EQ(FormatCheckNumber(1e9), "1,000,000,000");
}

TEST(ConfigCheck, MessagesFormatNumbersLikeTheirNumbers)
{
    json d = Base();
    d["nic"] = {{"rto_us", 5}};
    auto slow = Check(d);
    const Finding* rto = Find(slow, "rto_below_rtt");
    ASSERT_NE(rto, nullptr);
    // the base RTT as in numbers (8.374), never "8.370000"
    EXPECT_NE(rto->message.find("RTO (5 us) is below the base RTT to h2 (8.374 us)"), std::string::npos)
        << rto->message;
    d = Base();
    d["switch"] = {{"pfc", {{"headroom_bytes", 20000}}}};
    auto shortHeadroom = Check(d);
    const Finding* head = Find(shortHeadroom, "headroom_below_cable");
    ASSERT_NE(head, nullptr);
    EXPECT_NE(head->message.find("headroom of 20,000 B"), std::string::npos) << head->message;
    EXPECT_NE(head->fix.find("at least 39,728 (or"), std::string::npos) << head->fix;
}

TEST(ConfigCheck, RtoBelowRtt)
{
    json d = Base();
    d["nic"] = {{"rto_us", 5}};
    auto all = Check(d);
    const Finding* x = Find(all, "rto_below_rtt");
    ASSERT_NE(x, nullptr);
    EXPECT_EQ(x->severity, "error");
    EXPECT_EQ(x->numbers.at("rto_us"), 5);
}

TEST(ConfigCheck, BufferBelowHeadroom)
{
    // A leaf has 3 ports of 39728 B headroom = 119184 B > a 100000 B buffer. The scenario
    // reader refuses this before any check runs (docs/scenario-format.md, buffer_bytes), with
    // the same numbers the check's buffer_below_headroom finding would give.
    json d = Base();
    d["switch"] = {{"buffer_bytes", 100000}, {"ecn", {{"kmin_bytes", 1000}, {"kmax_bytes", 2000}}}};
    try
    {
        Check(d);
        FAIL() << "a buffer below its headroom reservations was accepted";
    }
    catch (const std::exception& e)
    {
        EXPECT_NE(std::string(e.what()).find("119184"), std::string::npos) << e.what();
    }
}

TEST(ConfigCheck, KmaxAboveWhatTheBufferHolds)
{
    // 1 MB buffer - 119184 B headroom = 880816 B pool; alpha 1/16: one queue holds at most
    // alpha / (1 + alpha) x pool = 51813 B < Kmax 400000 B.
    json d = Base();
    d["switch"] = {{"buffer_bytes", 1000000}};
    auto all = Check(d);
    const Finding* x = Find(all, "kmax_above_buffer");
    ASSERT_NE(x, nullptr);
    EXPECT_NEAR(x->numbers.at("max_queue_bytes"), 51813, 1);
}

TEST(ConfigCheck, PfcOnSomeSwitchesOfAPath)
{
    json d = Base();
    d["switch_overrides"] = {{"spine0", {{"pfc", {{"enabled", false}}}}}};
    auto all = Check(d);
    const Finding* x = Find(all, "pfc_mixed_on_path");
    ASSERT_NE(x, nullptr);
    EXPECT_EQ(x->where, std::vector<std::string>{"spine0"});
}

TEST(ConfigCheck, AlphaLeavesLessThanAFrameUnderIncast)
{
    // 8 hosts + 1 spine on leaf0: 9 ports, incast from 8. Buffer 437552 B - 9 x 39728 =
    // 80000 B; alpha 1/64: one sender alone gets 80000 / 64 = 1250 B (the reader accepts it: a
    // frame is 1248 B in cells), but 8 at once get 80000 / 64 / (1 + 8 / 64) = 1111 B < a frame.
    json d = Base();
    d["topology"]["hosts_per_leaf"] = 8;
    d["switch"] = {{"buffer_bytes", 437552},
                   {"pfc", {{"alpha", 0.015625}}},
                   {"ecn", {{"kmin_bytes", 100}, {"kmax_bytes", 200}}}};
    auto all = Check(d);
    const Finding* x = Find(all, "alpha_below_frame");
    ASSERT_NE(x, nullptr);
    EXPECT_NEAR(x->numbers.at("per_ingress_bytes"), 1111, 1);
    EXPECT_EQ(x->numbers.at("frame_bytes"), 1248);
}

TEST(ConfigCheck, DcqcnInconsistentWithLinkRate)
{
    json d = Base();
    d["topology"]["host_rate_gbps"] = 10;
    d["nic"] = {{"cc", {{"min_rate_mbps", 20000}}}};
    auto all = Check(d);
    const Finding* x = Find(all, "dcqcn_vs_link_rate");
    ASSERT_NE(x, nullptr);
    EXPECT_EQ(x->numbers.at("link_gbps"), 10);
}

TEST(ConfigCheck, TimedSetShowsIntendedAndEffective)
{
    // The incident replayed: alpha 1/16 configured, 1/128 (the smallest a `set` fault takes, as
    // the static setting) set at 100 us on a small buffer.
    json d = Base();
    d["topology"]["hosts_per_leaf"] = 8;
    d["switch"] = {{"buffer_bytes", 400000}, {"ecn", {{"kmin_bytes", 100}, {"kmax_bytes", 200}}}};
    d["duration_us"] = 200;
    d["faults"] = json::array({{{"kind", "set"}, {"start_us", 100}, {"nodes", {"leaf0"}},
                                {"param", "pfc.alpha"}, {"value", 1.0 / 128}}});
    json out = ConfigCheckJson(LoadScenario(d.dump()));
    ASSERT_EQ(out["effective"].size(), 1u);
    EXPECT_EQ(out["effective"][0]["intended"], 0.0625);
    EXPECT_EQ(out["effective"][0]["effective"], 1.0 / 128);
    bool found = false;
    for (const auto& f : out["findings"])
    {
        if (f["rule"] == "alpha_below_frame" &&
            f["message"].get<std::string>().rfind("after the timed set faults", 0) == 0)
        {
            found = true;
        }
    }
    EXPECT_TRUE(found);
}

TEST(ConfigCheck, DciAcceleratorBufferAndTimer)
{
    // 100 km at 100 Gbit/s: long-haul RTT 1000 us, BDP 12.5 MB
    json d = {{"schema_version", 1},
              {"topology", {{"kind", "dci"}, {"length_km", 100},
                            {"accelerator", {{"enabled", true}, {"buffer_bytes", 1000000},
                                             {"retransmit_timeout_us", 500}}}}}};
    auto all = Check(d);
    const Finding* buffer = Find(all, "dci_accelerator_buffer_below_bdp");
    ASSERT_NE(buffer, nullptr);
    EXPECT_EQ(buffer->where, std::vector<std::string>{"a-dci->b-dci"});
    EXPECT_NEAR(buffer->numbers.at("bdp_bytes"), 12500000, 1);
    const Finding* timer = Find(all, "dci_accelerator_timeout_below_rtt");
    ASSERT_NE(timer, nullptr);
    EXPECT_NEAR(timer->numbers.at("long_haul_rtt_us"), 1000, 1e-9);

    // the defaults (256 MiB, 2 x RTT + 100 us) pass; so does an accelerator that is off
    d["topology"]["accelerator"] = {{"enabled", true}};
    all = Check(d);
    EXPECT_EQ(Find(all, "dci_accelerator_buffer_below_bdp"), nullptr);
    EXPECT_EQ(Find(all, "dci_accelerator_timeout_below_rtt"), nullptr);
    d["topology"]["accelerator"] = {{"enabled", false}, {"buffer_bytes", 65536}};
    EXPECT_EQ(Find(Check(d), "dci_accelerator_buffer_below_bdp"), nullptr);
}

TEST(ConfigCheck, QpDepthAgainstTheAcceleratorsRtt)
{
    // One host per site, 1 us site links, 100 km, MTU 4096, QD 4 x 4096 B = 16384 B. The whole
    // path's RTT is 2 x 506 us + 7 x (4178 + 86) x 8 / 100e3 us = 1014.388 us; with the
    // accelerator the window turns over at a-dci: 2 x 3 us + 3 x 4264 x 8 / 100e3 = 7.023 us,
    // BDP 87.8 KB, cap 16384 x 8 / 7.0234 us = 18.662 Gbit/s.
    json d = {{"schema_version", 1},
              {"topology", {{"kind", "dci"}, {"length_km", 100},
                            {"site", {{"leaves", 1}, {"spines", 1}, {"hosts_per_leaf", 1},
                                      {"link_delay_us", 1}}}}},
              {"nic", {{"mtu_bytes", 4096}, {"qp_depth", 4}, {"rto_us", 100000}}},
              {"traffic", {{{"kind", "perftest"}, {"src", "a-h0"}, {"dst", "b-h0"},
                            {"message_bytes", 4096}}}}};
    auto before = Check(d); // kept: Find points into it
    const Finding* without = Find(before, "qp_depth_below_bdp");
    ASSERT_NE(without, nullptr);
    EXPECT_NEAR(without->numbers.at("base_rtt_us"), 1014.388, 0.001);
    d["topology"]["accelerator"] = {{"enabled", true}};
    auto all = Check(d);
    const Finding* with = Find(all, "qp_depth_below_bdp");
    ASSERT_NE(with, nullptr);
    EXPECT_NEAR(with->numbers.at("base_rtt_us"), 7.023, 0.001);
    EXPECT_NEAR(with->numbers.at("throughput_cap_gbps"), 18.662, 0.001);
    // 92 x 4096 B (the NTT preset's QD) covers the site's BDP: no warning with the accelerator
    d["nic"]["qp_depth"] = 92;
    EXPECT_EQ(Find(Check(d), "qp_depth_below_bdp"), nullptr);
}

TEST(ConfigCheck, CollectiveOnHostsWithoutServers)
{
    // leaf_spine hosts name no server: each of the 4 ranks is a server of its own, so no step
    // goes over NVLink (info; a warning for hierarchical, which then has no level inside a server).
    json d = Base();
    d["traffic"] = json::parse(R"([{"kind": "collective", "op": "all_reduce", "message_bytes": 4000, "job": "a"}])");
    auto all = Check(d);
    const Finding* x = Find(all, "collective_no_nvlink");
    ASSERT_NE(x, nullptr);
    EXPECT_EQ(x->severity, "info");
    EXPECT_EQ(x->numbers.at("ranks"), 4);
    EXPECT_EQ(x->numbers.at("servers"), 4);
    EXPECT_NE(x->message.find("every host is its own server"), std::string::npos);
    d["traffic"][0]["algorithm"] = "hierarchical";
    EXPECT_EQ(Find(Check(d), "collective_no_nvlink")->severity, "warning");
}

TEST(ConfigCheck, CollectiveAcrossOversubscribedLeaves)
{
    // Base: 2 hosts x 100G under each leaf, 1 uplink of 100G: oversubscribed 2:1 (expand's
    // stats). A job on h0 h1 h2 h3 spans leaf0 and leaf1: warned; on h0 h1 (one leaf) it is not.
    json d = Base();
    d["traffic"] = json::parse(R"([{"kind": "collective", "op": "all_gather", "message_bytes": 4000, "job": "a"}])");
    auto all = Check(d);
    const Finding* x = Find(all, "collective_oversubscribed");
    ASSERT_NE(x, nullptr);
    EXPECT_EQ(x->severity, "warning");
    EXPECT_EQ(x->numbers.at("oversubscription"), 2);
    EXPECT_EQ(x->numbers.at("leaves"), 2);
    EXPECT_EQ(x->where, (std::vector<std::string>{"leaf0", "leaf1"}));
    EXPECT_NE(x->message.find("oversubscribed 2:1"), std::string::npos);
    d["traffic"][0]["hosts"] = json::array({"h0", "h1"});
    EXPECT_EQ(Find(Check(d), "collective_oversubscribed"), nullptr);
    // 1:1 (two spines): nothing to warn about
    json full = Base();
    full["topology"]["spines"] = 2;
    full["traffic"] = d["traffic"];
    full["traffic"][0].erase("hosts");
    EXPECT_EQ(Find(Check(full), "collective_oversubscribed"), nullptr);
}

TEST(ConfigCheck, CollectiveInsideServersOfARailFabric)
{
    // rail_optimized, 1 unit of 2 servers x 2 NICs (rail leaves leaf..0 and ..1), 1 spine:
    // ranks share servers, so there are NVLink steps: no collective_no_nvlink. One NIC of each
    // server (hosts h0 and h2) are two servers of one rank each: noted.
    json d = Base();
    d["topology"] = json::parse(R"({"kind": "rail_optimized", "units": 1, "servers_per_unit": 2, "nics_per_server": 2, "spines": 1})");
    d["traffic"] = json::parse(R"([{"kind": "collective", "op": "all_reduce", "message_bytes": 4000, "servers": 2}])");
    auto placed = Check(d);
    EXPECT_EQ(Find(placed, "collective_no_nvlink"), nullptr);
    // 2 servers x 400G down per rail leaf, 1 spine x 400G up: 2:1, and the job uses both rail leaves
    const Finding* over = Find(placed, "collective_oversubscribed");
    ASSERT_NE(over, nullptr);
    EXPECT_EQ(over->where.size(), 2u);
    EXPECT_NE(over->fix.find("uses the leaf of every rail"), std::string::npos);
    d["traffic"][0].erase("servers");
    d["traffic"][0]["hosts"] = json::array({"h0", "h2"});
    auto spread = Check(d);
    const Finding* x = Find(spread, "collective_no_nvlink");
    ASSERT_NE(x, nullptr);
    EXPECT_NE(x->message.find("each of its ranks is on a different server"), std::string::npos);
}

TEST(ConfigCheck, MultiPlaneQpPinnedToOnePlane)
{
    // 4 planes of 200G (an 800G NIC): RC pins each QP to one plane, so h0's 2 QPs to h1 use at
    // most 2 x 200 = 400 of its 800 Gbit/s; 4 QPs, or the sprayed transport, are clean.
    json d = Base();
    d["topology"] = json::parse(R"({"kind": "multi_plane", "planes": 4, "units": 1,
                                    "servers_per_unit": 2, "nics_per_server": 1})");
    d["traffic"] = json::parse(R"([{"kind": "pairs", "pairs": [["h0", "h1"]], "qps": 2}])");
    auto all = Check(d);
    const Finding* f = Find(all, "multi_plane_qp_pinned");
    ASSERT_NE(f, nullptr);
    EXPECT_EQ(f->severity, "warning");
    EXPECT_EQ(f->where, std::vector<std::string>{"h0->h1"});
    EXPECT_EQ(f->numbers.at("planes"), 4);
    EXPECT_EQ(f->numbers.at("qps"), 2);
    EXPECT_EQ(f->numbers.at("plane_gbps"), 200);
    EXPECT_EQ(f->numbers.at("nic_gbps"), 800);
    EXPECT_NE(f->message.find("at most 400 of its 800 Gbit/s"), std::string::npos) << f->message;
    d["traffic"][0]["qps"] = 4;
    EXPECT_EQ(Find(Check(d), "multi_plane_qp_pinned"), nullptr);
    d["traffic"][0]["qps"] = 1;
    d["nic"] = json::parse(R"({"transport": "sprayed"})");
    EXPECT_EQ(Find(Check(d), "multi_plane_qp_pinned"), nullptr);
}

TEST(ConfigCheck, CollectiveWhoseIdealTimeExceedsTheRun)
{
    // Base: 4 hosts of 100G, each its own server, MTU 1000: a rank's NIC payload rate is
    // 100 x 1000 / 1082 = 92.42 Gbit/s, the ring's ideal busbw with one channel. An all-reduce
    // of 10 MB over 4 ranks (bus factor 2 x 3/4 = 1.5) takes at least 10e6 x 8 x 1.5 / 92.42 Gbit/s
    // = 1,298.4 us, past the 100 us run: warned, with twice the ideal (2,596.8 -> 2,600 us) as
    // the fix. 100 KB (13 us) fits.
    json d = Base();
    d["traffic"] = json::parse(R"([{"kind": "collective", "op": "all_reduce",
                                    "message_bytes": 10000000, "job": "big"}])");
    auto all = Check(d);
    const Finding* x = Find(all, "collective_exceeds_duration");
    ASSERT_NE(x, nullptr);
    EXPECT_EQ(x->severity, "warning");
    EXPECT_EQ(x->where, std::vector<std::string>{"h0"});
    EXPECT_DOUBLE_EQ(x->numbers.at("ideal_us"), 1298.4);
    EXPECT_DOUBLE_EQ(x->numbers.at("duration_us"), 100);
    EXPECT_DOUBLE_EQ(x->numbers.at("ideal_busbw_gbps"), 92.4);
    EXPECT_NE(x->message.find("job 'big' cannot finish"), std::string::npos) << x->message;
    EXPECT_NE(x->message.find("its iteration of 10,000,000 bytes takes 1,298 us"),
              std::string::npos)
        << x->message;
    EXPECT_NE(x->fix.find("set duration_us to at least 2,600"), std::string::npos) << x->fix;
    // 100 KB takes 13 us: it fits at t = 0, not when the job starts at 90 us
    d["traffic"][0]["message_bytes"] = 100000;
    EXPECT_EQ(Find(Check(d), "collective_exceeds_duration"), nullptr);
    d["traffic"][0]["start_us"] = 90;
    auto lateFindings = Check(d);
    const Finding* late = Find(lateFindings, "collective_exceeds_duration");
    ASSERT_NE(late, nullptr);
    EXPECT_DOUBLE_EQ(late->numbers.at("start_us"), 90);
    EXPECT_DOUBLE_EQ(late->numbers.at("ideal_us"), 13);
}

TEST(ConfigCheck, SprayingWithAnInOrderTransport)
{
    // Two spines: leaf0 has two next hops toward h2 and h3. Per-packet spraying there reorders
    // h0's and h1's packets, which RC answers with go-back-N: warned at leaf0 (the only switch
    // with a choice on these paths). One spine (no choice), ECMP, or the sprayed transport: clean.
    json d = Base();
    d["topology"]["spines"] = 2;
    d["switch"] = json::parse(R"({"load_balancing": "per_packet"})");
    auto all = Check(d);
    const Finding* x = Find(all, "spraying_with_rc");
    ASSERT_NE(x, nullptr);
    EXPECT_EQ(x->severity, "warning");
    EXPECT_EQ(x->where, std::vector<std::string>{"leaf0"});
    EXPECT_EQ(x->numbers.at("senders"), 2);
    EXPECT_NE(x->message.find("per-packet spraying at leaf0"), std::string::npos) << x->message;
    EXPECT_NE(x->message.find("go back N"), std::string::npos) << x->message;
    EXPECT_NE(x->fix.find("\"sprayed\""), std::string::npos) << x->fix;
    d["switch"]["load_balancing"] = "adaptive";
    EXPECT_NE(Find(Check(d), "spraying_with_rc")->message.find("adaptive routing at leaf0"),
              std::string::npos);
    d["nic"] = json::parse(R"({"transport": "xrc"})");
    EXPECT_NE(Find(Check(d), "spraying_with_rc"), nullptr);
    d["nic"]["transport"] = "sprayed";
    EXPECT_EQ(Find(Check(d), "spraying_with_rc"), nullptr);
    d.erase("nic");
    d["switch"]["load_balancing"] = "ecmp";
    EXPECT_EQ(Find(Check(d), "spraying_with_rc"), nullptr);
    json one = Base();
    one["switch"] = json::parse(R"({"load_balancing": "per_packet"})");
    EXPECT_EQ(Find(Check(one), "spraying_with_rc"), nullptr);
}
