/*
 * Accounting a user can trust (issue 7, section 3): link utilization counts only the bits
 * serialized inside the measurement window, so it never exceeds 1, at any rate and any
 * warm-up; goodput never exceeds line rate x payload / (payload + headers).
 */
#include "model-test-util.h"

#include "model/roce-packet.h"

#include <gtest/gtest.h>

using namespace fabric;
using namespace fabric::test;

namespace
{

/** One long-lived flow h0 -> h1 through one switch, no congestion control. */
nlohmann::ordered_json
Saturate(double rateGbps, uint64_t durationNs, uint64_t warmupNs)
{
    Scenario s;
    Star(s, 2, rateGbps, 1);
    SetCc(s, "none", false);
    s.durationNs = durationNs;
    s.warmupNs = warmupNs;
    AddFlow(s, 0, 1);
    FabricRunner r(s);
    r.Run(RunLimits(), nullptr);
    return r.Results();
}

/** Line rate x payload / wire bytes of a full frame (MTU 1000 + 82 bytes of headers). */
double
GoodputBound(double rateGbps)
{
    return rateGbps * 1000.0 / (1000.0 + kDataOverheadBytes);
}

} // namespace

TEST(ModelAccounting, UtilizationNeverAboveOneOnASaturatedLink)
{
    // Windows that start and end in the middle of frames: before the fix a frame started
    // before the end counted whole (1.0002 .. 1.0006 on saturated links).
    for (uint64_t warmupNs : {0ull, 12345ull, 100003ull})
    {
        for (uint64_t durationNs : {150000ull, 200777ull})
        {
            SCOPED_TRACE("warmup " + std::to_string(warmupNs) + " duration " +
                         std::to_string(durationNs));
            nlohmann::ordered_json res = Saturate(100, durationNs, warmupNs);
            const auto& summary = res["summary"];
            double sender = -1;
            for (const auto& e : summary["link_utilization"])
            {
                EXPECT_LE(e["utilization"].get<double>(), 1.0) << e.dump();
                if (e["link"] == "h0->sw")
                {
                    sender = e["utilization"].get<double>();
                }
            }
            EXPECT_GE(sender, 0.999); // busy from t = 0 to the end
            double bound = GoodputBound(100);
            EXPECT_LE(summary["throughput_gbps"].get<double>(), bound + 5e-5);
            EXPECT_GT(summary["throughput_gbps"].get<double>(), 0.97 * bound);
            for (const auto& f : res["flows"])
            {
                EXPECT_LE(f["goodput_gbps"].get<double>(), bound + 5e-5) << f.dump();
            }
        }
    }
}

TEST(ModelAccounting, UtilizationAndGoodputBoundedAtTheSlowestRate)
{
    // 10 Mbit/s: a 1082-byte frame takes 865.6 us. In a 100 us run the first frame is still on
    // the wire at the end: the link was busy the whole window (1.0, not 8.66 as when the whole
    // frame counted), and nothing has arrived yet.
    nlohmann::ordered_json res = Saturate(0.01, 100000, 0);
    const auto& util = res["summary"]["link_utilization"];
    ASSERT_GE(util.size(), 1u);
    EXPECT_EQ(util[0]["link"], "h0->sw");
    EXPECT_DOUBLE_EQ(util[0]["utilization"].get<double>(), 1.0);
    EXPECT_EQ(res["summary"]["throughput_gbps"].get<double>(), 0.0);
    // 4 ms with 1 ms of warm-up: frames straddle both edges of the window.
    res = Saturate(0.01, 4000000, 1000000);
    for (const auto& e : res["summary"]["link_utilization"])
    {
        EXPECT_LE(e["utilization"].get<double>(), 1.0) << e.dump();
    }
    EXPECT_LE(res["summary"]["throughput_gbps"].get<double>(), GoodputBound(0.01) + 5e-5);
    EXPECT_GT(res["summary"]["throughput_gbps"].get<double>(), 0.0);
}

