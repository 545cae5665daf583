/*
 * The ERD transport (nic.transport "erd", docs/model.md "ERD") against figures computed by hand:
 * - a 2 MB message stream sprayed over 4 paths through 1% random loss arrives complete, each
 *   byte delivered once, in whole messages in order; each of the 4 spines carries a quarter
 *   of the frames; every loss costs one retransmission and nothing is resent spuriously;
 * - goodput against loss for 2..8 paths when one of 8 spines is lossy: path 0 crosses it, so
 *   a fraction r/P of the frames is lost and each costs one resend: goodput = line x (1 - r/P);
 * - one QP per process: the QP accounting is p per NIC.
 */
#include "model/erd-transport.h"
#include "model/rdma-nic.h"
#include "model-test-util.h"

#include <gtest/gtest.h>

#include <set>

using namespace fabric;
using namespace fabric::test;

namespace
{

constexpr uint32_t kErdFrameOverhead = 82 + kErdExtraHeaderBytes; // 103 bytes per 1000
constexpr double kErdLineGoodput = 100.0 * 1000 / (1000 + kErdFrameOverhead);

/** Hosts 0,1 on leaf0 (node 4), hosts 2,3 on leaf1 (node 5), spines from node 6. */
Scenario
LeafSpine(int spines)
{
    Scenario s = TwoLeafFabric(spines, 100);
    s.durationNs = 2000000;
    for (auto& n : s.nicCfg)
    {
        n.transport = "erd";
    }
    return s;
}

FaultSpec
Loss(uint32_t from, uint32_t to, double rate)
{
    FaultSpec f;
    f.kind = FaultKind::LOSS;
    f.link = {from, to};
    f.bothDirections = false;
    f.lossRate = rate;
    f.dataOnly = true;
    return f;
}

/** The spine (0-based) leaf0 hashes a frame of h0 -> h2 with this source port onto. */
uint32_t
SpineOf(FabricRunner& probe, uint16_t port)
{
    FabricSwitch* leaf = probe.Fabric().Switch(4);
    RocePacket p;
    p.src = 0;
    p.dst = 2;
    p.udpSrc = port;
    uint32_t egress = leaf->SelectEgress(p);
    for (uint32_t k = 0; k < 16; ++k)
    {
        if (leaf->PortToward(6 + k) == egress)
        {
            return k;
        }
    }
    return UINT32_MAX;
}

/**
 * A QP source port whose first `paths` ERD ports hash onto distinct spines, path 0 on spine 0:
 * which ports ECMP separates is the hash's business, so the test picks a QP for which the
 * arithmetic below is exact.
 */
uint16_t
PortSpreadingOverAllSpines(const Scenario& s, uint32_t paths)
{
    FabricRunner probe(s);
    for (uint32_t base = 49152; base < 65536; ++base)
    {
        std::set<uint32_t> spines;
        for (uint32_t k = 0; k < paths; ++k)
        {
            spines.insert(SpineOf(probe, ErdTransport::PathPort(static_cast<uint16_t>(base), k)));
        }
        if (spines.size() == paths &&
            SpineOf(probe, ErdTransport::PathPort(static_cast<uint16_t>(base), 0)) == 0)
        {
            return static_cast<uint16_t>(base);
        }
    }
    ADD_FAILURE() << "no source port spreads over " << paths << " spines";
    return 49152;
}

} // namespace

