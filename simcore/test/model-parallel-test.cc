/*
 * The parallel engine (--threads): a k=4 fat tree with PFC, ECN, DCQCN, a WebSearch workload,
 * an incast, a link failure, a PFC storm with watchdogs, telemetry and sampling gives the same
 * result bytes on 1, 2, 3 and 4 threads (everything outside perf), and the runs on several
 * threads really were split (frames crossed partitions); so do collectives and flow lists whose
 * flows wait for flows, and the partitions share the expected load. More partitions than
 * threads (each thread taking its share in turn; a large fabric is split so even on one thread)
 * give the same bytes too. What cannot run on threads yet (the DCI accelerator) is refused in
 * one line, and runs whole.
 */
#include "helper/fabric-run.h"
#include "helper/fabric-runner.h"
#include "helper/partitioner.h"
#include "scenario/scenario-parser.h"

#include <gtest/gtest.h>

#include <cstdlib>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <string>

using namespace fabric;
using nlohmann::json;

namespace
{

json
FatTreeDoc()
{
    return {
        {"schema_version", 1},
        {"seed", 11},
        {"duration_us", 400},
        {"warmup_us", 50},
        {"topology",
         {{"kind", "fat_tree"}, {"k", 4}, {"host_rate_gbps", 100}, {"fabric_rate_gbps", 100},
          {"link_delay_us", 1}}},
        {"switch",
         {{"buffer_bytes", 2000000},
          {"ecn", {{"kmin_bytes", 20000}, {"kmax_bytes", 200000}, {"pmax", 0.1}}}}},
        {"nic", {{"cc", {{"algorithm", "dcqcn"}}}}},
        {"traffic",
         {{{"kind", "workload"}, {"distribution", "websearch"}, {"load", 0.5}},
          {{"kind", "incast"},
           {"senders", {"h4", "h8", "h12", "h13"}},
           {"receiver", "h1"},
           {"size_bytes", 300000}}}},
        {"faults",
         {{{"kind", "link_down"},
           {"link", "agg0_0->core0"},
           {"start_us", 120},
           {"convergence_us", 20}},
          {{"kind", "pfc_storm"}, {"host", "h9"}, {"start_us", 150}}}},
        {"watchdogs",
         {{"switch", {{"enabled", true}, {"detect_us", 100}, {"restore_us", 1000}}},
          {"nic", {{"enabled", true}, {"detect_us", 150}}}}},
        {"telemetry", {{"flow_paths", true}, {"port_counters", true}}},
        {"monitor", {{"sample_interval_us", 10}, {"flows", "all"}}}};
}

struct Outcome
{
    std::string result; ///< Results() without perf
    uint64_t events = 0;
    json parallel;
};

Outcome
RunWith(const Scenario& scenario, uint32_t threads, uint32_t partitions = 0)
{
    FabricRunner runner(scenario);
    RunLimits limits;
    limits.threads = threads;
    limits.partitions = partitions;
    runner.Run(limits, nullptr);
    Outcome o;
    json r = runner.Results();
    o.result = r.dump();
    o.events = runner.Events();
    o.parallel = runner.Parallel();
    return o;
}

/** The busiest partition's events over the mean (1.00: an even cut). */
double
BusiestOverMean(const json& parallel)
{
    double sum = 0;
    double most = 0;
    const json& events = parallel["events_per_partition"];
    for (const auto& n : events)
    {
        sum += n.get<double>();
        most = std::max(most, n.get<double>());
    }
    return most / (sum / static_cast<double>(events.size()));
}

} // namespace

TEST(Parallel, SameBytesOnEveryThreadCount)
{
    Scenario s = LoadScenario(FatTreeDoc().dump());
    ASSERT_TRUE(ParallelRefusal(s).empty());
    Outcome one = RunWith(s, 1);
    EXPECT_EQ(one.parallel["partitions"], 1);
    json r = json::parse(one.result);
    // The run exercised what it claims: PFC pauses, ECN marks, the storm and the failure.
    EXPECT_GT(r["summary"]["counters"]["whole_run"]["pfc_pauses_sent"].get<double>(), 0);
    EXPECT_GT(r["summary"]["counters"]["whole_run"]["ecn_marked_packets"].get<double>(), 0);
    ASSERT_TRUE(r.contains("faults"));
    for (uint32_t threads : {2u, 3u, 4u})
    {
        Outcome o = RunWith(s, threads);
        SCOPED_TRACE("threads " + std::to_string(threads));
        EXPECT_EQ(o.parallel["partitions"], threads);
        EXPECT_GT(o.parallel["frames_between_partitions"].get<uint64_t>(), 0u);
        EXPECT_EQ(o.parallel["lookahead_ns"].get<double>(), 1000.0);
        EXPECT_EQ(o.events, one.events);
        EXPECT_TRUE(o.result == one.result) << "results differ from one thread's";
    }
}

