/*
 * rail_optimized topology (docs/scenario-format.md): ids, counts, every rail's NIC on its leaf
 * and the oversubscription, all computed by hand in the test from the parameters; hosts of
 * explicit topologies carrying a server and so a rail; bad input naming its field.
 */
#include "scenario/scenario-error.h"
#include "scenario/scenario-parser.h"
#include "scenario/topology-queries.h"
#include "scenario/topology-reader.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace
{

using fabric::Topology;
using nlohmann::json;

/** The one link a host has: the id of its other end. */
std::string
LeafOf(const Topology& t, const std::string& host)
{
    uint32_t h = t.index.at(host);
    std::string leaf;
    int links = 0;
    for (const auto& l : t.links)
    {
        if (l.a == h || l.b == h)
        {
            leaf = t.nodes[l.a == h ? l.b : l.a].id;
            ++links;
        }
    }
    EXPECT_EQ(links, 1) << host;
    return leaf;
}

/** 2 units x 2 servers x 2 NICs, 2 spines, 400G NICs, 200G fabric links. */
json
SmallRail()
{
    return json::parse(R"({"kind": "rail_optimized", "units": 2, "servers_per_unit": 2,
        "nics_per_server": 2, "spines": 2, "host_rate_gbps": 400, "fabric_rate_gbps": 200,
        "link_delay_us": 0.5})");
}

std::string
ErrorOf(const json& topo)
{
    try
    {
        fabric::BuildTopology(topo);
    }
    catch (const fabric::ScenarioError& e)
    {
        return e.what();
    }
    return "accepted";
}

} // namespace

TEST(RailOptimized, SmallCaseIdsAndCountsByHand)
{
    Topology t = fabric::BuildTopology(SmallRail()).topo;
    // 2 x 2 servers x 2 NICs = 8 hosts; 2 units x 2 rails = 4 leaves; 2 spines.
    std::vector<std::string> ids = {"h0",      "h1",      "h2",      "h3",      "h4",
                                    "h5",      "h6",      "h7",      "leaf0_0", "leaf0_1",
                                    "leaf1_0", "leaf1_1", "spine0",  "spine1"};
    ASSERT_EQ(t.nodes.size(), ids.size());
    for (std::size_t i = 0; i < ids.size(); ++i)
    {
        EXPECT_EQ(t.nodes[i].id, ids[i]);
        EXPECT_EQ(t.nodes[i].isHost, i < 8) << ids[i];
    }
    // 8 host links + 4 leaves x 2 spines.
    EXPECT_EQ(t.links.size(), 16u);
    EXPECT_EQ(t.stats.at("hosts"), 8);
    EXPECT_EQ(t.stats.at("switches"), 6);
    EXPECT_EQ(t.stats.at("links"), 16);
    EXPECT_EQ(t.stats.at("servers"), 4);
    EXPECT_EQ(t.stats.at("rails"), 2);
    // Per leaf: 2 servers x 400 down, 2 spines x 200 up: 800 / 400 = 2.
    EXPECT_DOUBLE_EQ(t.stats.at("oversubscription"), 2.0);
    EXPECT_DOUBLE_EQ(t.stats.at("nvlink_gbps"), 3600.0);
    EXPECT_DOUBLE_EQ(t.links[0].rateGbps, 400);
    EXPECT_DOUBLE_EQ(t.links[8].rateGbps, 200);
    EXPECT_DOUBLE_EQ(t.links[15].delayUs, 0.5);
}

TEST(RailOptimized, NicIOfEveryServerOnLeafIOfItsUnit)
{
    Topology t = fabric::BuildTopology(SmallRail()).topo;
    // Written out: h{i} is server i / 2, rail i % 2; servers 0-1 are unit 0, 2-3 unit 1.
    const char* expected[8][3] = {{"h0", "srv0", "leaf0_0"}, {"h1", "srv0", "leaf0_1"},
                                  {"h2", "srv1", "leaf0_0"}, {"h3", "srv1", "leaf0_1"},
                                  {"h4", "srv2", "leaf1_0"}, {"h5", "srv2", "leaf1_1"},
                                  {"h6", "srv3", "leaf1_0"}, {"h7", "srv3", "leaf1_1"}};
    for (int i = 0; i < 8; ++i)
    {
        const auto& n = t.nodes[t.index.at(expected[i][0])];
        EXPECT_EQ(n.server, expected[i][1]) << expected[i][0];
        EXPECT_EQ(n.rail, i % 2) << expected[i][0];
        EXPECT_EQ(LeafOf(t, expected[i][0]), expected[i][2]);
        EXPECT_EQ(n.group, expected[i][2]);
    }
    // Every leaf links to every spine, and to nothing else above.
    for (const char* leaf : {"leaf0_0", "leaf0_1", "leaf1_0", "leaf1_1"})
    {
        EXPECT_EQ(t.nodes[t.index.at(leaf)].group.substr(0, 2), "su");
        int up = 0;
        for (const auto& l : t.links)
        {
            const std::string& a = t.nodes[l.a].id;
            const std::string& b = t.nodes[l.b].id;
            up += (a == leaf && b.rfind("spine", 0) == 0) || (b == leaf && a.rfind("spine", 0) == 0);
        }
        EXPECT_EQ(up, 2) << leaf;
    }
}

