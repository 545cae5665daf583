/*
 * Multi-plane NICs (topology multi_plane, docs/model.md "Multi-plane NICs"), hand-checked:
 * a sprayed QP uses every plane (4 planes: 4 x the plane's payload rate), a plane whose access
 * link failed is left out (3/4 of it, the sender's link or, after routing converges, the
 * receiver's), RC pins each QP to one plane by the documented hash (one QP: one plane's rate;
 * many: spread as the hash says), and PFC pauses one plane's port without stopping the others.
 */
#include "helper/fabric-runner.h"
#include "model/fabric-switch.h"
#include "scenario/scenario-parser.h"

#include <gtest/gtest.h>

#include <iostream>
#include <map>
#include <string>

using namespace fabric;

namespace
{

/** 4 planes of 100G; h0 on leaf0_0 and h1 on leaf1_0 of every plane (2 units, 1 NIC per
 *  server, 1 spine per plane): each plane's path is h0 - p{k}-leaf0_0 - p{k}-spine0 -
 *  p{k}-leaf1_0 - h1. MTU 4096, no congestion control. */
std::string
Scenario4Planes(const std::string& transport, const std::string& traffic,
                const std::string& faults = "[]")
{
    return R"({"schema_version": 1, "seed": 1, "duration_us": 300, "warmup_us": 100,
      "topology": {"kind": "multi_plane", "planes": 4, "units": 2, "servers_per_unit": 1,
                   "nics_per_server": 1, "spines": 1, "host_rate_gbps": 100,
                   "fabric_rate_gbps": 100, "link_delay_us": 1},
      "nic": {"transport": ")" +
           transport + R"(", "mtu_bytes": 4096, "cc": {"algorithm": "none"},
              "sprayed": {"reorder_window_packets": 4096}},
      "telemetry": {"flow_paths": true},
      "traffic": )" +
           traffic + R"(, "faults": )" + faults + "}";
}

const char* kOneFlow =
    R"([{"kind": "pairs", "pairs": [["h0", "h1"]], "size_bytes": 0}])";

/** The payload rate of one 100G plane at MTU 4096: 100 x 4096 / (4096 + 82) Gbit/s. */
constexpr double kPlanePayloadGbps = 100.0 * 4096.0 / (4096.0 + 82.0);

double
Throughput(const nlohmann::json& res)
{
    return res["summary"]["throughput_gbps"].get<double>();
}

/** Utilization of each of h0's four plane ports (0 when the port carried nothing). */
std::map<int, double>
PlaneUtilization(const nlohmann::json& res)
{
    std::map<int, double> u;
    for (const auto& l : res["summary"]["link_utilization"])
    {
        std::string name = l["link"].get<std::string>();
        for (int k = 0; k < 4; ++k)
        {
            if (name == "h0->p" + std::to_string(k) + "-leaf0_0")
            {
                u[k] = l["utilization"].get<double>();
            }
        }
    }
    return u;
}

} // namespace

TEST(MultiPlane, SprayedQpReachesFourTimesThePlaneRate)
{
    FabricRunner r(LoadScenario(Scenario4Planes("sprayed", kOneFlow)));
    ASSERT_EQ(r.Run(RunLimits(), nullptr), RunStatus::OK);
    auto res = r.Results();
    double expected = 4 * kPlanePayloadGbps; // 392.15 Gbit/s
    double got = Throughput(res);
    std::cout << "sprayed over 4 planes: " << got << " of " << expected << " Gbit/s" << std::endl;
    EXPECT_NEAR(got, expected, expected * 0.03);
    EXPECT_EQ(res["summary"]["drops"]["total"].get<uint64_t>(), 0u);
    auto u = PlaneUtilization(res);
    ASSERT_EQ(u.size(), 4u);
    for (auto& [k, v] : u)
    {
        EXPECT_GT(v, 0.95) << "plane " << k;
    }
}

TEST(MultiPlane, SenderAccessLinkDownLeavesThreeQuarters)
{
    std::string faults = R"([{"kind": "link_down", "link": "h0->p2-leaf0_0", "start_us": 0}])";
    FabricRunner r(LoadScenario(Scenario4Planes("sprayed", kOneFlow, faults)));
    ASSERT_EQ(r.Run(RunLimits(), nullptr), RunStatus::OK);
    auto res = r.Results();
    double expected = 3 * kPlanePayloadGbps;
    double got = Throughput(res);
    std::cout << "plane 2's sender link down: " << got << " of " << expected << " Gbit/s"
              << std::endl;
    EXPECT_NEAR(got, expected, expected * 0.03);
    auto u = PlaneUtilization(res);
    EXPECT_EQ(u.count(2), 0u) << "the failed plane carried frames";
}