TEST(Parallel, EveryPrefetchModeGivesTheSameBytes)
{
    // The prefetch modes (docs/model.md, "Engine") only fetch memory: the lookahead's stages and
    // the one-event form give the same bytes as none, on one thread and on several (the small
    // fabric here would run without prefetch by the size rule, so the modes are forced).
    Scenario s = LoadScenario(FatTreeDoc().dump());
    setenv("FABRICSIM_PREFETCH", "none", 1);
    Outcome none = RunWith(s, 1);
    for (const char* mode : {"next", "ahead"})
    {
        setenv("FABRICSIM_PREFETCH", mode, 1);
        for (uint32_t threads : {1u, 3u})
        {
            SCOPED_TRACE(std::string(mode) + ", threads " + std::to_string(threads));
            Outcome o = RunWith(s, threads);
            EXPECT_EQ(o.events, none.events);
            EXPECT_TRUE(o.result == none.result) << "results differ from no prefetch's";
        }
    }
    unsetenv("FABRICSIM_PREFETCH");
}

TEST(Parallel, EveryPartitionRunsItsShare)
{
    Scenario s = LoadScenario(FatTreeDoc().dump());
    Outcome o = RunWith(s, 2);
    uint64_t sum = 0;
    for (const auto& n : o.parallel["events_per_partition"])
    {
        EXPECT_GT(n.get<uint64_t>(), 0u);
        sum += n.get<uint64_t>();
    }
    // Partition events plus the run's own events between windows make the run's event count.
    EXPECT_EQ(sum + o.parallel["global_events"].get<uint64_t>(), o.events + 1); // + warm-up
}

TEST(Parallel, PartitionsShareTheExpectedLoadNotThePorts)
{
    // Traffic between pods 0 and 1 only (long-lived flows): a cut by port count would leave
    // one partition the idle pods (events 91,715 / 52,340 / 21,678 at 3 threads before the
    // cut weighed expected frames); by expected load the busiest holds under 1.4x the mean.
    json flows = json::array();
    for (int i = 0; i < 4; ++i)
    {
        flows.push_back({{"src", "h" + std::to_string(i)},
                         {"dst", "h" + std::to_string(i + 4)},
                         {"size_bytes", 0},
                         {"start_us", 0}});
        flows.push_back({{"src", "h" + std::to_string(i + 4)},
                         {"dst", "h" + std::to_string((i + 1) % 4)},
                         {"size_bytes", 0},
                         {"start_us", 0}});
    }
    json doc = {{"schema_version", 1},
                {"seed", 3},
                {"duration_us", 200},
                {"topology",
                 {{"kind", "fat_tree"},
                  {"k", 4},
                  {"host_rate_gbps", 100},
                  {"fabric_rate_gbps", 100},
                  {"link_delay_us", 1}}},
                {"traffic", {{{"kind", "flows"}, {"flows", flows}}}}};
    Scenario s = LoadScenario(doc.dump());
    Outcome one = RunWith(s, 1);
    Outcome o = RunWith(s, 3);
    EXPECT_TRUE(o.result == one.result);
    ASSERT_EQ(o.parallel["partitions"], 3);
    EXPECT_LT(BusiestOverMean(o.parallel), 1.4);
}

TEST(Parallel, CollectivesAndFlowsThatWaitGiveTheSameBytes)
{
    // Steps that wait for steps (ring and tree, NVLink inside servers, iterations): the hosts a
    // dependency joins share a partition, a completion acknowledged to the sender goes through
    // the window's hand-over, so the run splits and stays exact.
    for (const char* name : {"collective-hierarchical-iterations.json", "flow-list-after.json"})
    {
        SCOPED_TRACE(name);
        std::string path = std::string(FABRICSIM_EXAMPLES_DIR) + "/valid/" + name;
        Scenario s = LoadScenario(ReadScenarioFile(path));
        ASSERT_TRUE(ParallelRefusal(s).empty());
        Outcome one = RunWith(s, 1);
        for (uint32_t threads : {2u, 3u})
        {
            Outcome o = RunWith(s, threads);
            EXPECT_EQ(o.parallel["partitions"], threads);
            EXPECT_TRUE(o.result == one.result) << "threads " << threads;
        }
    }
}

TEST(Parallel, ARingSpreadsOverThePartitions)
{
    // A ring all-reduce over 16 hosts of 4 leaves: each rank's next transfer on a connection
    // waits for the one a window before it, which its sender learns of when the ACK is back
    // (at least the path's propagation), so ring neighbours need not share a partition. When
    // that start had no delay, the whole ring was one unit and one partition ran all the
    // hosts (here busiest over mean 1.73 at 3 threads; now 1.04).
    json hosts = json::array();
    for (int i = 0; i < 16; ++i)
    {
        hosts.push_back("h" + std::to_string(i));
    }
    json doc = {{"schema_version", 1},
                {"seed", 5},
                {"duration_us", 800},
                {"topology",
                 {{"kind", "leaf_spine"},
                  {"leaves", 4},
                  {"spines", 2},
                  {"hosts_per_leaf", 4},
                  {"host_rate_gbps", 100},
                  {"fabric_rate_gbps", 100},
                  {"link_delay_us", 1}}},
                {"traffic",
                 {{{"kind", "collective"},
                   {"op", "all_reduce"},
                   {"algorithm", "ring"},
                   {"message_bytes", 1048576},
                   {"iterations", 2},
                   {"compute_us", 5},
                   {"hosts", hosts}}}}};
    Scenario s = LoadScenario(doc.dump());
    ASSERT_TRUE(ParallelRefusal(s).empty());
    Outcome one = RunWith(s, 1);
    json r = json::parse(one.result);
    ASSERT_TRUE(r["jobs"][0]["completed"].get<bool>());
    Outcome o = RunWith(s, 3);
    EXPECT_TRUE(o.result == one.result);
    ASSERT_EQ(o.parallel["partitions"], 3);
    EXPECT_LT(BusiestOverMean(o.parallel), 1.3);
}

