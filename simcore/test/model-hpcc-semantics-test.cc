/*
 * What the hpcc-dcqcn parameter set changes in the model, checked by hand: 48-byte headers
 * without preamble/IFG (ideal FCT and FCT of an uncontended flow), the sender-side FCT (one ACK
 * path later), the congestion flag on ACKs (every marked packet, no CNP pacing), and ECN and
 * PFC alpha chosen per port by link rate.
 */
#include "helper/fabric-run.h"
#include "helper/fabric-runner.h"
#include "scenario/scenario-parser.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

using namespace fabric;
using nlohmann::json;

namespace
{

json
OneLeaf(int hosts, double durationUs)
{
    return {{"schema_version", 1},
            {"duration_us", durationUs},
            {"topology",
             {{"kind", "leaf_spine"}, {"leaves", 1}, {"spines", 1}, {"hosts_per_leaf", hosts},
              {"fabric_rate_gbps", 400}}},
            {"monitor", {{"queues", json::array()}, {"flows", json::array()}, {"ports", json::array()}}}};
}

json
RunJson(const json& doc)
{
    Scenario s = LoadScenario(doc.dump());
    FabricRunner r(s);
    r.Run(RunLimits(), nullptr);
    return r.Results();
}

} // namespace

TEST(ModelHpccSemantics, HeaderBytesSetIdealAndActualFctAndSenderFctAddsTheAckPath)
{
    json d = OneLeaf(2, 200);
    d["nic"] = {{"header_bytes", 48}, {"preamble_ifg_bytes", 0}, {"cc", {{"algorithm", "none"}}}};
    d["traffic"] = json::array({{{"kind", "flows"},
                                 {"flows", json::array({{{"src", "h1"}, {"dst", "h0"},
                                                         {"size_bytes", 1000000}, {"start_us", 0}}})}}});
    json f = RunJson(d)["flows"][0];
    // 1000 frames of 1048 B at 100G = 83.84 us, 2 x 1 us of cable, the last frame again at the
    // second hop (83.84 ns): 85.92384 us, reached exactly by an uncontended flow.
    EXPECT_DOUBLE_EQ(f["ideal_fct_us"].get<double>(), 85.924);
    EXPECT_DOUBLE_EQ(f["fct_us"].get<double>(), 85.924);
    // The ACK of the last frame: 52 B (48 + AETH 4) at 100G = 4.16 ns per hop, 2 hops, 2 us.
    EXPECT_DOUBLE_EQ(f["sender_fct_us"].get<double>(), 87.932);
    // Default framing (62 B of headers + 20 B preamble/IFG): 1082 B frames.
    d["nic"] = {{"cc", {{"algorithm", "none"}}}};
    json g = RunJson(d)["flows"][0];
    EXPECT_DOUBLE_EQ(g["ideal_fct_us"].get<double>(), 88.647); // 86.56 + 2 + 0.08656
    EXPECT_DOUBLE_EQ(g["fct_us"].get<double>(), 88.647);
}

TEST(ModelHpccSemantics, AckFlagOnEveryMarkedPacketWithoutPacing)
{
    // 2-to-1 incast, every frame that finds a queue marked (Kmin = Kmax = 0), 300 us.
    json d = OneLeaf(3, 300);
    d["switch"] = {{"ecn", {{"kmin_bytes", 0}, {"kmax_bytes", 0}}}, {"ecn_mark_point", "dequeue"}};
    d["traffic"] = json::array({{{"kind", "incast"}, {"senders", {"h1", "h2"}}, {"receiver", "h0"}}});
    d["nic"] = {{"cc", {{"algorithm", "dcqcn_sampled"}, {"preset", "hpcc-dcqcn"}}},
                {"cnp_interval_us", 50}};
    json cnp = RunJson(d)["summary"];
    d["nic"]["ecn_feedback"] = "ack_flag";
    json flag = RunJson(d)["summary"];
    uint64_t marked = flag["ecn_marked_packets"].get<uint64_t>();
    uint64_t flags = flag["cnps_sent"].get<uint64_t>();
    // CNP packets: at most one per 50 us per QP (2 QPs, 300 us).
    EXPECT_LE(cnp["cnps_sent"].get<uint64_t>(), 2u * 7u);
    // Flags: one per marked packet delivered (the few still in flight at the end excepted).
    EXPECT_GT(marked, 100u);
    EXPECT_LE(flags, marked);
    EXPECT_GE(flags + 20, marked);
}

