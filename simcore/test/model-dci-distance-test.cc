/*
 * Long distance (NTT, seeds/002) on the dci topology: RC throughput against distance follows
 * window / RTT; qp_depth "bdp" fills the pipe; the RDMA WAN accelerator at the site edges
 * (model/dci-accelerator.h) answers with pseudo-ACKs and resends what the long link loses.
 *
 * Hand figures (docs/presets.md, "dci-100km-perftest"): one host per site, 1 us site links, so
 * a-h0 -> b-h0 crosses 7 hops of 100 Gbit/s and 6 us of site propagation plus 5 us/km.
 * Base RTT = 2 x (5 L + 6) us + 7 x (data frame + 86-byte ACK) x 8 / 100 Gbit/s.
 */
#include "helper/fabric-run.h"
#include "helper/fabric-runner.h"
#include "model/dci-accelerator.h"
#include "scenario/scenario-parser.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <cmath>
#include <iostream>

using namespace fabric;
using nlohmann::json;

namespace
{

constexpr double kOverhead = 82; // wire bytes of a DATA frame beyond its payload
constexpr double kAck = 86;

/** Base RTT (us) of hops 100 Gbit/s links, with propagation oneWayUs, for frames of mtu. */
double
HandRttUs(double oneWayUs, int hops, double mtu)
{
    return 2 * oneWayUs + hops * (mtu + kOverhead + kAck) * 8 / 100e3;
}

/** The NTT preset's shape: a perftest stream a-h0 -> b-h0, no CC, an RTO far above the RTT. */
json
DciDoc(double lengthKm, json qpDepth, uint64_t messageBytes, uint32_t mtu, double durationUs,
       double warmupUs)
{
    json doc = {
        {"schema_version", 1},
        {"seed", 1},
        {"duration_us", durationUs},
        {"warmup_us", warmupUs},
        {"topology",
         {{"kind", "dci"},
          {"site",
           {{"leaves", 1}, {"spines", 1}, {"hosts_per_leaf", 1}, {"link_delay_us", 1}}},
          {"length_km", lengthKm},
          {"dci_buffer_bytes", 300000000}}},
        {"nic",
         {{"mtu_bytes", mtu}, {"rto_us", 1000000}, {"qp_depth", qpDepth},
          {"cc", {{"algorithm", "none"}}}}},
        {"traffic",
         {{{"kind", "perftest"}, {"src", "a-h0"}, {"dst", "b-h0"},
           {"message_bytes", messageBytes}}}},
        {"monitor", {{"sample_interval_us", durationUs / 20}}}};
    return doc;
}

struct SimRun
{
    std::unique_ptr<FabricRunner> runner;
    json results;

    const FlowState& Flow() { return runner->Fabric().Context().flows.at(0); }
    double Gbps() const { return results["summary"]["throughput_gbps"].get<double>(); }
};

SimRun
Simulate(const json& doc)
{
    Scenario s = LoadScenario(doc.dump());
    SimRun r;
    r.runner = std::make_unique<FabricRunner>(s);
    r.runner->Run(RunLimits(), nullptr);
    r.results = json::parse(r.runner->Results().dump());
    return r;
}

/** A window-limited stream delivers one burst per RTT: warm up one RTT, measure whole RTTs. */
json
WindowLimitedDoc(double lengthKm, json qpDepth, uint64_t messageBytes, uint32_t mtu, double rttUs,
                 int rounds)
{
    return DciDoc(lengthKm, qpDepth, messageBytes, mtu, rttUs * (rounds + 1), rttUs);
}

} // namespace

// Step 1: throughput = min(C, QD x message / RTT), window = qp_depth x message_bytes (here
// 92 x 4096 B messages, one 4178-byte frame each), within 5% at 10, 100 and 1000 km.
TEST(DciDistance, ThroughputIsWindowOverRtt)
{
    for (double km : {10.0, 100.0, 1000.0})
    {
        double rtt = HandRttUs(5 * km + 6, 7, 4096);
        int rounds = std::max(2, static_cast<int>(std::ceil(4000 / rtt)));
        SimRun r = Simulate(WindowLimitedDoc(km, 92, 4096, 4096, rtt, rounds));
        double expected = std::min(100.0 * 4096 / 4178, 92 * 4096 * 8 / (rtt * 1e3));
        std::cout << km << " km: RTT " << rtt << " us, window/RTT " << expected
                  << " Gbit/s, measured " << r.Gbps() << std::endl;
        EXPECT_NEAR(r.Gbps(), expected, 0.05 * expected) << km << " km";
        EXPECT_LT(expected, 30.0) << "window-limited at every distance";
        EXPECT_EQ(r.results["summary"]["retransmitted_packets"], 0);
    }
}

