/*
 * multi_plane topology (docs/scenario-format.md): ids, counts, each host's port k on its rail's
 * leaf in plane k, planes sharing no switch, the stats, all by hand from the parameters; bad
 * input naming its field; explicit hosts with one link per plane accepted, two links into one
 * plane refused.
 */
#include "scenario/scenario-error.h"
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

/** The ids a host's links lead to, in link order (its NIC's ports). */
std::vector<std::string>
PortsOf(const Topology& t, const std::string& host)
{
    uint32_t h = t.index.at(host);
    std::vector<std::string> out;
    for (const auto& l : t.links)
    {
        if (l.a == h || l.b == h)
        {
            out.push_back(t.nodes[l.a == h ? l.b : l.a].id);
        }
    }
    return out;
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
    return "";
}

/** 3 planes; 2 units x 2 servers x 2 NICs; 2 spines per plane; 200G ports, 100G fabric. */
json
SmallPlanes()
{
    return json::parse(R"({"kind": "multi_plane", "planes": 3, "units": 2, "servers_per_unit": 2,
        "nics_per_server": 2, "spines": 2, "host_rate_gbps": 200, "fabric_rate_gbps": 100})");
}

} // namespace

TEST(MultiPlaneTopology, IdsCountsAndPlanes)
{
    Topology t = fabric::BuildTopology(SmallPlanes()).topo;
    // By hand: 2 x 2 x 2 = 8 hosts; per plane 2 units x 2 rails = 4 leaves + 2 spines, x 3 = 18
    // switches; links per plane 8 host + 4 x 2 leaf-spine = 16, x 3 = 48.
    EXPECT_EQ(t.nodes.size(), 26u);
    EXPECT_EQ(t.links.size(), 48u);
    EXPECT_EQ(t.stats.at("hosts"), 8);
    EXPECT_EQ(t.stats.at("switches"), 18);
    EXPECT_EQ(t.stats.at("planes"), 3);
    EXPECT_EQ(t.stats.at("nic_rate_gbps"), 600);
    // Per leaf: 2 servers x 200G down over 2 spines x 100G up = 2:1.
    EXPECT_EQ(t.stats.at("oversubscription"), 2);
    // Node order: hosts, leaves plane by plane, spines plane by plane.
    std::vector<std::string> ids;
    for (const auto& n : t.nodes)
    {
        ids.push_back(n.id);
    }
    std::vector<std::string> expected = {"h0", "h1", "h2", "h3", "h4", "h5", "h6", "h7"};
    for (int k = 0; k < 3; ++k)
    {
        for (const char* leaf : {"leaf0_0", "leaf0_1", "leaf1_0", "leaf1_1"})
        {
            expected.push_back("p" + std::to_string(k) + "-" + leaf);
        }
    }
    for (int k = 0; k < 3; ++k)
    {
        for (int j = 0; j < 2; ++j)
        {
            expected.push_back("p" + std::to_string(k) + "-spine" + std::to_string(j));
        }
    }
    EXPECT_EQ(ids, expected);
    // h5: server 2 (unit 1), rail 1: port k on p{k}-leaf1_1; server and rail as rail_optimized.
    EXPECT_EQ(PortsOf(t, "h5"),
              (std::vector<std::string>{"p0-leaf1_1", "p1-leaf1_1", "p2-leaf1_1"}));
    const auto& h5 = t.nodes[t.index.at("h5")];
    EXPECT_EQ(h5.server, "srv2");
    EXPECT_EQ(h5.rail, 1);
    EXPECT_EQ(h5.group, "p0-leaf1_1");
    EXPECT_EQ(t.nodes[t.index.at("p2-leaf1_0")].group, "su1");
    EXPECT_EQ(t.nodes[t.index.at("p1-spine0")].group, "p1-spines");
    // Planes share nothing: every switch-switch link joins two switches of one plane.
    for (const auto& l : t.links)
    {
        const auto& a = t.nodes[l.a];
        const auto& b = t.nodes[l.b];
        if (!a.isHost && !b.isHost)
        {
            EXPECT_EQ(a.id.substr(0, 3), b.id.substr(0, 3)) << a.id << " - " << b.id;
            EXPECT_EQ(l.rateGbps, 100);
        }
        else
        {
            EXPECT_EQ(l.rateGbps, 200);
        }
    }
    // The host's attachment (pods, tor_pairs, pingmesh scopes) is its plane-0 leaf.
    auto attach = fabric::HostAttachments(t);
    EXPECT_EQ(t.nodes[attach[t.index.at("h5")]].id, "p0-leaf1_1");
}

TEST(MultiPlaneTopology, BadInputNamesTheField)
{
    json t = SmallPlanes();
    t["planes"] = 9;
    EXPECT_EQ(ErrorOf(t), "topology.planes: must be an integer >= 1 and <= 8");
    t["planes"] = 0;
    EXPECT_EQ(ErrorOf(t), "topology.planes: must be an integer >= 1 and <= 8");
    t = SmallPlanes();
    t["rails"] = 2;
    EXPECT_NE(ErrorOf(t).find("topology.rails: unknown field"), std::string::npos) << ErrorOf(t);
    // 64 x 256 x 16 = 262,144 hosts alone exceed the 150,000-node limit: refused from the
    // parameters before anything is built.
    t = json::parse(R"({"kind": "multi_plane", "planes": 8, "units": 64, "servers_per_unit": 256,
                        "nics_per_server": 16})");
    EXPECT_EQ(ErrorOf(t).rfind("topology: expands to", 0), 0u) << ErrorOf(t);
}

TEST(MultiPlaneTopology, ExplicitHostsMayHaveOneLinkPerPlane)
{
    // Two planes (a, b), joined by nothing but the hosts: h0 and h1 have a link to each.
    json t = json::parse(R"({"kind": "explicit",
      "nodes": [{"id": "h0", "kind": "host"}, {"id": "h1", "kind": "host"},
                {"id": "a", "kind": "switch"}, {"id": "b", "kind": "switch"}],
      "links": [{"a": "h0", "b": "a", "rate_gbps": 100, "delay_us": 1},
                {"a": "h0", "b": "b", "rate_gbps": 100, "delay_us": 1},
                {"a": "h1", "b": "a", "rate_gbps": 100, "delay_us": 1},
                {"a": "h1", "b": "b", "rate_gbps": 100, "delay_us": 1}]})");
    Topology topo = fabric::BuildTopology(t).topo;
    EXPECT_EQ(topo.nodes[0].group, "a");
    // a and b joined by a switch link are one plane: h0's two links are refused.
    t["links"].push_back(json::parse(R"({"a": "a", "b": "b", "rate_gbps": 100, "delay_us": 1})"));
    EXPECT_EQ(ErrorOf(t), "topology.nodes[0].id: host \"h0\" has two links into one plane (\"a\" and "
                          "\"b\" are joined by switches): a host has one link, or one to a switch "
                          "of each plane");
}
