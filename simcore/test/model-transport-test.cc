/*
 * Transports (nic.transport) and switch load balancing (switch.load_balancing), checked against
 * figures computed by hand:
 * - XRC moves exactly RC's packets; the QP accounting is (N-1) x p^2 for RC, N x p for XRC.
 * - per_packet spreads one QP's packets evenly (within one packet) over equal-cost uplinks.
 * - adaptive keeps a slow uplink's queue near empty: it carries about its own capacity.
 * - sprayed (selective retransmission) keeps goodput near line x (1 - loss) where RC's
 *   go-back-N loses about one bandwidth-delay product per loss.
 * - the QP-context cache: throughput is flat up to the cache size and falls beyond it.
 */
#include "model/rdma-nic.h"
#include "model-test-util.h"

#include <gtest/gtest.h>

#include <cmath>

using namespace fabric;
using namespace fabric::test;

namespace
{

constexpr double kLineGoodput = 100.0 * 1000 / 1082; // 1000-byte payloads, 82 bytes overhead

void
SetBalancing(Scenario& s, LoadBalancing lb)
{
    for (auto& sw : s.switchCfg)
    {
        sw.loadBalancing = lb;
    }
}

void
SetTransport(Scenario& s, const std::string& t)
{
    for (auto& n : s.nicCfg)
    {
        n.transport = t;
    }
}

} // namespace

TEST(ModelTransport, XrcMovesRcPacketsAndCountsFewerQps)
{
    nlohmann::ordered_json results[2];
    const char* names[2] = {"rc", "xrc"};
    for (int i = 0; i < 2; ++i)
    {
        Scenario s = TwoLeafFabric(2, 100);
        SetTransport(s, names[i]);
        for (auto& n : s.nicCfg)
        {
            n.processesPerHost = 2;
        }
        AddFlow(s, 0, 2, 200000);
        AddFlow(s, 1, 3, 200000);
        AddFlow(s, 0, 3, 200000);
        FabricRunner r(s);
        r.Run(RunLimits(), nullptr);
        results[i] = r.Results();
    }
    EXPECT_EQ(results[0]["flows"].dump(), results[1]["flows"].dump());
    EXPECT_EQ(results[0]["summary"].dump(), results[1]["summary"].dump());
    // N = 4 hosts, p = 2: RC (N-1) p^2 = 12, XRC N p = 8.
    EXPECT_EQ(results[0]["transport"]["max_qps_per_nic"].get<uint64_t>(), 12u);
    EXPECT_EQ(results[1]["transport"]["max_qps_per_nic"].get<uint64_t>(), 8u);
    // h0's two flows go to different hosts: two contexts either way.
    EXPECT_EQ(results[0]["transport"]["nics"][0]["qp_contexts_used"].get<uint64_t>(), 2u);
    EXPECT_EQ(results[1]["transport"]["nics"][0]["qp_contexts_used"].get<uint64_t>(), 2u);
}

TEST(ModelTransport, PerPacketSpreadsOneQpEvenly)
{
    // One QP, four 100G spines: ECMP (with RC's one source port) puts every packet on one
    // spine, per_packet a quarter on each (round robin: counts differ by at most one frame of
    // 1082 wire bytes).
    for (LoadBalancing lb : {LoadBalancing::ECMP, LoadBalancing::PER_PACKET})
    {
        Scenario s = TwoLeafFabric(4, 100);
        SetBalancing(s, lb);
        // Sprayed under per_packet: it delivers out of order without going back N. (Sprayed
        // would also spread under ECMP: it varies the source port per packet.)
        SetTransport(s, lb == LoadBalancing::ECMP ? "rc" : "sprayed");
        AddFlow(s, 0, 2, 2000000);
        FabricRunner r(s);
        r.Run(RunLimits(), nullptr);
        std::vector<double> bytes = UplinkBytes(r, 4);
        double total = bytes[0] + bytes[1] + bytes[2] + bytes[3];
        EXPECT_NEAR(total, 2000 * 1082.0, 1082.0 * 20); // 2000 packets (+ a few retransmits)
        int used = 0;
        for (double b : bytes)
        {
            used += b > 0 ? 1 : 0;
            if (lb == LoadBalancing::PER_PACKET)
            {
                EXPECT_NEAR(b, total / 4, 1082.0);
            }
        }
        EXPECT_EQ(used, lb == LoadBalancing::ECMP ? 1 : 4);
    }
}

