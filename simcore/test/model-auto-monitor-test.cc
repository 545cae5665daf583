/*
 * The automatic monitor (helper/auto-monitor.h): with monitor left on "auto", the result charts
 * the queues, ports and flows where things happen, chosen after the run from counters, says how
 * it chose them, and stays byte-identical from run to run.
 */
#include "helper/fabric-runner.h"
#include "scenario/scenario-parser.h"

#include <gtest/gtest.h>

#include <algorithm>

using namespace fabric;

namespace
{

/** Four senders on leaf1 each send to their own receiver on leaf0 over ONE 25G uplink: the
 *  bottleneck is leaf1's uplink queue, not a port toward a receiver. */
std::string
UplinkBottleneck(const std::string& monitor)
{
    return R"({"schema_version": 1, "name": "uplink", "seed": 1, "duration_us": 600, "warmup_us": 100,
      "topology": {"kind": "leaf_spine", "leaves": 2, "spines": 1, "hosts_per_leaf": 4,
                   "host_rate_gbps": 25, "fabric_rate_gbps": 25, "link_delay_us": 1},
      "traffic": [
        {"kind": "incast", "name": "a", "senders": ["h4"], "receiver": "h0", "size_bytes": 0},
        {"kind": "incast", "name": "b", "senders": ["h5"], "receiver": "h1", "size_bytes": 0},
        {"kind": "incast", "name": "c", "senders": ["h6"], "receiver": "h2", "size_bytes": 0},
        {"kind": "incast", "name": "d", "senders": ["h7"], "receiver": "h3", "size_bytes": 0}],
      "monitor": )" +
           monitor + "}";
}

nlohmann::ordered_json
RunScenario(const std::string& text)
{
    FabricRunner r(LoadScenario(text));
    EXPECT_EQ(r.Run(RunLimits(), nullptr), RunStatus::OK);
    return r.Results();
}

double
MaxOf(const nlohmann::ordered_json& values)
{
    double m = 0;
    for (const auto& v : values)
    {
        m = std::max(m, v.get<double>());
    }
    return m;
}

} // namespace

TEST(AutoMonitor, ChartsTheBusiestQueueNotTheReceivers)
{
    auto res = RunScenario(UplinkBottleneck(R"({"sample_interval_us": 5})"));
    const auto& queues = res["series"]["queues"];
    ASSERT_FALSE(queues.empty());
    // 4 x 25 Gbit/s into one 25 Gbit/s uplink: leaf1->spine0 is where the queue builds.
    EXPECT_EQ(queues.begin().key(), "leaf1->spine0");
    EXPECT_GT(MaxOf(queues.begin().value()), 10000);
    // The deepest charted queue is the summary's deepest queue, within what sampling can miss.
    double whole = res["summary"]["max_queue_bytes_whole_run"].get<double>();
    EXPECT_LE(MaxOf(queues.begin().value()), whole);
    EXPECT_GE(MaxOf(queues.begin().value()), 0.8 * whole);
    std::string how = res["series"]["selection"]["queues"].get<std::string>();
    EXPECT_EQ(how.rfind("auto: the ", 0), 0u) << how;
    EXPECT_NE(how.find("deepest"), std::string::npos);
}

TEST(AutoMonitor, ChartsPausedPortsAndSlowestFlows)
{
    auto res = RunScenario(UplinkBottleneck(R"({"sample_interval_us": 5})"));
    ASSERT_GT(res["summary"]["pfc_pauses_sent"].get<uint64_t>(), 0u);
    const auto& pause = res["series"]["pause"];
    ASSERT_FALSE(pause.empty());
    // every charted port was paused (1) or pausing (2) at some sample
    for (auto it = pause.begin(); it != pause.end(); ++it)
    {
        EXPECT_GT(MaxOf(it.value()), 0) << it.key();
    }
    EXPECT_NE(res["series"]["selection"]["ports"].get<std::string>().find("paused"), std::string::npos);
    // four long-lived flows: all four charted, said so
    EXPECT_EQ(res["series"]["flow_rates_gbps"].size(), 4u);
    EXPECT_NE(res["series"]["selection"]["flows"].get<std::string>().find("4 of 4 long-lived flows"),
              std::string::npos);
}

TEST(AutoMonitor, WholeRunAndAfterWarmupMaximaAreBothReported)
{
    auto res = RunScenario(UplinkBottleneck(R"({"sample_interval_us": 5})"));
    const auto& s = res["summary"];
    EXPECT_GE(s["max_queue_bytes_whole_run"].get<uint64_t>(), s["max_queue_bytes"].get<uint64_t>());
    for (const auto& q : s["queues"])
    {
        EXPECT_GE(q["max_bytes_whole_run"].get<uint64_t>(), q["max_bytes"].get<uint64_t>());
    }
}

TEST(AutoMonitor, ListedPortsAreKeptAndSaidSo)
{
    auto res = RunScenario(
        UplinkBottleneck(R"({"sample_interval_us": 5, "queues": ["leaf0->h0"], "flows": [1], "ports": ["leaf0->h0"]})"));
    ASSERT_EQ(res["series"]["queues"].size(), 1u);
    EXPECT_EQ(res["series"]["queues"].begin().key(), "leaf0->h0");
    EXPECT_EQ(res["series"]["flow_rates_gbps"].begin().key(), "1");
    EXPECT_EQ(res["series"]["selection"]["queues"].get<std::string>(), "listed in the scenario (monitor)");
}

TEST(AutoMonitor, SameScenarioSameChoice)
{
    std::string text = UplinkBottleneck(R"({"sample_interval_us": 5})");
    auto a = RunScenario(text);
    auto b = RunScenario(text);
    EXPECT_EQ(a["series"].dump(), b["series"].dump());
    EXPECT_EQ(a["summary"].dump(), b["summary"].dump());
}