TEST(RailOptimized, LargerCaseRailsAndOversubscription)
{
    // A DGX SuperPOD-like unit: 32 servers x 8 NICs at 400G, 3 units, 16 spines at 400G.
    json topo = {{"kind", "rail_optimized"}, {"units", 3},       {"servers_per_unit", 32},
                 {"nics_per_server", 8},     {"spines", 16},     {"host_rate_gbps", 400},
                 {"fabric_rate_gbps", 400}};
    Topology t = fabric::BuildTopology(topo).topo;
    EXPECT_EQ(t.nodes.size(), 3u * 32 * 8 + 3 * 8 + 16);
    EXPECT_EQ(t.links.size(), 3u * 32 * 8 + 3 * 8 * 16);
    EXPECT_DOUBLE_EQ(t.stats.at("oversubscription"), 32.0 * 400 / (16 * 400));
    for (uint32_t h : fabric::HostIndices(t))
    {
        const auto& n = t.nodes[h];
        int i = std::stoi(n.id.substr(1));
        int server = i / 8;
        ASSERT_EQ(n.server, "srv" + std::to_string(server));
        ASSERT_EQ(n.rail, i % 8);
        ASSERT_EQ(LeafOf(t, n.id),
                  "leaf" + std::to_string(server / 32) + "_" + std::to_string(i % 8));
    }
}

TEST(RailOptimized, BadInputNamesTheField)
{
    json t = SmallRail();
    t["servers_per_unit"] = 0;
    EXPECT_EQ(ErrorOf(t).rfind("topology.servers_per_unit: ", 0), 0u) << ErrorOf(t);
    t["servers_per_unit"] = 257;
    EXPECT_EQ(ErrorOf(t).rfind("topology.servers_per_unit: ", 0), 0u) << ErrorOf(t);
    t = SmallRail();
    t["nics_per_server"] = 17;
    EXPECT_EQ(ErrorOf(t).rfind("topology.nics_per_server: ", 0), 0u) << ErrorOf(t);
    t = SmallRail();
    t["gpus"] = 8;
    EXPECT_EQ(ErrorOf(t).rfind("topology.gpus: ", 0), 0u) << ErrorOf(t);
    // 64 units x 256 servers x 16 NICs = 262,144 hosts: refused from the parameters, past the
    // format's 150,000 nodes (32,768 hosts now fit it; the packet engine refuses them at run time).
    t = {{"kind", "rail_optimized"}, {"units", 64}, {"servers_per_unit", 256},
         {"nics_per_server", 16}};
    EXPECT_NE(ErrorOf(t).find("expands to 263172 nodes, more than the limit of 150000"),
              std::string::npos)
        << ErrorOf(t);
}

TEST(RailOptimized, ExpandPrintsServerAndRailOnlyWhereSet)
{
    fabric::Scenario s = fabric::LoadScenario(
        R"({"schema_version": 1, "topology": )" + SmallRail().dump() + "}");
    auto doc = fabric::ExpandJson(s.topo);
    EXPECT_EQ(doc["nodes"][5]["server"], "srv2");
    EXPECT_EQ(doc["nodes"][5]["rail"], 1);
    EXPECT_FALSE(doc["nodes"][8].contains("server")); // leaf0_0
    EXPECT_DOUBLE_EQ(doc["stats"]["oversubscription"].get<double>(), 2.0);
    fabric::Scenario ls = fabric::LoadScenario(
        R"({"schema_version": 1, "topology": {"kind": "leaf_spine"}})");
    EXPECT_FALSE(fabric::ExpandJson(ls.topo)["nodes"][0].contains("server"));
}

TEST(Explicit, HostsCarryAServerAndTheirRailIsTheirIndexInIt)
{
    json topo = json::parse(R"({"kind": "explicit",
        "nodes": [{"id": "s", "kind": "switch"},
                  {"id": "a", "kind": "host", "server": "box1"},
                  {"id": "b", "kind": "host", "server": "box2"},
                  {"id": "c", "kind": "host", "server": "box1"},
                  {"id": "d", "kind": "host"}],
        "links": [{"a": "a", "b": "s", "rate_gbps": 100, "delay_us": 1},
                  {"a": "b", "b": "s", "rate_gbps": 100, "delay_us": 1},
                  {"a": "c", "b": "s", "rate_gbps": 100, "delay_us": 1},
                  {"a": "d", "b": "s", "rate_gbps": 100, "delay_us": 1}]})");
    Topology t = fabric::BuildTopology(topo).topo;
    EXPECT_EQ(t.nodes[1].server, "box1");
    EXPECT_EQ(t.nodes[1].rail, 0);
    EXPECT_EQ(t.nodes[2].rail, 0);
    EXPECT_EQ(t.nodes[3].server, "box1");
    EXPECT_EQ(t.nodes[3].rail, 1);
    EXPECT_EQ(t.nodes[4].server, "");
    topo["nodes"][0]["server"] = "box1";
    EXPECT_EQ(ErrorOf(topo),
              "topology.nodes[0].server: only a host (a NIC) belongs to a server");
    topo["nodes"][0].erase("server");
    topo["nodes"][1]["server"] = "bad id";
    EXPECT_EQ(ErrorOf(topo).rfind("topology.nodes[1].server: must match", 0), 0u);
}
