/*
 * Packet trimming (switch.trimming; NDP, Ultra Ethernet): on a lossy fabric (PFC off) a 6-to-1
 * incast overflows the receiver's leaf buffer. Without trimming the overflow is dropped and the
 * senders find out late (the sprayed transport's loss detection, timeouts). With trimming every
 * frame the buffer could not hold is cut to its header and forwarded at the control priority;
 * the receiver asks for exactly that packet again. Checked: no drop, every byte delivered, each
 * trimmed frame resent exactly once, the trimmed payload accounted (sent = received + trimmed +
 * in network), and a run with trimming off unchanged by the feature.
 */
#include "helper/fabric-runner.h"
#include "scenario/scenario-parser.h"

#include <gtest/gtest.h>

using namespace fabric;

namespace
{

std::string
Incast(bool trimming, const std::string& transport)
{
    return R"({"schema_version": 1, "seed": 1, "duration_us": 3000,
      "nic": {"mtu_bytes": 4096, "transport": ")" + transport + R"("},
      "switch": {"pfc": {"enabled": false}, "buffer_bytes": 300000, "load_balancing": "per_packet",
                 "trimming": )" + std::string(trimming ? "true" : "false") + R"(},
      "topology": {"kind": "leaf_spine", "leaves": 2, "spines": 2, "hosts_per_leaf": 4,
                   "host_rate_gbps": 100, "fabric_rate_gbps": 100, "link_delay_us": 1},
      "traffic": [{"kind": "incast", "senders": ["h0", "h1", "h2", "h4", "h5", "h6"],
                   "receiver": "h7", "size_bytes": 2000000}]})";
}

nlohmann::ordered_json
RunText(const std::string& text)
{
    FabricRunner r(LoadScenario(text));
    EXPECT_EQ(r.Run(RunLimits(), nullptr), RunStatus::OK);
    return r.Results();
}

} // namespace

TEST(Trimming, NoByteLostEachTrimmedFrameResentOnce)
{
    auto res = RunText(Incast(true, "sprayed"));
    const auto& s = res["summary"];
    EXPECT_EQ(s["drops"]["total"].get<uint64_t>(), 0u);
    uint64_t trimmed = s["trimmed_packets"].get<uint64_t>();
    EXPECT_GT(trimmed, 1000u); // 12 MB into one 100G port through a 300 KB buffer
    EXPECT_EQ(s["retransmitted_packets"].get<uint64_t>(), trimmed);
    EXPECT_EQ(s["flows_completed"].get<uint64_t>(), 6u);
    uint64_t droppedByFlows = 0;
    for (const auto& f : res["flows"])
    {
        EXPECT_EQ(f["bytes_delivered"].get<uint64_t>(), 2000000u);
        droppedByFlows += f["bytes_dropped"].get<uint64_t>();
    }
    const auto& c = s["conservation"];
    EXPECT_TRUE(c["balanced"].get<bool>());
    EXPECT_EQ(c["bytes_dropped"]["trimmed"].get<uint64_t>(), droppedByFlows);
    EXPECT_EQ(c["bytes_dropped"]["tail_drop"].get<uint64_t>(), 0u);
    // the receiver's 100G link is the bottleneck: 12 MB at 100 x 4096 / (4096 + 82) Gbit/s
    // plus the headers and retransmissions cannot take much longer than 1 ms
    double ideal = 12000000 * 8.0 / (100.0 * 4096 / (4096 + 82)) / 1000.0;
    double end = 0;
    for (const auto& f : res["flows"])
    {
        end = std::max(end, f["start_us"].get<double>() + f["fct_us"].get<double>());
    }
    EXPECT_GE(end, ideal);
    EXPECT_LT(end, 1.15 * ideal);
}

TEST(Trimming, OffItDropsAndLeavesTheResultWithoutTrimmingKeys)
{
    auto res = RunText(Incast(false, "sprayed"));
    const auto& s = res["summary"];
    EXPECT_GT(s["drops"]["total"].get<uint64_t>(), 1000u);
    EXPECT_FALSE(s.contains("trimmed_packets"));
    EXPECT_FALSE(s["conservation"]["bytes_dropped"].contains("trimmed"));
    // The drops cost timeouts and resends: the incast is still recovering at 3 ms, or it took
    // more than twice the receiver link's time for the 12 MB (trimming: within 15 %, above).
    double ideal = 12000000 * 8.0 / (100.0 * 4096 / (4096 + 82)) / 1000.0;
    double end = 0;
    for (const auto& f : res["flows"])
    {
        if (!f["fct_us"].is_null())
        {
            end = std::max(end, f["start_us"].get<double>() + f["fct_us"].get<double>());
        }
    }
    EXPECT_TRUE(s["flows_completed"].get<uint64_t>() < 6u || end > 2 * ideal)
        << s["flows_completed"] << " completed, the last at " << end << " us";
}

TEST(Trimming, RcGoesBackToTheFirstMissingPacket)
{
    // RC has no selective repeat: a trimmed header makes it NACK at once, but go-back-N resends
    // everything after it. Every trim is still accounted and nothing is dropped.
    auto res = RunText(Incast(true, "rc"));
    const auto& s = res["summary"];
    EXPECT_EQ(s["drops"]["total"].get<uint64_t>(), 0u);
    EXPECT_GT(s["trimmed_packets"].get<uint64_t>(), 0u);
    EXPECT_TRUE(s["conservation"]["balanced"].get<bool>());
}