TEST(ModelErd, SprayedMessagesSurviveOnePercentLossCompleteAndInOrder)
{
    // 2,000,000 bytes = 2000 frames of 1000 B in messages of 64 KiB (66 frames, 31 messages);
    // 4 paths over 4 spines; the host's own link h0 -> leaf0 loses 1% of DATA frames.
    Scenario s = LeafSpine(4);
    for (auto& n : s.nicCfg)
    {
        n.erdPaths = 4;
    }
    FlowSpec& spec = AddFlow(s, 0, 2, 2000000);
    spec.window = 16;
    spec.udpSrcPort = PortSpreadingOverAllSpines(s, 4);
    s.faults.push_back(Loss(0, 4, 0.01));
    FabricRunner r(s);
    // The receiver's delivered bytes, sampled every microsecond: always whole messages.
    std::vector<uint64_t> delivered;
    std::function<void()> sample = [&]() {
        delivered.push_back(r.Fabric().Context().flows[0].bytesDelivered);
        ns3::Simulator::Schedule(ns3::MicroSeconds(1), sample);
    };
    ns3::Simulator::Schedule(ns3::MicroSeconds(1), sample);
    r.Run(RunLimits(), nullptr);
    auto res = r.Results();
    const auto& f = res["flows"][0];
    uint64_t losses = res["faults"]["drops"]["link_loss"].get<uint64_t>();
    std::cout << "losses " << losses << ", retransmits " << f["retransmits"] << ", erd "
              << f["erd"].dump() << ", fct " << f["fct_us"] << " us" << std::endl;

    // Complete, every byte once.
    ASSERT_FALSE(f["fct_us"].is_null());
    EXPECT_EQ(f["bytes_delivered"].get<uint64_t>(), 2000000u);
    EXPECT_EQ(f["bytes_received"].get<uint64_t>(),
              2000000u + 1000u * f["erd"]["duplicate_arrivals"].get<uint64_t>());
    EXPECT_EQ(f["bytes_sent"].get<uint64_t>(),
              f["bytes_received"].get<uint64_t>() + f["bytes_dropped"].get<uint64_t>());
    // In whole messages, in order (each sample is a prefix of k messages).
    ASSERT_FALSE(delivered.empty());
    uint64_t previous = 0;
    for (uint64_t d : delivered)
    {
        EXPECT_TRUE(d % 66000 == 0 || d == 2000000u) << d;
        EXPECT_GE(d, previous);
        previous = d;
    }
    // Loss: ~1% of ~2000 frames; each repaired by exactly one retransmission (none spurious).
    EXPECT_GE(losses, 8u);
    EXPECT_LE(losses, 40u);
    EXPECT_EQ(f["retransmits"].get<uint64_t>(), losses);
    EXPECT_EQ(f["erd"]["duplicate_arrivals"].get<uint64_t>(), 0u);
    EXPECT_GE(f["erd"]["nacks_sent"].get<uint64_t>(), 1u);
    // Four paths used, a quarter of the frames each (path k = PSN mod 4; a retransmission
    // leaves by the next path, so shares differ by at most the retransmissions).
    std::vector<double> bytes = UplinkBytes(r, 4);
    double total = bytes[0] + bytes[1] + bytes[2] + bytes[3];
    double frame = 1000 + kErdFrameOverhead;
    // The lost frames die on the host link, before leaf0: its uplinks carry 2000 frames.
    EXPECT_NEAR(total, 2000.0 * frame, 1);
    for (double b : bytes)
    {
        EXPECT_NEAR(b, 500 * frame, (static_cast<double>(losses) + 1) * frame);
    }
    // One QP per process: p = 1 per NIC.
    EXPECT_EQ(res["transport"]["max_qps_per_nic"].get<uint64_t>(), 1u);
    EXPECT_TRUE(res["summary"]["conservation"]["balanced"].get<bool>());
}

