/*
 * Ring programs (model/fabric-config.h, RingProgram; helper/flow-dependencies-rings.cc): a ring
 * collective run without its transfers listed gives the same result bytes as the same ring
 * listed transfer by transfer, on every shape the program derives (channels, iterations with a
 * compute gap, NVLink and network positions, all_gather and reduce_scatter, two jobs, a run
 * cut before the end, DCQCN variants, sprayed and ERD transports) and on 2 threads; a program keeps
 * no row per transfer; an 8,192-rank ring all-reduce (134 M transfers), refused listed, loads as
 * one.
 */
#include "helper/fabric-runner.h"
#include "scenario/scenario-error.h"
#include "scenario/scenario-parser.h"

#include <gtest/gtest.h>

#include <string>

using namespace fabric;
using json = nlohmann::json;

namespace
{

json
Rail(uint32_t units, uint32_t servers, uint32_t nics)
{
    return {{"kind", "rail_optimized"}, {"units", units},    {"servers_per_unit", servers},
            {"nics_per_server", nics},  {"spines", 2},       {"host_rate_gbps", 100},
            {"fabric_rate_gbps", 100},  {"link_delay_us", 1}};
}

json
Doc(const json& topology,
    const json& traffic,
    double durationUs = 5000,
    const json& nic = json::object())
{
    json n = {{"mtu_bytes", 4096}};
    n.update(nic);
    return {{"schema_version", 1},  {"seed", 3},         {"duration_us", durationUs}, {"nic", n},
            {"topology", topology}, {"traffic", traffic}};
}

json
Ring(const std::string& op,
     uint64_t bytes,
     uint32_t channels,
     uint32_t iterations,
     double computeUs = 0)
{
    return {{"kind", "collective"},   {"op", op},
            {"algorithm", "ring"},    {"message_bytes", bytes},
            {"channels", channels},   {"iterations", iterations},
            {"compute_us", computeUs}};
}

Scenario
Load(const json& doc, uint64_t programsAbove)
{
    LoadOptions options;
    options.ringProgramsAbove = programsAbove;
    return LoadScenarioWith(doc.dump(), options).scenario;
}

json
RunRing(const Scenario& s, uint32_t threads, json* parallel = nullptr)
{
    FabricRunner runner(s);
    RunLimits limits;
    limits.threads = threads;
    runner.Run(limits, nullptr);
    json r = runner.Results();
    if (parallel)
    {
        *parallel = runner.Parallel();
    }
    r.erase("perf");
    return r;
}

/** The ring as a program and listed: same bytes; the program lists no transfer. */
void
ExpectSameAsListed(const json& doc)
{
    Scenario program = Load(doc, 1);
    Scenario listed = Load(doc, 0);
    ASSERT_FALSE(program.transfers.rings.empty());
    EXPECT_EQ(program.transfers.Size(), 0u);
    EXPECT_TRUE(listed.transfers.rings.empty());
    EXPECT_GT(listed.transfers.Size(), 0u);
    uint64_t total = 0;
    for (const RingProgram& r : program.transfers.rings)
    {
        total += r.Total();
    }
    EXPECT_EQ(total, listed.transfers.Size());
    json a = RunRing(program, 1);
    json b = RunRing(listed, 1);
    ASSERT_TRUE(a.contains("jobs"));
    EXPECT_GT(a["jobs"][0]["flows_completed"].get<uint64_t>(), 0u);
    EXPECT_EQ(a.dump(), b.dump());
}

} // namespace

TEST(RingProgram, RailRingWithChannelsIterationsAndComputeGapAsListed)
{
    // NVLink positions inside each server, network ones between servers of a rail
    ExpectSameAsListed(Doc(Rail(2, 2, 4), json::array({Ring("all_reduce", 4194304, 2, 3, 5)})));
}

TEST(RingProgram, LargeBlocksOnATwoMessageWindowAsListed)
{
    // 4 MiB blocks: each message also waits for the one two before it on its connection,
    // learnt with its ACK (the window binds when the ring is wider than it)
    ExpectSameAsListed(
        Doc(Rail(2, 2, 4), json::array({Ring("all_reduce", 67108864, 1, 1)}), 20000));
}