TEST(ModelTransport, AdaptiveAvoidsTheSlowUplink)
{
    // Two uplinks from leaf0, spine0's at 10G, spine1's at 100G; one 100G QP. per_packet
    // sends half the packets into the 10G port, whose queue grows without bound; adaptive
    // sends a packet there only when its queue is empty, so it carries at most its own
    // 10 Gbit/s (about 1/10 of the bytes) and its queue stays within a frame or two.
    double share[2];
    uint64_t slowQueue[2];
    LoadBalancing lbs[2] = {LoadBalancing::PER_PACKET, LoadBalancing::ADAPTIVE};
    for (int i = 0; i < 2; ++i)
    {
        Scenario s = TwoLeafFabric(2, 100, 10);
        SetBalancing(s, lbs[i]);
        SetTransport(s, "sprayed");
        AddFlow(s, 0, 2, 0);
        FabricRunner r(s);
        r.Run(RunLimits(), nullptr);
        std::vector<double> bytes = UplinkBytes(r, 2);
        share[i] = bytes[0] / (bytes[0] + bytes[1]);
        FabricSwitch* leaf = r.Fabric().Switch(4);
        slowQueue[i] = leaf->Stats(leaf->PortToward(6), 3).maxBytesRun;
        std::cout << (i ? "adaptive" : "per_packet") << ": slow uplink share " << share[i]
                  << ", its max queue " << slowQueue[i] << " B, goodput "
                  << r.Results()["summary"]["throughput_gbps"] << std::endl;
    }
    EXPECT_LE(share[1], 0.12);
    EXPECT_GE(share[1], 0.05);
    EXPECT_LE(slowQueue[1], 3 * 1064u); // frames of 1062 bytes (+ cell rounding)
    EXPECT_GT(slowQueue[0], 20 * slowQueue[1]);
}

namespace
{

double
GoodputUnderLoss(const std::string& transport, uint64_t period, double delayUs)
{
    Scenario s;
    s.durationNs = 4000000;
    uint32_t sw = Star(s, 2, 100, delayUs);
    SetCc(s, "none", false);
    SetTransport(s, transport);
    for (auto& n : s.nicCfg)
    {
        n.reorderWindowPackets = 4096; // above the bandwidth-delay product
        n.rtoUs = 100;
    }
    FlowSpec& f = AddFlow(s, 1, 0);
    f.window = 1000;
    // Every period-th DATA frame the switch sends toward the receiver is lost (a loss fault).
    AddPeriodicDataLoss(s, sw, 0, period);
    FabricRunner r(s);
    r.Run(RunLimits(), nullptr);
    return r.Results()["summary"]["throughput_gbps"].get<double>();
}

} // namespace

TEST(ModelTransport, SprayedBeatsGoBackNUnderLoss)
{
    // The receiver's port drops every 500th frame it carries, retransmissions included, on a
    // path whose BDP is B ~ 372 packets (8 us links). Go-back-N: each loss makes the receiver
    // discard the ~B frames sent after it until the NACK arrives, and those count toward the
    // next 500, so of every 500 frames 1 + B are wasted: efficiency 1 - 373/500 = 0.25.
    // Selective retransmission resends only the lost frame: 1 - 1/500 = 0.998.
    double rc = GoodputUnderLoss("rc", 500, 8);
    double sprayed = GoodputUnderLoss("sprayed", 500, 8);
    std::cout << "goodput with 1 loss in 500: rc " << rc << ", sprayed " << sprayed
              << " Gbit/s (line " << kLineGoodput << ")" << std::endl;
    double rttUs = 4 * 8 + 2 * (1082 + 86) * 8 / 100e3;
    double bdp = rttUs * 1e-6 * 100e9 / 8 / 1082;
    EXPECT_NEAR(rc / kLineGoodput, 1 - (1 + bdp) / 500, 0.03);
    EXPECT_NEAR(sprayed / kLineGoodput, 1 - 1.0 / 500, 0.03);
}

namespace
{

double
ThroughputWithQps(uint32_t qps, uint32_t cacheEntries, uint64_t* misses)
{
    Scenario s;
    s.durationNs = 200000;
    s.warmupNs = 20000;
    Star(s, 2, 100, 1);
    SetCc(s, "none", false);
    for (auto& n : s.nicCfg)
    {
        n.qpCacheEntries = cacheEntries;
        n.qpCacheMissNs = 500;
    }
    for (uint32_t q = 0; q < qps; ++q)
    {
        AddFlow(s, 0, 1);
    }
    FabricRunner r(s);
    r.Run(RunLimits(), nullptr);
    auto res = r.Results();
    *misses = res["transport"]["qp_cache_misses"].get<uint64_t>();
    return res["summary"]["throughput_gbps"].get<double>();
}

} // namespace

TEST(ModelTransport, QpCacheKneeAtCacheSize)
{
    // 16 cached contexts, 500 ns per miss. Up to 16 QPs sharing the port round robin: only
    // the first send of each misses, so line rate. Beyond, LRU under round robin misses on
    // every packet: 86.6 ns of serialization per 586.6 ns, 14.8% of line rate.
    const uint32_t cache = 16;
    uint32_t knee = 0;
    double flat = 0;
    for (uint32_t qps : {4u, 8u, 12u, 14u, 15u, 16u, 17u, 18u, 20u, 24u, 32u})
    {
        uint64_t misses = 0;
        double g = ThroughputWithQps(qps, cache, &misses);
        std::cout << "QPs " << qps << ": " << g << " Gbit/s, " << misses << " misses"
                  << std::endl;
        if (qps == 4)
        {
            flat = g;
            EXPECT_NEAR(g, kLineGoodput, 1.0);
        }
        if (knee == 0 && g < 0.9 * flat)
        {
            knee = qps;
        }
        if (qps <= cache)
        {
            EXPECT_EQ(misses, qps); // each context loads once
        }
        else
        {
            double serNs = 1082 * 8 / 100.0;
            EXPECT_NEAR(g / kLineGoodput, serNs / (serNs + 500), 0.02);
        }
    }
    EXPECT_LE(std::abs(static_cast<double>(knee) - cache), 0.1 * cache) << "knee " << knee;
}
