/*
 * nic.processes_per_host (p) in the all_to_all and permutation generators: every sending
 * process talks to every receiving process, so a host pair carries p^2 flows; the transport
 * decides how many QP contexts they touch (docs/model.md, "Processes per host"):
 * RC one per flow, (N-1) p^2 per NIC; XRC one per (sending process, destination host),
 * (N-1) p; ERD one per sending process, p. With a QP-context cache smaller than RC's count and
 * larger than XRC's, RC misses on every packet (round robin under LRU) and its throughput
 * falls to serialization / (serialization + miss), while XRC and ERD keep line rate.
 */
#include "helper/fabric-runner.h"
#include "scenario/scenario-parser.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <iostream>
#include <map>
#include <set>

namespace
{

using nlohmann::json;

constexpr int kHosts = 4; // 2 leaves x 2 hosts

json
AllToAll(const std::string& transport, int p, uint64_t sizeBytes, uint32_t cacheEntries)
{
    // 4-frame messages: ERD counts a message delivered once whole, and a long-lived flow
    // among 48 on a NIC sends ~2 Gbit/s, too little to finish a default 64 KB message.
    json nic = {{"transport", transport},
                {"processes_per_host", p},
                {"message_bytes", 4000},
                {"cc", {{"algorithm", "none"}}}};
    if (cacheEntries > 0)
    {
        nic["qp_cache_entries"] = cacheEntries;
        nic["qp_cache_miss_ns"] = 500;
    }
    return {{"schema_version", 1},
            {"seed", 1},
            {"duration_us", 200},
            {"warmup_us", 20},
            {"topology",
             {{"kind", "leaf_spine"},
              {"leaves", 2},
              {"spines", 2},
              {"hosts_per_leaf", 2},
              {"host_rate_gbps", 100},
              {"fabric_rate_gbps", 400}}},
            {"traffic", json::array({{{"kind", "all_to_all"}, {"size_bytes", sizeBytes}}})},
            {"nic", nic}};
}

nlohmann::ordered_json
RunScenario(const json& doc)
{
    fabric::Scenario s = fabric::LoadScenario(doc.dump());
    fabric::FabricRunner r(s);
    r.Run(fabric::RunLimits(), nullptr);
    return r.Results();
}

} // namespace

TEST(Processes, AllToAllOpensProcessPairFlowsAndSplitsBytes)
{
    for (int p : {1, 2, 4})
    {
        // 160,000 bytes per host pair split over p^2 process pairs: 160000 / 16 = 10000 at p 4.
        fabric::Scenario s = fabric::LoadScenario(AllToAll("rc", p, 160000, 0).dump());
        ASSERT_EQ(s.flows.size(), static_cast<size_t>(kHosts * (kHosts - 1) * p * p));
        std::map<std::pair<uint32_t, uint32_t>, uint64_t> pairBytes;
        std::map<std::pair<uint32_t, uint32_t>, std::set<uint32_t>> pairProcesses;
        for (const auto& f : s.flows)
        {
            EXPECT_EQ(f.sizeBytes, 160000u / (p * p));
            pairBytes[{f.src, f.dst}] += f.sizeBytes;
            pairProcesses[{f.src, f.dst}].insert(f.srcProcess);
        }
        ASSERT_EQ(pairBytes.size(), 12u);
        for (const auto& [pair, bytes] : pairBytes)
        {
            EXPECT_EQ(bytes, 160000u);                                  // p does not change load
            EXPECT_EQ(pairProcesses[pair].size(), static_cast<size_t>(p)); // every sender process
        }
    }
}

TEST(Processes, UnevenSplitKeepsEveryByte)
{
    // 1001 bytes over 4 process pairs: 251, 250, 250, 250. 3 bytes over 4 pairs: three flows.
    fabric::Scenario s = fabric::LoadScenario(AllToAll("rc", 2, 1001, 0).dump());
    ASSERT_EQ(s.flows.size(), 48u);
    EXPECT_EQ(s.flows[0].sizeBytes, 251u);
    EXPECT_EQ(s.flows[1].sizeBytes, 250u);
    fabric::Scenario tiny = fabric::LoadScenario(AllToAll("rc", 2, 3, 0).dump());
    EXPECT_EQ(tiny.flows.size(), 12u * 3);
    for (const auto& f : tiny.flows)
    {
        EXPECT_EQ(f.sizeBytes, 1u);
    }
}

TEST(Processes, ContextsPerNicFollowTheTransport)
{
    // N = 4 hosts. Per NIC: RC (N-1) p^2 = 12 / 48 contexts (qps_per_nic the same), XRC
    // (N-1) p = 6 / 12 send contexts touched (qps_per_nic N p = 8 / 16: the receive side
    // counts too), ERD p = 2 / 4.
    for (int p : {2, 4})
    {
        uint64_t p2 = static_cast<uint64_t>(p) * p;
        std::map<std::string, std::pair<uint64_t, uint64_t>> want{
            {"rc", {3 * p2, 3 * p2}}, {"xrc", {3 * p, 4 * p}}, {"erd", {p, p}}};
        for (const auto& [transport, counts] : want)
        {
            auto res = RunScenario(AllToAll(transport, p, 64000, 0));
            for (const auto& nic : res["transport"]["nics"])
            {
                EXPECT_EQ(nic["qp_contexts_used"].get<uint64_t>(), counts.first)
                    << transport << " p " << p;
                EXPECT_EQ(nic["qps_per_nic"].get<uint64_t>(), counts.second)
                    << transport << " p " << p;
            }
            // Every flow completes (64000 / p^2 bytes each, 200 us is ample).
            for (const auto& f : res["flows"])
            {
                EXPECT_FALSE(f["fct_us"].is_null()) << transport << " flow " << f["id"];
            }
        }
    }
}

TEST(Processes, SmallQpCacheCostsRcOnly)
{
    // p = 4, a 16-entry cache, 500 ns per miss, long-lived all-to-all. RC touches 48 contexts
    // per NIC in round robin: LRU misses on every packet, so each sender sends one 1082-byte
    // frame (1000 payload, 86.56 ns at 100G) per 586.56 ns: 14.76 % of line, while XRC (12
    // contexts) and ERD (4) fit and miss only once per context.
    const uint32_t cache = 16;
    std::map<std::string, double> gbps;
    std::map<std::string, uint64_t> misses;
    for (const std::string t : {"rc", "xrc", "erd"})
    {
        auto res = RunScenario(AllToAll(t, 4, 0, cache));
        gbps[t] = res["summary"]["throughput_gbps"].get<double>();
        misses[t] = res["transport"]["qp_cache_misses"].get<uint64_t>();
        std::cout << t << ": " << gbps[t] << " Gbit/s, " << misses[t] << " misses" << std::endl;
    }
    // summary.throughput_gbps sums the hosts: per host, against the 1000 / 1082 line goodput.
    const double line = 100.0 * 1000 / 1082;
    double serNs = 1082 * 8 / 100.0;
    EXPECT_NEAR(gbps["rc"] / kHosts / line, serNs / (serNs + 500), 0.01);
    // XRC and ERD are not limited by the cache: near line rate (the all-to-all's receivers,
    // each fed by three senders at exactly its line rate, queue and pause a little).
    EXPECT_GT(gbps["xrc"] / kHosts, 0.85 * line);
    EXPECT_GT(gbps["erd"] / kHosts, 0.85 * line * 1082 / 1103); // 21 header bytes more
    EXPECT_EQ(misses["xrc"], static_cast<uint64_t>(kHosts) * 12); // each context loads once
    EXPECT_EQ(misses["erd"], static_cast<uint64_t>(kHosts) * 4);
}