TEST(MultiPlane, ReceiverAccessLinkDownIsLeftOutAfterConvergence)
{
    // The far end's link on plane 1 fails at 20 us; routing converges 10 us later, and the
    // sender stops spraying into the plane that no longer reaches h1. What was sprayed there
    // meanwhile is lost and resent: no byte is missing.
    std::string faults = R"([{"kind": "link_down", "link": "h1->p1-leaf1_0", "start_us": 20,
                               "convergence_us": 10}])";
    FabricRunner r(LoadScenario(Scenario4Planes("sprayed", kOneFlow, faults)));
    ASSERT_EQ(r.Run(RunLimits(), nullptr), RunStatus::OK);
    auto res = r.Results();
    double expected = 3 * kPlanePayloadGbps;
    double got = Throughput(res); // warm-up 100 us: long after the convergence
    std::cout << "plane 1's receiver link down: " << got << " of " << expected << " Gbit/s"
              << std::endl;
    EXPECT_NEAR(got, expected, expected * 0.03);
    const auto& f = res["flows"][0];
    EXPECT_GT(f["retransmits"].get<uint64_t>(), 0u);
    auto u = PlaneUtilization(res);
    EXPECT_EQ(u.count(1), 0u) << "plane 1 still used after the warm-up";
}

TEST(MultiPlane, RcQpStaysOnItsPlane)
{
    // One RC QP: go-back-N must not see the planes reorder it, so it is pinned to one plane and
    // gets that plane's payload rate, not 4x.
    FabricRunner r(LoadScenario(Scenario4Planes("rc", kOneFlow)));
    ASSERT_EQ(r.Run(RunLimits(), nullptr), RunStatus::OK);
    auto res = r.Results();
    double got = Throughput(res);
    EXPECT_NEAR(got, kPlanePayloadGbps, kPlanePayloadGbps * 0.03);
    EXPECT_EQ(res["flows"][0]["retransmits"].get<uint64_t>(), 0u);
    EXPECT_EQ(PlaneUtilization(res).size(), 1u);
}

TEST(MultiPlane, RcQpsSpreadByTheDocumentedHash)
{
    // 64 QPs h0 -> h1, UDP source ports 49152 + flow id. The plane of each is
    // EcmpHash(0x504c414e, src, dst, udp source port) mod 4 (docs/model.md); its first packet's
    // path shows it. Every plane gets some and the long-lived QPs share each plane's port, so
    // the four ports together carry 4 x the plane rate.
    std::string traffic =
        R"([{"kind": "pairs", "pairs": [["h0", "h1"]], "size_bytes": 0, "qps": 64}])";
    Scenario s = LoadScenario(Scenario4Planes("rc", traffic));
    FabricRunner r(s);
    ASSERT_EQ(r.Run(RunLimits(), nullptr), RunStatus::OK);
    auto res = r.Results();
    ASSERT_EQ(res["flows"].size(), 64u);
    std::map<int, int> perPlane;
    for (const auto& f : res["flows"])
    {
        uint32_t id = f["id"].get<uint32_t>();
        const FlowSpec& spec = s.flows[id];
        ASSERT_EQ(spec.id, id);
        uint32_t expected = FabricSwitch::EcmpHash(0x504c414e, spec.src, spec.dst, spec.udpSrcPort) % 4;
        std::string leaf = f["path"][1].get<std::string>();
        EXPECT_EQ(leaf, "p" + std::to_string(expected) + "-leaf0_0") << "flow " << id;
        ++perPlane[static_cast<int>(expected)];
    }
    std::cout << "RC QPs per plane:";
    for (auto& [k, n] : perPlane)
    {
        std::cout << " " << k << ":" << n;
        EXPECT_GE(n, 8) << "plane " << k; // 64 QPs over 4 planes: 16 each on average
    }
    std::cout << std::endl;
    ASSERT_EQ(perPlane.size(), 4u);
    double got = Throughput(res);
    EXPECT_NEAR(got, 4 * kPlanePayloadGbps, 4 * kPlanePayloadGbps * 0.03);
}