// Step 2: qp_depth "bdp" = ceil(base RTT x bottleneck rate / message wire bytes). At the length
// whose base RTT is exactly 1 ms, 100 Gbit/s and 4178-byte frames give NTT's 2991.86: 2992
// (NTT rounds down to 2991, one WQE short of the pipe).
TEST(DciDistance, BdpDepthReproducesNttAndFillsThePipe)
{
    // 10 L + 12 + 7 x (4178 + 86) x 8 / 100e3 = 1000 us
    double km = (1000 - 12 - 7 * (4178.0 + 86) * 8 / 100e3) / 10;
    SimRun exact = Simulate(DciDoc(km, "bdp", 4096, 4096, 100, 50));
    EXPECT_EQ(exact.Flow().qpDepth, 2992u);
    EXPECT_EQ(static_cast<uint32_t>(1e-3 * 100e9 / (4178 * 8)), 2991u);

    double rtt = HandRttUs(506, 7, 4096); // 100 km: 1014.39 us
    SimRun r = Simulate(WindowLimitedDoc(100, "bdp", 4096, 4096, rtt, 3));
    EXPECT_EQ(r.Flow().qpDepth, static_cast<uint32_t>(std::ceil(rtt * 1e-6 * 100e9 / 8 / 4178)));
    double ceiling = 100.0 * 4096 / 4178;
    std::cout << "bdp at 100 km: QD " << r.Flow().qpDepth << ", " << r.Gbps() << " Gbit/s"
              << std::endl;
    EXPECT_NEAR(r.Gbps(), ceiling, 0.01 * ceiling);

    // 64 KB messages: 16 frames each, 65536 + 16 x 82 wire bytes per WQE
    SimRun big = Simulate(DciDoc(100, "bdp", 65536, 4096, 100, 50));
    EXPECT_EQ(big.Flow().qpDepth,
              static_cast<uint32_t>(std::ceil(rtt * 1e-6 * 100e9 / 8 / (65536 + 16 * 82))));
}

// Step 3: with the accelerator, the local sender's window turns over in the site RTT (a-h0 to
// a-dci: 3 hops, 3 us one way) instead of the 100 km RTT.
TEST(DciAccelerator, SmallMessagesAtHundredKilometres)
{
    // 512-byte messages, one 594-byte frame each (MTU 512, as ib_write_bw -s 512), QD 16.
    double longRtt = HandRttUs(506, 7, 512);
    json plain = WindowLimitedDoc(100, 16, 512, 512, longRtt, 4);
    json accelerated = plain;
    accelerated["topology"]["accelerator"] = {{"enabled", true}};
    SimRun without = Simulate(plain);
    SimRun with = Simulate(accelerated);
    double localRtt = HandRttUs(3, 3, 512);
    double expectWithout = 16 * 512 * 8 / (longRtt * 1e3);
    double expectWith = 16 * 512 * 8 / (localRtt * 1e3);
    std::cout << "512 B, QD 16, 100 km: " << without.Gbps() << " Gbit/s without, "
              << with.Gbps() << " with the accelerator (x" << with.Gbps() / without.Gbps()
              << "; hand " << expectWithout << " and " << expectWith << ")" << std::endl;
    EXPECT_NEAR(without.Gbps(), expectWithout, 0.05 * expectWithout);
    EXPECT_NEAR(with.Gbps(), expectWith, 0.05 * expectWith);
    EXPECT_GT(with.Gbps() / without.Gbps(), 35.0) << "NTT: about 35x";
    const json& edge = with.results["dci_accelerator"]["edges"]["a-dci"];
    EXPECT_GT(edge["pseudo_acks"].get<uint64_t>(), 0u);
    EXPECT_GT(edge["absorbed_acks"].get<uint64_t>(), 0u);
    EXPECT_EQ(edge["retransmitted_packets"], 0);
    EXPECT_EQ(with.results["dci_accelerator"]["edges"]["b-dci"]["pseudo_acks"], 0);
    EXPECT_FALSE(without.results.contains("dci_accelerator"));
}

