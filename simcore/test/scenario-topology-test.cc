/*
 * Topology generators: node and link counts, oversubscription and delays computed by hand
 * from the parameters; every host reaches every other host.
 */
#include "scenario/scenario-error.h"
#include "scenario/scenario-contract.h"
#include "scenario/topology-queries.h"
#include "scenario/topology-reader.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <deque>

namespace
{

using fabric::Topology;

std::size_t
CountHosts(const Topology& t)
{
    std::size_t n = 0;
    for (const auto& node : t.nodes)
    {
        n += node.isHost ? 1 : 0;
    }
    return n;
}

/** Nodes reached from `from` by breadth-first search over the links. */
std::size_t
Reached(const Topology& t, uint32_t from)
{
    auto adj = fabric::Adjacency(t);
    std::vector<bool> seen(t.nodes.size(), false);
    std::deque<uint32_t> q{from};
    seen[from] = true;
    std::size_t count = 1;
    while (!q.empty())
    {
        uint32_t n = q.front();
        q.pop_front();
        for (uint32_t m : adj[n])
        {
            if (!seen[m])
            {
                seen[m] = true;
                ++count;
                q.push_back(m);
            }
        }
    }
    return count;
}

/** Every host reaches every node (so every other host). */
void
ExpectAllHostsConnected(const Topology& t)
{
    for (uint32_t h : fabric::HostIndices(t))
    {
        ASSERT_EQ(Reached(t, h), t.nodes.size()) << "from " << t.nodes[h].id;
    }
}

const fabric::LinkSpec&
LinkBetween(const Topology& t, const std::string& a, const std::string& b)
{
    uint32_t ia = t.index.at(a);
    uint32_t ib = t.index.at(b);
    for (const auto& l : t.links)
    {
        if ((l.a == ia && l.b == ib) || (l.a == ib && l.b == ia))
        {
            return l;
        }
    }
    throw std::runtime_error("no link " + a + " - " + b);
}

std::vector<std::size_t>
Degrees(const Topology& t)
{
    std::vector<std::size_t> d(t.nodes.size(), 0);
    for (const auto& l : t.links)
    {
        ++d[l.a];
        ++d[l.b];
    }
    return d;
}

TEST(FatTree, CountsFollowK)
{
    for (int k : {4, 8, 16})
    {
        SCOPED_TRACE(k);
        fabric::FatTreeParams p;
        p.k = k;
        Topology t = fabric::GenerateFatTree(p);
        EXPECT_EQ(CountHosts(t), static_cast<std::size_t>(k * k * k / 4));
        EXPECT_EQ(t.nodes.size() - CountHosts(t), static_cast<std::size_t>(5 * k * k / 4));
        // host links + edge-agg (k pods x k/2 x k/2) + agg-core (k pods x k/2 x k/2)
        EXPECT_EQ(t.links.size(), static_cast<std::size_t>(k * k * k / 4 * 3));
        EXPECT_EQ(t.stats.at("hosts"), k * k * k / 4);
        EXPECT_EQ(t.stats.at("switches"), 5 * k * k / 4);
        // Every switch has k ports; every host one.
        auto deg = Degrees(t);
        for (std::size_t i = 0; i < t.nodes.size(); ++i)
        {
            ASSERT_EQ(deg[i], t.nodes[i].isHost ? 1u : static_cast<std::size_t>(k))
                << t.nodes[i].id;
        }
        ExpectAllHostsConnected(t);
    }
}

TEST(FatTree, DocumentedIds)
{
    fabric::FatTreeParams p; // k = 4
    Topology t = fabric::GenerateFatTree(p);
    // edge e holds hosts e*k/2 .. e*k/2+k/2-1: host 5 is on edge 2 = pod 1, index 0.
    EXPECT_NO_THROW(LinkBetween(t, "h5", "edge1_0"));
    EXPECT_EQ(t.nodes[t.index.at("h5")].group, "edge1_0");
    // Aggregation switch i of every pod links to cores i*k/2 .. i*k/2+k/2-1.
    EXPECT_NO_THROW(LinkBetween(t, "agg3_1", "core2"));
    EXPECT_NO_THROW(LinkBetween(t, "agg3_1", "core3"));
    EXPECT_THROW(LinkBetween(t, "agg3_1", "core0"), std::runtime_error);
    EXPECT_EQ(t.nodes[t.index.at("core1")].tier, 3);
}

TEST(LeafSpine, CountsAndOversubscription)
{
    fabric::LeafSpineParams p;
    p.leaves = 4;
    p.spines = 2;
    p.hostsPerLeaf = 16;
    p.hostRateGbps = 25;
    p.fabricRateGbps = 100;
    Topology t = fabric::GenerateLeafSpine(p);
    EXPECT_EQ(CountHosts(t), 64u);
    EXPECT_EQ(t.nodes.size(), 64u + 4 + 2);
    EXPECT_EQ(t.links.size(), 64u + 4 * 2);
    // 16 x 25 G down, 2 x 100 G up.
    EXPECT_DOUBLE_EQ(t.stats.at("oversubscription"), 2.0);
    EXPECT_EQ(t.nodes[t.index.at("h17")].group, "leaf1");
    EXPECT_DOUBLE_EQ(LinkBetween(t, "leaf3", "spine1").rateGbps, 100);
    ExpectAllHostsConnected(t);
}

TEST(ThreeTier, CountsAndOversubscription)
{
    fabric::ThreeTierParams p;
    p.podsets = 3;
    p.torsPerPodset = 4;
    p.leafsPerPodset = 2;
    p.spines = 6;
    p.hostsPerTor = 8;
    p.hostRateGbps = 25;
    p.torUplinkGbps = 50;
    p.leafUplinkGbps = 100;
    Topology t = fabric::GenerateThreeTier(p);
    std::size_t hosts = 3 * 4 * 8;
    EXPECT_EQ(CountHosts(t), hosts);
    EXPECT_EQ(t.nodes.size(), hosts + 3 * 4 + 3 * 2 + 6);
    // hosts + ToR-Leaf (12 ToRs x 2) + Leaf-Spine (6 Leafs x 3 spines per plane)
    EXPECT_EQ(t.links.size(), hosts + 12 * 2 + 6 * 3);
    // ToR: 8 x 25 down / 2 x 50 up = 2; Leaf: 4 ToRs x 50 / 3 spines x 100 = 2/3.
    EXPECT_DOUBLE_EQ(t.stats.at("tor_oversubscription"), 2.0);
    EXPECT_NEAR(t.stats.at("leaf_oversubscription"), 2.0 / 3.0, 1e-12);
    // Leaf j of each podset reaches the spines of plane j only.
    EXPECT_NO_THROW(LinkBetween(t, "leaf2_1", "spine3"));
    EXPECT_NO_THROW(LinkBetween(t, "leaf2_1", "spine5"));
    EXPECT_THROW(LinkBetween(t, "leaf2_1", "spine2"), std::runtime_error);
    EXPECT_EQ(t.nodes[t.index.at("h95")].group, "tor2_3");
    ExpectAllHostsConnected(t);
}

TEST(Dci, LongHaulDelayIsFiveMicrosecondsPerKm)
{
    for (double km : {1.0, 80.0, 1234.5})
    {
        fabric::DciParams p;
        p.lengthKm = km;
        fabric::TopologyBuild b = fabric::GenerateDci(p);
        const Topology& t = b.topo;
        EXPECT_DOUBLE_EQ(LinkBetween(t, "a-dci", "b-dci").delayUs, 5.0 * km);
        // two default sites (2 leaves x 2 hosts, 2 spines) plus two edges
        EXPECT_EQ(CountHosts(t), 8u);
        EXPECT_EQ(t.nodes.size(), 2u * (4 + 2 + 2) + 2);
        EXPECT_EQ(t.links.size(), 2u * (4 + 4) + 2 * 2 + 1);
        ASSERT_EQ(b.bufferBytes.size(), 2u);
        EXPECT_EQ(b.bufferBytes[0].second, 64000000u);
        EXPECT_EQ(t.nodes[t.index.at("b-dci")].tier, 4);
        ExpectAllHostsConnected(t);
    }
}

TEST(Explicit, LengthGivesFibreDelayAndHostsGetTheirSwitch)
{
    nlohmann::json topo = nlohmann::json::parse(R"({"kind": "explicit",
        "nodes": [{"id": "s", "kind": "switch", "x": 1, "y": 2}, {"id": "a", "kind": "host"},
                  {"id": "b", "kind": "host"}],
        "links": [{"a": "a", "b": "s", "rate_gbps": 100, "length_km": 3},
                  {"a": "s", "b": "b", "rate_gbps": 40, "delay_us": 0.5}]})");
    fabric::TopologyBuild b = fabric::BuildTopology(topo);
    EXPECT_DOUBLE_EQ(b.topo.links[0].delayUs, 15.0);
    EXPECT_DOUBLE_EQ(b.topo.links[1].delayUs, 0.5);
    EXPECT_EQ(b.topo.nodes[2].group, "s");
    EXPECT_TRUE(b.topo.nodes[0].hasXY);
    EXPECT_DOUBLE_EQ(b.topo.nodes[0].y, 2.0);
    EXPECT_FALSE(b.topo.nodes[1].hasXY);
}

