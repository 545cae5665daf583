/*
 * jobs[].links, checked by hand: on a small rail-optimized fabric (2 units x 2 servers x 2 NICs,
 * 2 spines) a ring all-reduce's bytes per link are what the ring's steps send across it, and
 * nothing else is listed. The ring's order follows docs/model.md ("Servers and NVLink"): channel c
 * visits server s's GPUs from local index (c - s) mod g, so only the hops leaving a server use
 * the network, each carrying 2(n-1) steps of S/n.
 */
#include "helper/fabric-runner.h"
#include "scenario/scenario-parser.h"

#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

using namespace fabric;

namespace
{

std::string
RailScenario(const std::string& traffic)
{
    return R"({"schema_version": 1, "seed": 1, "duration_us": 3000, "nic": {"mtu_bytes": 4096},
      "topology": {"kind": "rail_optimized", "units": 2, "servers_per_unit": 2,
                   "nics_per_server": 2, "spines": 2, "host_rate_gbps": 100,
                   "fabric_rate_gbps": 100, "link_delay_us": 1},
      "traffic": [)" + traffic + "]}";
}

/** Host i is NIC i % 2 (its rail) of server i / 2; servers 0, 1 in unit 0, 2, 3 in unit 1. */
std::string
Host(int i)
{
    return "h" + std::to_string(i);
}

std::string
LeafOf(int i)
{
    return "leaf" + std::to_string(i / 4) + "_" + std::to_string(i % 2);
}

} // namespace

TEST(JobLinks, RingBytesPerLinkAreWhatItsStepsSendAcrossIt)
{
    const int n = 8;
    const int g = 2;
    const uint64_t size = 524288; // S/n = 64 KiB per step: 16 frames of 4096
    FabricRunner r(LoadScenario(RailScenario(
        R"({"kind": "collective", "op": "all_reduce", "algorithm": "ring", "message_bytes": 524288})")));
    ASSERT_EQ(r.Run(RunLimits(), nullptr), RunStatus::OK);
    auto out = r.Results();
    const auto& job = out["jobs"][0];
    ASSERT_TRUE(job["completed"].get<bool>());

    // The ring, by the rule: server s's GPUs from local index (0 - s) mod 2.
    std::vector<int> ring;
    for (int s = 0; s < n / g; ++s)
    {
        for (int k = 0; k < g; ++k)
        {
            ring.push_back(s * g + ((g - s % g) % g + k) % g);
        }
    }
    ASSERT_EQ(ring, (std::vector<int>{0, 1, 3, 2, 4, 5, 7, 6}));
    const uint64_t perHop = 2 * (n - 1) * (size / n);
    std::map<std::string, uint64_t> hostLinks; // expected, host up- and downlinks
    std::map<std::string, uint64_t> spineUp;   // per leaf: bytes it sends to the spines
    std::map<std::string, uint64_t> spineDown; // per leaf: bytes it receives from the spines
    uint64_t networkHops = 0;
    for (int i = 0; i < n; ++i)
    {
        int a = ring[i];
        int b = ring[(i + 1) % n];
        if (a / g == b / g)
        {
            continue; // NVLink: no packet
        }
        ++networkHops;
        hostLinks[Host(a) + "->" + LeafOf(a)] += perHop;
        hostLinks[LeafOf(b) + "->" + Host(b)] += perHop;
        if (LeafOf(a) != LeafOf(b))
        {
            spineUp[LeafOf(a)] += perHop;
            spineDown[LeafOf(b)] += perHop;
        }
    }
    // h1->h3 stays on leaf0_1, h2->h4 and h6->h0 cross units on rail 0, h5->h7 stays on leaf1_1
    ASSERT_EQ(networkHops, 4u);
    ASSERT_EQ(spineUp.size(), 2u);

    std::map<std::string, uint64_t> listedHost;
    std::map<std::string, uint64_t> listedUp;
    std::map<std::string, uint64_t> listedDown;
    uint64_t uplinkBytes = 0;
    for (const auto& l : job["links"])
    {
        std::string name = l["link"].get<std::string>();
        uint64_t bytes = l["bytes"].get<uint64_t>();
        EXPECT_EQ(l["frames"].get<uint64_t>() * 4096, bytes) << name; // whole frames, none resent
        std::string from = name.substr(0, name.find("->"));
        std::string to = name.substr(name.find("->") + 2);
        if (from[0] == 'h' || to[0] == 'h')
        {
            listedHost[name] = bytes;
            uplinkBytes += from[0] == 'h' ? bytes : 0;
        }
        else if (to.rfind("spine", 0) == 0)
        {
            listedUp[from] += bytes;
        }
        else
        {
            ASSERT_EQ(from.rfind("spine", 0), 0u) << name;
            listedDown[to] += bytes;
        }
    }
    EXPECT_EQ(listedHost, hostLinks);
    EXPECT_EQ(listedUp, spineUp);
    EXPECT_EQ(listedDown, spineDown);
    EXPECT_EQ(uplinkBytes, job["network_bytes"].get<uint64_t>());
    // the job's ideal: 1 channel leaving each server through one NIC at the payload rate
    EXPECT_EQ(job["channels_per_nic"].get<uint32_t>(), 1u);
    EXPECT_EQ(job["ranks_per_server"].get<uint32_t>(), 2u);
    EXPECT_EQ(job["ideal_limit"], "nic");
    EXPECT_DOUBLE_EQ(job["ideal_busbw_gbps"].get<double>(), job["nic_payload_gbps"].get<double>());
}

TEST(JobLinks, TwoJobsCountOnlyTheirOwnFramesAndRunsWithoutJobsListNone)
{
    // Job A on unit 0's hosts, job B on unit 1's: each lists only its own hosts' links.
    FabricRunner r(LoadScenario(RailScenario(
        R"({"kind": "collective", "op": "all_reduce", "algorithm": "ring", "message_bytes": 262144,
            "hosts": ["h0", "h1", "h2", "h3"], "job": "A"},
           {"kind": "collective", "op": "all_reduce", "algorithm": "ring", "message_bytes": 262144,
            "hosts": ["h4", "h5", "h6", "h7"], "job": "B"})")));
    ASSERT_EQ(r.Run(RunLimits(), nullptr), RunStatus::OK);
    auto out = r.Results();
    ASSERT_EQ(out["jobs"].size(), 2u);
    for (int j = 0; j < 2; ++j)
    {
        const auto& job = out["jobs"][j];
        ASSERT_FALSE(job["links"].empty());
        char unit = j == 0 ? '0' : '1';
        for (const auto& l : job["links"])
        {
            std::string name = l["link"].get<std::string>();
            EXPECT_NE(name.find(std::string("leaf") + unit), std::string::npos) << job["name"] << " " << name;
            EXPECT_EQ(name.find("spine"), std::string::npos) << name; // one unit: no spine
        }
    }
    FabricRunner plain(LoadScenario(RailScenario(
        R"({"kind": "flows", "flows": [{"src": "h0", "dst": "h4", "size_bytes": 100000, "start_us": 0}]})")));
    ASSERT_EQ(plain.Run(RunLimits(), nullptr), RunStatus::OK);
    EXPECT_FALSE(plain.Results().contains("jobs"));
}