TEST(RingProgram, AllGatherAndReduceScatterAsListed)
{
    ExpectSameAsListed(Doc(Rail(2, 2, 4), json::array({Ring("all_gather", 1048576, 1, 2)})));
    ExpectSameAsListed(Doc(Rail(2, 2, 4), json::array({Ring("reduce_scatter", 65536, 3, 1)})));
}

TEST(RingProgram, LeafSpineSmallBlocksWideWindowAsListed)
{
    // 1 KiB blocks: a window of 2,048 messages, more than the connection's 20
    json ls = {{"kind", "leaf_spine"}, {"leaves", 2},           {"spines", 2},
               {"hosts_per_leaf", 3},  {"host_rate_gbps", 100}, {"fabric_rate_gbps", 100}};
    ExpectSameAsListed(Doc(ls, json::array({Ring("all_reduce", 6144, 1, 2, 1)})));
    ExpectSameAsListed(Doc(ls, json::array({Ring("all_reduce", 3000000, 3, 2)})));
}

TEST(RingProgram, TwoJobsAndARunCutShortAsListed)
{
    json a = Ring("all_reduce", 4194304, 2, 3, 5);
    a["job"] = "a";
    json b = Ring("all_reduce", 2097152, 1, 2);
    b["job"] = "b";
    ExpectSameAsListed(Doc(Rail(2, 2, 4), json::array({a, b})));
    // cut at 300 us: steps posted and not completed, others never posted
    ExpectSameAsListed(
        Doc(Rail(2, 2, 4), json::array({Ring("all_reduce", 4194304, 2, 3, 5)}), 300));
}

TEST(RingProgram, CongestionControlAndTransportsAsListed)
{
    json ring = Ring("all_reduce", 4194304, 2, 2);
    ExpectSameAsListed(
        Doc(Rail(2, 2, 4), json::array({ring}), 5000, {{"cc", {{"algorithm", "dcqcn_sampled"}}}}));
    ExpectSameAsListed(
        Doc(Rail(2, 2, 4), json::array({ring}), 5000, {{"cc", {{"algorithm", "none"}}}}));
    ExpectSameAsListed(Doc(Rail(2, 2, 4), json::array({ring}), 5000, {{"transport", "sprayed"}}));
    ExpectSameAsListed(Doc(Rail(2, 2, 4), json::array({ring}), 5000, {{"transport", "erd"}}));
}

TEST(RingProgram, SameBytesOnTwoThreads)
{
    Scenario s = Load(Doc(Rail(2, 2, 4), json::array({Ring("all_reduce", 4194304, 2, 3, 5)})), 1);
    ASSERT_FALSE(s.transfers.rings.empty());
    json parallel;
    json one = RunRing(s, 1);
    json two = RunRing(s, 2, &parallel);
    EXPECT_GE(parallel["partitions"].get<int>(), 2);
    EXPECT_EQ(one.dump(), two.dump());
}

TEST(RingProgram, EightThousandRanksLoadAsOneProgramNotListed)
{
    json doc = Doc(Rail(32, 32, 8), json::array({Ring("all_reduce", 1073741824, 1, 1)}), 100000);
    doc["switch"] = {{"buffer_bytes", 64000000}};
    Scenario s = Load(doc, kRingProgramsAboveTransfers);
    ASSERT_EQ(s.transfers.rings.size(), 1u);
    const RingProgram& r = s.transfers.rings[0];
    EXPECT_EQ(r.ranks, 8192u);
    EXPECT_EQ(r.steps, 2u * 8191u);
    EXPECT_EQ(r.Total(), 2ull * 8191u * 8192u); // 134,201,344 transfers
    EXPECT_EQ(r.blockBytes, 131072u);
    EXPECT_EQ(r.window, 16u); // 16 x 128 KiB = the connection's 2 MiB in flight
    EXPECT_EQ(s.flows.size(), 8192u);
    EXPECT_EQ(s.transfers.Size(), 0u);
    try
    {
        Load(doc, 0);
        ADD_FAILURE() << "a listed 8,192-rank ring should be refused";
    }
    catch (const ScenarioError& e)
    {
        EXPECT_NE(std::string(e.what()).find("more than the limit"), std::string::npos) << e.what();
    }
}