TEST(Parallel, RefusesWhatRunsOnOneThread)
{
    std::string path = std::string(FABRICSIM_EXAMPLES_DIR) + "/valid/dci-accelerator-bdp.json";
    Scenario s = LoadScenario(ReadScenarioFile(path));
    std::string why = ParallelRefusal(s);
    EXPECT_NE(why.find("--threads 1"), std::string::npos) << why;
    EXPECT_NE(why.find("DCI accelerator"), std::string::npos) << why;
    EXPECT_EQ(why.find('\n'), std::string::npos);
}

TEST(Parallel, MorePartitionsThanThreadsGiveTheSameBytes)
{
    // Each thread runs a contiguous range of partitions one after another in every window
    // (FabricSimulatorImpl::RunThreadWindows); the counters follow the partition, not the thread.
    Scenario s = LoadScenario(FatTreeDoc().dump());
    Outcome whole = RunWith(s, 1, 1);
    ASSERT_EQ(whole.parallel["partitions"], 1);
    for (auto [threads, parts] : {std::pair{1u, 2u}, {1u, 5u}, {2u, 5u}, {3u, 8u}, {4u, 20u}})
    {
        SCOPED_TRACE(std::to_string(threads) + " threads, " + std::to_string(parts) +
                     " partitions");
        Outcome o = RunWith(s, threads, parts);
        EXPECT_EQ(o.parallel["threads"], threads);
        EXPECT_EQ(o.parallel["partitions"], parts);
        EXPECT_EQ(o.parallel["events_per_partition"].size(), parts);
        EXPECT_GT(o.parallel["frames_between_partitions"].get<uint64_t>(), 0u);
        EXPECT_EQ(o.events, whole.events);
        EXPECT_TRUE(o.result == whole.result) << "results differ from the whole fabric's";
    }
}

TEST(Parallel, ALargeFabricRunsSplitOnOneThread)
{
    // The size rule (RunController): from 2,048 ports a run takes partitions of about 384 ports
    // even on one thread. A k=12 fat tree has 3,024 ports (432 hosts, 180 switches of 12): at
    // most 7 (the cut by expected load makes 6 here); a k=8 one 896: whole. The split gives the
    // bytes of the whole fabric.
    json doc = {{"schema_version", 1},
                {"seed", 3},
                {"duration_us", 15},
                {"topology",
                 {{"kind", "fat_tree"}, {"k", 12}, {"host_rate_gbps", 100},
                  {"fabric_rate_gbps", 100}, {"link_delay_us", 1}}},
                {"traffic",
                 {{{"kind", "workload"}, {"distribution", "websearch"}, {"load", 0.3}}}}};
    Scenario big = LoadScenario(doc.dump());
    Outcome split = RunWith(big, 1);
    EXPECT_EQ(split.parallel["threads"], 1);
    EXPECT_GE(split.parallel["partitions"].get<int>(), 5);
    EXPECT_LE(split.parallel["partitions"].get<int>(), 7);
    EXPECT_GT(split.parallel["frames_between_partitions"].get<uint64_t>(), 0u);
    Outcome whole = RunWith(big, 1, 1);
    EXPECT_EQ(whole.parallel["partitions"], 1);
    EXPECT_EQ(split.events, whole.events);
    EXPECT_TRUE(split.result == whole.result);
    // Two threads on it take the same partitions between them.
    Outcome two = RunWith(big, 2);
    EXPECT_EQ(two.parallel["threads"], 2);
    EXPECT_EQ(two.parallel["partitions"], split.parallel["partitions"]);
    EXPECT_TRUE(two.result == whole.result);

    doc["topology"]["k"] = 8;
    Outcome small = RunWith(LoadScenario(doc.dump()), 1);
    EXPECT_EQ(small.parallel["partitions"], 1);
}

TEST(Parallel, WhatRunsOnOneThreadRunsWhole)
{
    // Partitions asked for (FABRICSIM_PARTITIONS, or the size rule) never split what
    // ParallelRefusal names: the DCI accelerator's run stays whole on its one thread.
    std::string path = std::string(FABRICSIM_EXAMPLES_DIR) + "/valid/dci-accelerator-bdp.json";
    Scenario s = LoadScenario(ReadScenarioFile(path));
    ASSERT_FALSE(ParallelRefusal(s).empty());
    Outcome o = RunWith(s, 1, 4);
    EXPECT_EQ(o.parallel["partitions"], 1);
}