namespace
{

/** n-to-1 incast on one switch at 25G, 1 us cables: senders h1..hn, receiver h0. */
Scenario
Incast(int senders, bool pfc, uint64_t bufferBytes)
{
    Scenario s;
    uint32_t sw = Star(s, senders + 1, 25, 1);
    s.durationNs = 300000;
    SetCc(s, "dcqcn", true);
    for (auto& c : s.switchCfg)
    {
        c.pfc.enabled = pfc;
        c.bufferBytes = bufferBytes;
    }
    for (int i = 1; i <= senders; ++i)
    {
        // long-lived and finite flows both
        AddFlow(s, static_cast<uint32_t>(i), 0, i % 2 ? 0 : 200000, static_cast<uint64_t>(i) * 1000);
    }
    (void)sw;
    return s;
}

/** Checks sent = received + dropped + in network, per flow and in total; returns the summary. */
nlohmann::ordered_json
ExpectConserved(const nlohmann::ordered_json& res)
{
    const auto& c = res["summary"]["conservation"];
    uint64_t sent = c["bytes_sent"];
    uint64_t received = c["bytes_received"];
    uint64_t dropped = c["bytes_dropped"]["total"];
    uint64_t inFlight = c["bytes_in_flight"];
    uint64_t queued = c["bytes_queued"];
    EXPECT_EQ(sent, received + dropped + inFlight + queued) << c.dump();
    EXPECT_TRUE(c["balanced"].get<bool>()) << c.dump();
    EXPECT_GE(received, c["bytes_delivered"].get<uint64_t>());
    uint64_t flowSent = 0;
    for (const auto& f : res["flows"])
    {
        uint64_t fs = f["bytes_sent"];
        EXPECT_EQ(fs, f["bytes_received"].get<uint64_t>() + f["bytes_dropped"].get<uint64_t>() +
                          f["bytes_in_network"].get<uint64_t>())
            << f.dump();
        EXPECT_LE(f["bytes_delivered"].get<uint64_t>(), f["bytes_received"].get<uint64_t>());
        EXPECT_LE(f["bytes_retransmitted"].get<uint64_t>(), fs);
        flowSent += fs;
    }
    EXPECT_EQ(flowSent, sent);
    return c;
}

} // namespace

TEST(ModelAccounting, ConservationOnALosslessRun)
{
    Scenario s = Incast(4, true, 12000000);
    FabricRunner r(s);
    r.Run(RunLimits(), nullptr);
    nlohmann::ordered_json c = ExpectConserved(r.Results());
    EXPECT_EQ(c["bytes_dropped"]["total"], 0);
    EXPECT_GT(c["bytes_sent"].get<uint64_t>(), 0u);
    // long-lived flows keep frames on the wires and in the queue at the end
    EXPECT_GT(c["bytes_in_flight"].get<uint64_t>() + c["bytes_queued"].get<uint64_t>(), 0u);
}

TEST(ModelAccounting, ConservationOnALossyRunWithRetransmissions)
{
    // PFC off and a 200 KB buffer: 8 senders at 25G into one 25G port overflow it.
    Scenario s = Incast(8, false, 200000);
    SetCc(s, "none", false);
    FabricRunner r(s);
    r.Run(RunLimits(), nullptr);
    nlohmann::ordered_json res = r.Results();
    nlohmann::ordered_json c = ExpectConserved(res);
    EXPECT_GT(c["bytes_dropped"]["total"].get<uint64_t>(), 0u);
    EXPECT_EQ(c["bytes_dropped"]["total"].get<uint64_t>(),
              c["bytes_dropped"]["tail_drop"].get<uint64_t>() +
                  c["bytes_dropped"]["buffer_overflow"].get<uint64_t>());
    EXPECT_GT(c["bytes_retransmitted"].get<uint64_t>(), 0u);
    // frames counted by the drop counters are whole 1000-byte payloads
    EXPECT_EQ(c["bytes_dropped"]["total"].get<uint64_t>() % 1000, 0u);
    EXPECT_GT(res["summary"]["drops"]["total"].get<uint64_t>(), 0u);
}

TEST(ModelAccounting, ConservationOnALossyErdRun)
{
    // The same overflowing incast over ERD: drops repaired by NACKs and selective resends,
    // frames delivered out of order and held for their message; every byte still accounted.
    Scenario s = Incast(8, false, 200000);
    SetCc(s, "none", false);
    for (auto& n : s.nicCfg)
    {
        n.transport = "erd";
    }
    FabricRunner r(s);
    r.Run(RunLimits(), nullptr);
    nlohmann::ordered_json res = r.Results();
    nlohmann::ordered_json c = ExpectConserved(res);
    EXPECT_GT(c["bytes_dropped"]["total"].get<uint64_t>(), 0u);
    EXPECT_GT(c["bytes_retransmitted"].get<uint64_t>(), 0u);
    uint64_t nacks = 0;
    for (const auto& f : res["flows"])
    {
        nacks += f["erd"]["nacks_sent"].get<uint64_t>();
        // A finite ERD flow that completed delivered exactly its size, each byte once.
        if (!f["fct_us"].is_null())
        {
            EXPECT_EQ(f["bytes_delivered"].get<uint64_t>(), f["size_bytes"].get<uint64_t>());
        }
    }
    EXPECT_GT(nacks, 0u);
}

TEST(ModelAccounting, ConservationOnARunCutOffByTheEventLimit)
{
    Scenario s = Incast(4, true, 12000000);
    FabricRunner r(s);
    RunLimits limits;
    limits.maxEvents = 3000;
    EXPECT_EQ(r.Run(limits, nullptr), RunStatus::LIMIT);
    nlohmann::ordered_json c = ExpectConserved(r.Results());
    EXPECT_GT(c["bytes_in_flight"].get<uint64_t>() + c["bytes_queued"].get<uint64_t>(), 0u);
}