TEST(ModelErd, GoodputAgainstLossForTwoToEightPaths)
{
    // Eight spines; leaf0 -> spine0 loses a fraction r of the DATA frames it carries. With P
    // paths on distinct spines (path 0 on spine0), 1/P of the frames cross it, so r/P of them
    // are lost; ERD resends only those (over the next path), so the goodput (payload without
    // retransmissions, the paper's definition) of a QP that is never window-bound is
    // line x (1 - r/P). Line: 1000 B of 1103 wire bytes at 100 Gbit/s. Measured as size / FCT
    // of a 50 MB flow (~4.4 ms). Exactly: the sender puts 50,000 + L frames (L losses) back to
    // back on its link, 88.24 ns each; the last hole is found by the scan T to 2T after its
    // loss, and its resend takes an RTT: FCT in [send time, send time + 2T + 2 RTT].
    Scenario base = LeafSpine(8);
    uint16_t port = 0;
    {
        Scenario probe = base;
        AddFlow(probe, 0, 2);
        port = PortSpreadingOverAllSpines(probe, 8);
    }
    std::cout << "paths  loss  goodput  predicted  max_reorder_packets" << std::endl;
    for (double rate : {0.01, 0.05})
    {
        for (uint32_t paths : {2u, 3u, 4u, 6u, 8u})
        {
            Scenario s = base;
            s.durationNs = 8000000;
            for (auto& n : s.nicCfg)
            {
                n.erdPaths = paths;
            }
            FlowSpec& spec = AddFlow(s, 0, 2, 50000000);
            spec.udpSrcPort = port;
            spec.window = 64;
            s.faults.push_back(Loss(4, 6, rate));
            FabricRunner r(s);
            r.Run(RunLimits(), nullptr);
            auto res = r.Results();
            ASSERT_FALSE(res["flows"][0]["fct_us"].is_null());
            double goodput = 50000000 * 8e-3 / res["flows"][0]["fct_us"].get<double>();
            double predicted = kErdLineGoodput * (1 - rate / paths);
            std::cout << paths << "  " << rate << "  " << goodput << "  " << predicted << "  "
                      << res["flows"][0]["erd"]["max_reorder_packets"] << std::endl;
            EXPECT_NEAR(goodput, predicted, 0.015 * kErdLineGoodput)
                << "paths " << paths << " loss " << rate;
            uint64_t losses = res["faults"]["drops"]["link_loss"].get<uint64_t>();
            double sendUs = (50000.0 + static_cast<double>(losses)) * (1000 + kErdFrameOverhead) *
                            8 / 100e3;
            double rttUs = r.Fabric().Context().flows[0].baseRttPs / 1e6;
            double fctUs = res["flows"][0]["fct_us"].get<double>();
            EXPECT_GE(fctUs, sendUs);
            EXPECT_LE(fctUs, sendUs + 2 * 2.5 * rttUs + 2 * rttUs) << "RTT " << rttUs;
            // Each loss resent once, nothing resent spuriously.
            EXPECT_EQ(res["flows"][0]["retransmits"].get<uint64_t>(), losses);
            EXPECT_EQ(res["flows"][0]["bytes_delivered"].get<uint64_t>(), 50000000u);
        }
    }
}

TEST(ModelErd, QpAccountingIsOnePerProcess)
{
    Scenario s = LeafSpine(2);
    for (auto& n : s.nicCfg)
    {
        n.processesPerHost = 8;
    }
    AddFlow(s, 0, 2, 100000).srcProcess = 0;
    AddFlow(s, 0, 3, 100000).srcProcess = 1;
    FabricRunner r(s);
    r.Run(RunLimits(), nullptr);
    auto res = r.Results();
    // N = 4 hosts, p = 8: RC would need (N-1) p^2 = 192 QPs per NIC, XRC N p = 32, ERD p = 8.
    EXPECT_EQ(res["transport"]["max_qps_per_nic"].get<uint64_t>(), 8u);
    EXPECT_EQ(res["transport"]["nics"][0]["transport"], "erd");
    // Flows 0 and 1 come from processes 0 and 1: two QPs.
    EXPECT_EQ(res["transport"]["nics"][0]["qp_contexts_used"].get<uint64_t>(), 2u);
    EXPECT_EQ(res["flows"][0]["bytes_delivered"].get<uint64_t>(), 100000u);
    EXPECT_EQ(res["flows"][1]["bytes_delivered"].get<uint64_t>(), 100000u);
}