TEST(MultiPlane, PfcPausesOnePlanePort)
{
    // Two senders, h0 and h2, into h1 over 2 planes: every plane carries both, so each of h1's
    // two access links is a 2:1 incast and each plane's leaf pauses its own ingress ports.
    // Pauses are per port: each sender port is paused by its own plane's leaf, the other
    // planes keep sending, nothing is lost and the incast drains at h1's two ports' rate.
    std::string text = R"({"schema_version": 1, "seed": 1, "duration_us": 600,
      "topology": {"kind": "multi_plane", "planes": 2, "units": 1, "servers_per_unit": 3,
                   "nics_per_server": 1, "spines": 1, "host_rate_gbps": 100,
                   "fabric_rate_gbps": 100},
      "switch": {"ecn": {"enabled": false}, "pfc": {"alpha": 0.0078125}},
      "nic": {"transport": "sprayed", "mtu_bytes": 4096, "cc": {"algorithm": "none"},
              "sprayed": {"reorder_window_packets": 4096}},
      "traffic": [{"kind": "incast", "senders": ["h0", "h2"], "receiver": "h1",
                   "size_bytes": 4000000}]})";
    FabricRunner r(LoadScenario(text));
    ASSERT_EQ(r.Run(RunLimits(), nullptr), RunStatus::OK);
    auto res = r.Results();
    EXPECT_EQ(res["summary"]["drops"]["total"].get<uint64_t>(), 0u);
    EXPECT_EQ(res["summary"]["flows_completed"].get<uint64_t>(), 2u);
    std::map<std::string, uint64_t> received;
    for (const auto& p : res["summary"]["pfc"])
    {
        received[p["port"].get<std::string>()] += p["pauses_received"].get<uint64_t>();
    }
    // Each plane's leaf pauses its own ingress from each sender: both planes' ports paused.
    for (const char* port : {"h0->p0-leaf0_0", "h0->p1-leaf0_0", "h2->p0-leaf0_0",
                             "h2->p1-leaf0_0"})
    {
        EXPECT_GT(received[port], 0u) << port;
    }
    // 2 x 4 MB through h1's two 100G ports: at least 8 MB at 2 x the plane payload rate.
    double fct = 0;
    for (const auto& f : res["flows"])
    {
        fct = std::max(fct, f["fct_us"].get<double>());
    }
    double bound = 8e6 * 8 / (2 * kPlanePayloadGbps * 1e3);
    std::cout << "incast over 2 planes: last FCT " << fct << " us, bound " << bound << " us"
              << std::endl;
    EXPECT_GT(fct, bound);
    EXPECT_LT(fct, bound * 1.10);
}

TEST(MultiPlane, RcQpMovesWhenItsPlaneLinkFails)
{
    // The one RC QP's plane (the documented hash) loses h0's access link at 50 us: the NIC sees
    // its own link fail, moves the QP to the next plane (hash + 1 mod 4) and go-back-N resends
    // what was lost; after the warm-up (100 us) it runs at one plane's rate again, on the new
    // plane only.
    Scenario probe = LoadScenario(Scenario4Planes("rc", kOneFlow));
    const FlowSpec& spec = probe.flows[0];
    uint32_t plane = FabricSwitch::EcmpHash(0x504c414e, spec.src, spec.dst, spec.udpSrcPort) % 4;
    uint32_t next = (plane + 1) % 4;
    std::string faults = R"([{"kind": "link_down", "link": "h0->p)" + std::to_string(plane) +
                         R"(-leaf0_0", "start_us": 50}])";
    FabricRunner r(LoadScenario(Scenario4Planes("rc", kOneFlow, faults)));
    ASSERT_EQ(r.Run(RunLimits(), nullptr), RunStatus::OK);
    auto res = r.Results();
    EXPECT_NEAR(Throughput(res), kPlanePayloadGbps, kPlanePayloadGbps * 0.03);
    auto u = PlaneUtilization(res);
    ASSERT_EQ(u.size(), 1u);
    EXPECT_EQ(u.begin()->first, static_cast<int>(next));
    EXPECT_GT(res["flows"][0]["retransmits"].get<uint64_t>(), 0u);
}
