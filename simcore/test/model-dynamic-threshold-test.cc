/*
 * Test 8: dynamic threshold. S saturated ingress queues (S senders at 100G into one 25G
 * receiver) each settle where shared use = alpha x (B - S x use): XOFF at alpha B / (1 + alpha S).
 * B is the shared pool (buffer less the reserved headroom), set to 12 MB here.
 */
#include "model-test-util.h"

#include "ns3/callback.h"

#include <gtest/gtest.h>

using namespace fabric;
using namespace fabric::test;

namespace
{

std::vector<std::pair<int64_t, uint64_t>> g_xoff;

void
OnXoff(uint32_t port, uint64_t sharedBytes)
{
    g_xoff.emplace_back(NowPs(), sharedBytes);
}

Scenario
Build(int senders, double alpha, uint64_t bufferBytes)
{
    Scenario s;
    s.durationNs = 1500000;
    for (int i = 0; i <= senders; ++i)
    {
        AddNode(s, "h" + std::to_string(i), true);
    }
    uint32_t sw = AddNode(s, "sw", false);
    AddLink(s, 0, sw, 25, 1);
    for (int i = 1; i <= senders; ++i)
    {
        AddLink(s, static_cast<uint32_t>(i), sw, 100, 1);
        AddFlow(s, static_cast<uint32_t>(i), 0).window = 100000;
    }
    SetCc(s, "none", false);
    for (auto& c : s.switchCfg)
    {
        c.pfc.alpha = alpha;
        c.bufferBytes = bufferBytes;
    }
    return s;
}

void
Check(int senders, double alpha)
{
    const double b = 12e6;
    // First build to learn the headroom reservation, then size the buffer so the pool is B.
    uint64_t reserved = 0;
    {
        Scenario probe = Build(senders, alpha, 20000000);
        FabricRunner r(probe);
        reserved = 20000000 - r.Fabric().Switch(static_cast<uint32_t>(senders + 1))->Mmu().SharedPool();
    }
    Scenario s = Build(senders, alpha, static_cast<uint64_t>(b) + reserved);
    g_xoff.clear();
    FabricRunner r(s);
    FabricSwitch* sw = r.Fabric().Switch(static_cast<uint32_t>(senders + 1));
    ASSERT_EQ(sw->Mmu().SharedPool(), static_cast<uint64_t>(b));
    sw->TraceConnectWithoutContext("Xoff", ns3::MakeCallback(&OnXoff));
    r.Run(RunLimits(), nullptr);
    double expected = alpha * b / (1 + alpha * senders);
    // XOFF events in the second half of the run, when every ingress queue is saturated.
    double sum = 0;
    int n = 0;
    for (auto& [t, bytes] : g_xoff)
    {
        if (t > 750000000)
        {
            sum += static_cast<double>(bytes);
            ++n;
        }
    }
    ASSERT_GT(n, 0) << "no XOFF in steady state";
    double mean = sum / n;
    EXPECT_NEAR(mean, expected, 1082.0) << "S=" << senders << " alpha=" << alpha;
    EXPECT_EQ(r.Results()["summary"]["drops"]["total"].get<uint64_t>(), 0u);
    std::cout << "S=" << senders << " alpha=" << alpha << " XOFF at " << mean << " expected "
              << expected << " (" << n << " events)" << std::endl;
}

} // namespace

TEST(ModelDynamicThreshold, Alpha16OneQueue)
{
    Check(1, 1.0 / 16); // 705,882 B
}

TEST(ModelDynamicThreshold, Alpha64OneQueue)
{
    Check(1, 1.0 / 64); // 184,615 B
}

TEST(ModelDynamicThreshold, Alpha16FourQueues)
{
    Check(4, 1.0 / 16); // 600,000 B
}

TEST(ModelDynamicThreshold, Alpha64FourQueues)
{
    Check(4, 1.0 / 64); // 176,470 B
}