TEST(Explicit, DisconnectedNamesTheUnreachableNode)
{
    nlohmann::json topo = nlohmann::json::parse(R"({"kind": "explicit",
        "nodes": [{"id": "s0", "kind": "switch"}, {"id": "s1", "kind": "switch"},
                  {"id": "h0", "kind": "host"}, {"id": "h3", "kind": "host"}],
        "links": [{"a": "h0", "b": "s0", "rate_gbps": 100, "delay_us": 1},
                  {"a": "h3", "b": "s1", "rate_gbps": 100, "delay_us": 1},
                  {"a": "s0", "b": "s0x", "rate_gbps": 100, "delay_us": 1}]})");
    try
    {
        fabric::BuildTopology(topo);
        FAIL() << "accepted";
    }
    catch (const fabric::ScenarioError& e)
    {
        EXPECT_STREQ(e.what(), "topology.links[2].b: unknown node \"s0x\"");
    }
    topo["links"].erase(2);
    try
    {
        fabric::BuildTopology(topo);
        FAIL() << "accepted";
    }
    catch (const fabric::ScenarioError& e)
    {
        EXPECT_STREQ(e.what(), "topology: disconnected (node \"s1\" unreachable from \"s0\")");
    }
}

TEST(Limits, CheckedBeforeExpanding)
{
    // 64 units x 256 servers x 16 NICs: 262144 hosts + 1024 rail leaves + 4 spines = 263172
    // nodes; refused from the parameters alone.
    nlohmann::json topo = {{"kind", "rail_optimized"}, {"units", 64}, {"servers_per_unit", 256},
                           {"nics_per_server", 16}, {"spines", 4}};
    try
    {
        fabric::BuildTopology(topo);
        FAIL() << "accepted";
    }
    catch (const fabric::ScenarioError& e)
    {
        EXPECT_EQ(e.Path(), "topology");
        EXPECT_NE(std::string(e.what()).find("263172 nodes"), std::string::npos) << e.what();
    }
    // 512 leaves x 2 spines x h hosts: 512 h + 514 nodes, refused from the first h past the
    // node limit (kMaxNodes, generated from backend/app/scenarios/limits.py)
    uint64_t h = (fabric::kMaxNodes - 514) / 512; // the largest h allowed
    nlohmann::json ls = {
        {"kind", "leaf_spine"}, {"leaves", 512}, {"spines", 2}, {"hosts_per_leaf", h + 1}};
    EXPECT_THROW(fabric::BuildTopology(ls), fabric::ScenarioError);
    ls["hosts_per_leaf"] = h;
    EXPECT_EQ(fabric::BuildTopology(ls).topo.nodes.size(), 512 * h + 514);
}

} // namespace