// Step 3: 0.1% loss on the long link loses nothing end to end, and the sender never goes back:
// the accelerator resends from its copies.
TEST(DciAccelerator, LongLinkLossIsRepairedByTheEdge)
{
    const uint64_t messages = 4000; // 16 MB in 4096-byte messages
    json doc = DciDoc(100, 92, 4096, 4096, 20000, 0);
    doc["traffic"][0]["iterations"] = messages;
    doc["faults"] = {{{"kind", "loss"}, {"start_us", 0}, {"link", "a-dci->b-dci"},
                      {"direction", "one"}, {"rate", 0.001}}};
    json plainDoc = doc;
    doc["topology"]["accelerator"] = {{"enabled", true}};

    SimRun with = Simulate(doc);
    const FlowState& f = with.Flow();
    uint64_t lost = with.runner->Fabric().Context().counters.drops[DROP_LINK_LOSS];
    const json& edge = with.results["dci_accelerator"]["edges"]["a-dci"];
    std::cout << "0.1% loss, accelerator: " << lost << " frames lost, "
              << edge["retransmitted_packets"] << " resent by a-dci, sender retransmits "
              << f.retransmits << ", delivered " << f.bytesDelivered << " B" << std::endl;
    EXPECT_GT(lost, 0u) << "the fault must bite for the test to mean anything";
    EXPECT_EQ(f.bytesDelivered, messages * 4096) << "everything arrives, in order";
    EXPECT_GE(f.completePs, 0);
    EXPECT_EQ(f.retransmits, 0u) << "no go-back-N by the sender";
    EXPECT_EQ(f.timeouts, 0u);
    EXPECT_EQ(with.results["summary"]["retransmitted_packets"], 0);
    EXPECT_GE(edge["retransmitted_packets"].get<uint64_t>(), lost);
    EXPECT_EQ(edge["held_bytes_at_end"], 0) << "every held frame was acknowledged";
    EXPECT_TRUE(with.results["summary"]["conservation"]["balanced"].get<bool>())
        << with.results["summary"]["conservation"].dump() << " "
        << "resent frames are counted as sent";
    EXPECT_EQ(with.results["flows"][0]["bytes_retransmitted"].get<uint64_t>(),
              edge["retransmitted_packets"].get<uint64_t>() * 4096);

    // Without it the same loss makes the sender itself go back N over 100 km.
    SimRun without = Simulate(plainDoc);
    EXPECT_GT(without.Flow().retransmits, 0u);
}

// The accelerator's buffer bounds what it holds; frames that do not fit pass through and are
// acknowledged end to end, so a tiny buffer still delivers everything.
TEST(DciAccelerator, FullBufferPassesFramesThrough)
{
    // 1000 messages; 15 frames fit the buffer, fewer than the window of 92, so the gain is
    // small (see BufferBelowBdpGainsInProportion): done in about 11 RTTs of 30.
    json doc = DciDoc(100, 92, 4096, 4096, 30000, 0);
    doc["traffic"][0]["iterations"] = 1000;
    doc["topology"]["accelerator"] = {{"enabled", true}, {"buffer_bytes", 65536}};
    SimRun r = Simulate(doc);
    const json& edge = r.results["dci_accelerator"]["edges"]["a-dci"];
    EXPECT_LE(edge["max_held_bytes"].get<uint64_t>(), 65536u);
    EXPECT_GT(edge["passed_unheld_packets"].get<uint64_t>(), 0u);
    EXPECT_EQ(r.Flow().bytesDelivered, 1000u * 4096);
    EXPECT_GE(r.Flow().completePs, 0);
    EXPECT_EQ(r.Flow().retransmits, 0u);
    EXPECT_TRUE(r.results["summary"]["conservation"]["balanced"].get<bool>());
}

