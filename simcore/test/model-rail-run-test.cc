/*
 * A short run on a rail_optimized fabric: flows on one rail across units, across rails inside
 * a unit, and between two NICs of one server all complete end to end, each byte delivered.
 */
#include "helper/fabric-runner.h"
#include "scenario/scenario-parser.h"

#include <gtest/gtest.h>

using namespace fabric;

TEST(RailRun, FlowsCrossRailsUnitsAndServersEndToEnd)
{
    // 2 units x 2 servers x 2 NICs: h0 srv0/rail0 (leaf0_0), h4 srv2/rail0 (leaf1_0),
    // h1 srv0/rail1 (leaf0_1), h2 srv1/rail0 (leaf0_0), h7 srv3/rail1 (leaf1_1).
    std::string text = R"({"schema_version": 1, "seed": 1, "duration_us": 400,
      "topology": {"kind": "rail_optimized", "units": 2, "servers_per_unit": 2,
                   "nics_per_server": 2, "spines": 2, "host_rate_gbps": 100,
                   "fabric_rate_gbps": 100},
      "telemetry": {"flow_paths": true},
      "traffic": [{"kind": "flows", "flows": [
        {"src": "h0", "dst": "h4", "size_bytes": 200000, "start_us": 0},
        {"src": "h1", "dst": "h2", "size_bytes": 100000, "start_us": 0},
        {"src": "h6", "dst": "h7", "size_bytes": 50000, "start_us": 5}]}]})";
    FabricRunner r(LoadScenario(text));
    ASSERT_EQ(r.Run(RunLimits(), nullptr), RunStatus::OK);
    auto res = r.Results();
    ASSERT_EQ(res["flows"].size(), 3u);
    const uint64_t sizes[3] = {200000, 100000, 50000};
    // Same rail, other unit: leaf0_0 -> a spine -> leaf1_0. Other rail, same unit: leaf0_1 ->
    // spine -> leaf0_0. Two NICs of one server (rails 0, 1): the fabric, leaf1_0 -> spine -> leaf1_1
    // (the NVLink path is a documented cost, not a link).
    const char* viaLeaves[3][2] = {{"leaf0_0", "leaf1_0"}, {"leaf0_1", "leaf0_0"},
                                   {"leaf1_0", "leaf1_1"}};
    for (std::size_t i = 0; i < 3; ++i)
    {
        const auto& f = res["flows"][i];
        SCOPED_TRACE(i);
        EXPECT_EQ(f["bytes_received"].get<uint64_t>(), sizes[i]);
        ASSERT_FALSE(f["fct_us"].is_null());
        EXPECT_GT(f["fct_us"].get<double>(), 0);
        const auto& path = f["path"];
        ASSERT_EQ(path.size(), 5u) << path.dump();
        EXPECT_EQ(path[1], viaLeaves[i][0]);
        EXPECT_EQ(path[2].get<std::string>().rfind("spine", 0), 0u);
        EXPECT_EQ(path[3], viaLeaves[i][1]);
    }
    EXPECT_EQ(res["summary"]["flows_completed"].get<uint64_t>(), 3u);
}
