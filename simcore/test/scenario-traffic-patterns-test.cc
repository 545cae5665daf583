/*
 * The Al-Fares et al. (SIGCOMM 2008) fat-tree patterns: stride and the random inter-pod
 * permutation, through the scenario reader (what users write) and as pure functions.
 */
#include "scenario/scenario-parser.h"
#include "scenario/traffic-patterns.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <map>
#include <set>

namespace
{

using nlohmann::json;

json
FatTree(const json& generator, uint32_t seed = 1)
{
    return {{"schema_version", 1},
            {"seed", seed},
            {"duration_us", 100},
            {"topology", {{"kind", "fat_tree"}, {"k", 4}}},
            {"traffic", json::array({generator})}};
}

std::string
ErrorOf(const json& doc)
{
    try
    {
        fabric::LoadScenario(doc.dump());
        return "";
    }
    catch (const fabric::ScenarioError& e)
    {
        return e.what();
    }
}

/** Pod of a fat-tree host id "hN": k = 4 gives 4 hosts per pod (2 edges x 2 hosts). */
int
PodOf(const std::string& id)
{
    return std::stoi(id.substr(1)) / 4;
}

TEST(Stride, HostISendsToIPlusSModN)
{
    fabric::Scenario s =
        fabric::LoadScenario(FatTree({{"kind", "stride"}, {"stride", 4}, {"size_bytes", 1000}}).dump());
    ASSERT_EQ(s.flows.size(), 16u);
    for (const auto& f : s.flows)
    {
        int src = std::stoi(s.topo.nodes[f.src].id.substr(1));
        int dst = std::stoi(s.topo.nodes[f.dst].id.substr(1));
        EXPECT_EQ(dst, (src + 4) % 16);
        EXPECT_EQ(f.sizeBytes, 1000u);
    }
    // Stride 4 on k = 4 moves every host to the next pod (Al-Fares: "stride(4)" is inter-pod).
    for (const auto& f : s.flows)
    {
        EXPECT_NE(PodOf(s.topo.nodes[f.src].id), PodOf(s.topo.nodes[f.dst].id));
    }
}

TEST(Stride, OverAHostListAndItsBounds)
{
    json gen = {{"kind", "stride"}, {"hosts", {"h3", "h7", "h11"}}, {"stride", 2}};
    fabric::Scenario s = fabric::LoadScenario(FatTree(gen).dump());
    std::map<std::string, std::string> to;
    for (const auto& f : s.flows)
    {
        to[s.topo.nodes[f.src].id] = s.topo.nodes[f.dst].id;
    }
    EXPECT_EQ(to, (std::map<std::string, std::string>{{"h3", "h11"}, {"h7", "h3"}, {"h11", "h7"}}));
    gen["stride"] = 3; // = N: everyone would send to itself
    EXPECT_EQ(ErrorOf(FatTree(gen)), "traffic[0].stride: must be an integer >= 1 and <= 2");
    gen.erase("stride");
    EXPECT_EQ(ErrorOf(FatTree(gen)).rfind("traffic[0].stride: field required", 0), 0u);
    EXPECT_TRUE(fabric::StridePairs({1, 2, 3}, 3).empty());
}

TEST(InterPodPermutation, EveryHostOnceToAnotherPod)
{
    std::set<std::string> seen;
    std::map<std::string, std::set<std::string>> destinationsOfH0;
    for (uint32_t seed = 1; seed <= 200; ++seed)
    {
        fabric::Scenario s = fabric::LoadScenario(
            FatTree({{"kind", "inter_pod_permutation"}, {"size_bytes", 0}}, seed).dump());
        ASSERT_EQ(s.flows.size(), 16u);
        std::set<uint32_t> srcs;
        std::set<uint32_t> dsts;
        std::string assignment;
        for (const auto& f : s.flows)
        {
            const std::string& src = s.topo.nodes[f.src].id;
            const std::string& dst = s.topo.nodes[f.dst].id;
            EXPECT_NE(PodOf(src), PodOf(dst)) << src << " -> " << dst << " seed " << seed;
            srcs.insert(f.src);
            dsts.insert(f.dst);
            assignment += src + ">" + dst + ",";
            if (src == "h0")
            {
                destinationsOfH0["h0"].insert(dst);
            }
        }
        EXPECT_EQ(srcs.size(), 16u); // every host sends once
        EXPECT_EQ(dsts.size(), 16u); // and receives once: a permutation
        seen.insert(assignment);
    }
    EXPECT_GT(seen.size(), 190u);                   // the seed changes the permutation
    EXPECT_EQ(destinationsOfH0["h0"].size(), 12u); // every host of the 3 other pods is reachable
    // The same seed gives the same flows.
    json doc = FatTree({{"kind", "inter_pod_permutation"}}, 7);
    fabric::Scenario a = fabric::LoadScenario(doc.dump());
    fabric::Scenario b = fabric::LoadScenario(doc.dump());
    for (std::size_t i = 0; i < a.flows.size(); ++i)
    {
        EXPECT_EQ(a.flows[i].dst, b.flows[i].dst);
    }
}

TEST(InterPodPermutation, PodsOfEachTopologyKind)
{
    // leaf_spine: every leaf is a pod.
    json leafSpine = {{"schema_version", 1},
                      {"duration_us", 100},
                      {"topology", {{"kind", "leaf_spine"}, {"leaves", 3}, {"hosts_per_leaf", 2}}},
                      {"traffic", json::array({{{"kind", "inter_pod_permutation"}}})}};
    fabric::Scenario s = fabric::LoadScenario(leafSpine.dump());
    for (const auto& f : s.flows)
    {
        EXPECT_NE(s.topo.nodes[f.src].group, s.topo.nodes[f.dst].group); // group = the leaf
    }
    // A pod holding more than half of the listed hosts cannot be avoided by all of them.
    leafSpine["traffic"][0]["hosts"] = {"h0", "h1", "h2"};
    EXPECT_EQ(ErrorOf(leafSpine).rfind("traffic[0].hosts: one pod holds 2 of the 3 hosts", 0), 0u)
        << ErrorOf(leafSpine);
    leafSpine["traffic"][0]["hosts"] = {"h0", "h1", "h2", "h4"};
    EXPECT_EQ(ErrorOf(leafSpine), "");
    std::vector<std::string> pods = {"a", "a", "b", "b", "c"};
    uint32_t state = 1;
    std::vector<std::size_t> dst = fabric::InterPodPermutation(
        pods, [&state](uint32_t hi) { return (state = state * 1103515245u + 12345u) % (hi + 1); });
    std::set<std::size_t> unique(dst.begin(), dst.end());
    EXPECT_EQ(unique.size(), pods.size());
    for (std::size_t i = 0; i < pods.size(); ++i)
    {
        EXPECT_NE(pods[i], pods[dst[i]]);
    }
}

} // namespace