TEST(ModelHpccSemantics, EcnAndPfcAlphaPerPortByLinkRate)
{
    json d = OneLeaf(2, 10);
    d["switch"] = {{"ecn", {{"kmin_bytes", 400000}, {"kmax_bytes", 1600000}}},
                   {"ecn_by_rate", {{"400", {{"kmin_bytes", 1600000}, {"kmax_bytes", 6400000}}}}},
                   {"pfc", {{"alpha", 0.125}, {"alpha_by_rate", {{"400", 0.5}}}}}};
    Scenario s = LoadScenario(d.dump());
    FabricRunner r(s);
    const FabricSwitch* leaf = r.Fabric().Switch(s.topo.index.at("leaf0"));
    uint32_t toHost = leaf->PortToward(s.topo.index.at("h0"));
    uint32_t toSpine = leaf->PortToward(s.topo.index.at("spine0"));
    EXPECT_EQ(leaf->PortEcn(toHost, 3).kminBytes, 400000u);
    EXPECT_EQ(leaf->PortEcn(toSpine, 3).kminBytes, 1600000u);
    EXPECT_EQ(leaf->PortEcn(toSpine, 3).kmaxBytes, 6400000u);
    uint64_t pool = leaf->Mmu().SharedPool();
    EXPECT_EQ(leaf->Mmu().Threshold(toHost), static_cast<uint64_t>(0.125 * pool));
    EXPECT_EQ(leaf->Mmu().Threshold(toSpine), static_cast<uint64_t>(0.5 * pool));
}

TEST(ModelHpccSemantics, AckPriorityDataQueuesTheAckBehindTheData)
{
    // h1 and h2 each send 1 MB to h0 from t = 0 at 100G: the leaf's port to h0 gains one
    // 1048-byte frame per 83.84 ns, 12.5 KB per us from the first arrival at 1.084 us. At 50 us
    // h0 sends one 1000-byte frame to h1; it reaches h1 at about 52.17 us, h1 answers after the
    // data frame it is sending (< 0.084 us), and the ACK reaches the leaf at about 53.26 us.
    // With ack_priority "data" it waits behind the queue there, (53.26 - 1.084) x 12.5 KB/us =
    // 652 KB, i.e. 52.18 us at 100G; with "control" it passes it (at most one frame).
    json d = OneLeaf(3, 150);
    d["nic"] = {{"header_bytes", 48}, {"preamble_ifg_bytes", 0}, {"cc", {{"algorithm", "none"}}}};
    d["switch"] = {{"ecn", {{"enabled", false}}}};
    d["traffic"] = json::array(
        {{{"kind", "flows"},
          {"flows", json::array({{{"src", "h1"}, {"dst", "h0"}, {"size_bytes", 1000000}, {"start_us", 0}},
                                 {{"src", "h2"}, {"dst", "h0"}, {"size_bytes", 1000000}, {"start_us", 0}},
                                 {{"src", "h0"}, {"dst", "h1"}, {"size_bytes", 1000}, {"start_us", 50}}})}}});
    json control = RunJson(d);
    d["nic"]["ack_priority"] = "data";
    json data = RunJson(d);
    double waitControl = control["flows"][2]["sender_fct_us"].get<double>() -
                         control["flows"][2]["fct_us"].get<double>();
    double waitData =
        data["flows"][2]["sender_fct_us"].get<double>() - data["flows"][2]["fct_us"].get<double>();
    EXPECT_NEAR(waitData - waitControl, 52.18, 0.15);
    // Control: 2 us of cable and 2 x 4.16 ns for the ACK, plus at most one data frame (83.84 ns)
    // finishing at h1 and one at the leaf: 2.008 .. 2.176 us.
    EXPECT_GE(waitControl, 2.008);
    EXPECT_LE(waitControl, 2.176);
    EXPECT_EQ(data["summary"]["pfc_pauses_sent"].get<uint64_t>(), 0u);
    // The data frame itself is not delayed by the choice (h0 -> h1 carries only ACKs).
    EXPECT_NEAR(data["flows"][2]["fct_us"].get<double>(), control["flows"][2]["fct_us"].get<double>(),
                0.01);
}