// A buffer below the long link's BDP still accelerates: frames held after one that passed
// unheld are pseudo-ACKed once the far end's ACK closes the gap, so the QP does not fall back
// to end-to-end ACKs for good. In flight on the long link are at most the held frames plus the
// sender's window: throughput <= (buffer frames + 92) x 4096 B / RTT. 1 MB holds 239 frames of
// 4178 B: at most 10.69 Gbit/s, 3.6 x the 2.97 of the window alone.
TEST(DciAccelerator, BufferBelowBdpGainsInProportion)
{
    const double rtt = HandRttUs(506, 7, 4096);
    const double window = 92 * 4096 * 8 / (rtt * 1e3);
    double previous = window;
    for (uint64_t buffer : {1000000u, 4000000u, 8000000u})
    {
        json doc = DciDoc(100, 92, 4096, 4096, 20 * rtt, 10 * rtt);
        doc["topology"]["accelerator"] = {{"enabled", true}, {"buffer_bytes", buffer}};
        SimRun r = Simulate(doc);
        const json& edge = r.results["dci_accelerator"]["edges"]["a-dci"];
        double bound = (double(buffer / 4178) + 92) * 4096 * 8 / (rtt * 1e3);
        std::cout << buffer << " B buffer: " << r.Gbps() << " Gbit/s, bound " << bound
                  << ", pseudo-ACKs " << edge["pseudo_acks"] << ", passed unheld "
                  << edge["passed_unheld_packets"] << std::endl;
        EXPECT_LE(r.Gbps(), bound * 1.001) << buffer;
        EXPECT_GT(r.Gbps(), previous * 1.5) << "more buffer, more throughput: " << buffer;
        EXPECT_GT(edge["passed_unheld_packets"].get<uint64_t>(), 0u);
        EXPECT_EQ(r.results["summary"]["retransmitted_packets"], 0);
        previous = r.Gbps();
    }
    EXPECT_GT(previous, 10 * window) << "8 MB: well above the window alone";
}

namespace
{

/** a-h0 -> b-h0 across 100 km with a window of 5 BDPs (1000 x 64 KB) meets b-h1 -> b-h0 inside
 *  site b: b-h0's link is the bottleneck, and PFC backs up through b-leaf0, b-spine0 and b-dci
 *  to a-dci (a window of one BDP would shrink its own rate as queues grow, and never get there). */
json
CrossSiteIncast(const json& bDciPfc)
{
    json doc = DciDoc(100, 1000, 65536, 4096, 5000, 0);
    doc["topology"]["site"]["hosts_per_leaf"] = 2;
    // 64 MB edges: the dynamic threshold (alpha x free pool) is a few MB, so b-dci reaches XOFF
    // on its long-haul ingress within the run
    doc["topology"]["dci_buffer_bytes"] = 64000000;
    doc["traffic"].push_back(
        {{"kind", "perftest"}, {"src", "b-h1"}, {"dst", "b-h0"}, {"message_bytes", 65536}});
    if (!bDciPfc.is_null())
    {
        doc["switch_overrides"] = {{"b-dci", {{"pfc", bDciPfc}}}};
    }
    return doc;
}

uint64_t
PausesSent(SimRun& r, const std::string& from, const std::string& to)
{
    const Scenario& s = r.runner->Fabric().GetScenario();
    FabricSwitch* sw = r.runner->Fabric().Switch(s.topo.index.at(from));
    const Port& port = sw->GetPort(sw->PortToward(s.topo.index.at(to)));
    uint64_t n = 0;
    for (uint32_t prio = 0; prio < kNumPriorities; ++prio)
    {
        n += port.pausesSent[prio];
    }
    return n;
}

} // namespace

// PFC across the long link: the auto headroom of b-dci's long-haul port covers the 500 us cable
// (2 x 100 Gbit/s x 500 us / 8 = 12.5 MB plus frames and response), so pausing a-dci loses
// nothing; a headroom sized for a site cable (100 KB) overflows and the drops are reported.
TEST(DciDistance, PfcAcrossTheLongLinkNeedsCableHeadroom)
{
    SimRun sized = Simulate(CrossSiteIncast(nullptr));
    uint64_t pauses = PausesSent(sized, "b-dci", "a-dci");
    json drops = sized.results["summary"]["drops"];
    std::cout << "auto headroom: b-dci paused a-dci " << pauses << " times, drops " << drops.dump()
              << std::endl;
    EXPECT_GT(pauses, 0u) << "the congestion in site b must reach the long link";
    EXPECT_EQ(drops["total"], 0);

    SimRun small = Simulate(CrossSiteIncast({{"headroom_bytes", 100000}}));
    uint64_t overflow = small.results["summary"]["drops"]["headroom_overflow"].get<uint64_t>();
    std::cout << "100 KB headroom: " << overflow << " headroom overflow drops" << std::endl;
    EXPECT_GT(PausesSent(small, "b-dci", "a-dci"), 0u);
    EXPECT_GT(overflow, 0u) << "a pause takes a long-haul RTT to act: 12.5 MB keeps arriving";
}
