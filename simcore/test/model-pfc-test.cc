/*
 * Test 7: PFC. A 16-to-1 incast with auto headroom loses nothing and pauses; a headroom below
 * the cable term (2 x rate x delay) overflows; a paused egress starts no frame of the paused
 * priority while the pause holds (XOFF/XON and quanta modes).
 */
#include "model-test-util.h"
#include "scenario/headroom.h"

#include "ns3/callback.h"

#include <gtest/gtest.h>

#include <functional>

using namespace fabric;
using namespace fabric::test;

namespace
{

Scenario
Incast16(double delayUs)
{
    Scenario s;
    s.durationNs = 300000;
    Star(s, 17, 100, delayUs);
    SetCc(s, "none", false);
    for (uint32_t i = 1; i <= 16; ++i)
    {
        AddFlow(s, i, 0);
    }
    return s;
}

struct TxCheck
{
    RdmaNic* nic = nullptr;
    uint64_t dataWhilePaused = 0;
    uint64_t dataFrames = 0;
};

TxCheck g_check[17];

void
OnTx(TxCheck* c, uint32_t port, const RocePacket& p)
{
    if (p.kind != PacketKind::DATA)
    {
        return;
    }
    ++c->dataFrames;
    if (c->nic->IsPaused(port, p.priority))
    {
        ++c->dataWhilePaused;
    }
}

void
PausedEgressIsSilent(PauseMode mode)
{
    Scenario s = Incast16(1);
    for (auto& c : s.switchCfg)
    {
        c.pfc.pauseMode = mode;
        c.pfc.pauseQuanta = 2000; // 10.24 us at 100G: expiries and refreshes both happen
    }
    FabricRunner r(s);
    for (uint32_t h = 1; h <= 16; ++h)
    {
        g_check[h] = TxCheck();
        g_check[h].nic = r.Fabric().Nic(h);
        r.Fabric().Nic(h)->TraceConnectWithoutContext("Tx", ns3::MakeBoundCallback(&OnTx, &g_check[h]));
    }
    r.Run(RunLimits(), nullptr);
    auto res = r.Results();
    uint64_t received = 0;
    for (uint32_t h = 1; h <= 16; ++h)
    {
        EXPECT_EQ(g_check[h].dataWhilePaused, 0u) << "h" << h;
        EXPECT_GT(g_check[h].dataFrames, 0u);
        received += r.Fabric().Nic(h)->GetPort(0).pausesReceived[3];
    }
    EXPECT_GT(received, 0u);
    EXPECT_EQ(res["summary"]["drops"]["total"].get<uint64_t>(), 0u);
}

} // namespace

TEST(ModelPfc, AutoHeadroomIsLossless)
{
    Scenario s = Incast16(1);
    FabricRunner r(s);
    r.Run(RunLimits(), nullptr);
    auto sum = r.Results()["summary"];
    EXPECT_EQ(sum["drops"]["total"].get<uint64_t>(), 0u);
    EXPECT_GT(sum["pfc_pauses_sent"].get<uint64_t>(), 0u);
    EXPECT_GT(sum["pfc_pauses_received"].get<uint64_t>(), 0u);
    // The bottleneck stays busy under PFC.
    for (const auto& l : sum["link_utilization"])
    {
        if (l["link"] == "sw->h0")
        {
            EXPECT_GT(l["utilization"].get<double>(), 0.97);
        }
    }
    // Auto headroom: 2 x 12.5 KB/us x 1 us + 2 x 1082 + 12.5 KB, rounded up to 208-byte cells.
    EXPECT_EQ(r.Fabric().Switch(17)->Mmu().HeadroomOf(0), AutoHeadroomBytes(100, 1, 1000, 208));
    EXPECT_EQ(AutoHeadroomBytes(100, 1, 1000, 208), 39728u); // 39664 -> 191 cells
}

TEST(ModelPfc, HeadroomBelowCableTermDrops)
{
    // 5 us cables: the cable term alone is 2 x 12.5 KB/us x 5 us = 125 KB; give 60 KB.
    Scenario s = Incast16(5);
    for (auto& c : s.switchCfg)
    {
        c.pfc.headroomAuto = false;
        c.pfc.headroomBytes = 60000;
    }
    FabricRunner r(s);
    r.Run(RunLimits(), nullptr);
    auto sum = r.Results()["summary"];
    EXPECT_GT(sum["drops"]["headroom_overflow"].get<uint64_t>(), 0u);

    Scenario ok = Incast16(5);
    FabricRunner r2(ok);
    r2.Run(RunLimits(), nullptr);
    EXPECT_EQ(r2.Results()["summary"]["drops"]["total"].get<uint64_t>(), 0u);
}

TEST(ModelPfc, PausedEgressSendsNothingXoffXon)
{
    PausedEgressIsSilent(PauseMode::XOFF_XON);
}

TEST(ModelPfc, PausedEgressSendsNothingQuanta)
{
    PausedEgressIsSilent(PauseMode::QUANTA);
}

TEST(ModelPfc, PfcOffTailDrops)
{
    Scenario s = Incast16(1);
    for (auto& c : s.switchCfg)
    {
        c.pfc.enabled = false;
    }
    FabricRunner r(s);
    r.Run(RunLimits(), nullptr);
    auto sum = r.Results()["summary"];
    EXPECT_GT(sum["drops"]["tail_drop"].get<uint64_t>(), 0u);
    EXPECT_EQ(sum["pfc_pauses_sent"].get<uint64_t>(), 0u);
}

TEST(ModelPfc, PortSummaryMatchesEveryQueueAndIngress)
{
    // A switch keeps per egress port its data bytes and XOFF bits for the samplers (docs/model.md,
    // "Engine"): checked every microsecond of a 16-to-1 incast against the per-(port, priority)
    // queues and PFC states they summarise.
    Scenario s = Incast16(1.0);
    FabricRunner r(s);
    uint64_t checks = 0;
    uint64_t sawBytes = 0;
    uint64_t sawPausing = 0;
    std::function<void()> check = [&]() {
        for (uint32_t node = 0; r.Fabric().Device(node) != nullptr; ++node)
        {
            FabricSwitch* sw = r.Fabric().Switch(node);
            if (!sw)
            {
                continue;
            }
            for (uint32_t p = 0; p < sw->GetNPorts(); ++p)
            {
                uint64_t sum = 0;
                bool pausing = false;
                for (uint8_t prio = 0; prio < kNumPriorities; ++prio)
                {
                    sum += prio == kControlPriority ? 0 : sw->QueueBytes(p, prio);
                    pausing = pausing || sw->IsPausingPrio(p, prio);
                }
                ASSERT_EQ(sw->DataQueueBytes(p), sum) << "port " << p;
                ASSERT_EQ(sw->IsPausing(p), pausing) << "port " << p;
                sawBytes += sum > 0 ? 1 : 0;
                sawPausing += pausing ? 1 : 0;
                ++checks;
            }
        }
        ns3::Simulator::Schedule(ns3::MicroSeconds(1), check);
    };
    ns3::Simulator::Schedule(ns3::MicroSeconds(1), check);
    r.Run(RunLimits(), nullptr);
    EXPECT_GT(checks, 1000u);
    EXPECT_GT(sawBytes, 100u) << "the incast queued data";
    EXPECT_GT(sawPausing, 10u) << "the incast paused its senders";
}

TEST(ModelPfc, SetFaultChangesAlphaAndEcnOfPortsWithoutAPerRateEntry)
{
    // A `set` fault calls SetAlpha / SetEcn: every port's dynamic threshold and marking follow,
    // except ports under switch.pfc.alpha_by_rate / switch.ecn_by_rate, which keep their rate's
    // setting (as in the static configuration). Both were ignored by the ports before
    // (2026-11-26: the per-port copies made for the per-rate settings were not refreshed).
    Scenario s = Incast16(1.0);
    FabricRunner r(s);
    FabricSwitch* sw = r.Fabric().Switch(17);
    ASSERT_NE(sw, nullptr);
    uint64_t before = sw->Mmu().Threshold(0);
    ASSERT_GT(before, 0u);
    sw->SetAlpha(sw->Config().pfc.alpha * 4);
    EXPECT_NEAR(static_cast<double>(sw->Mmu().Threshold(0)), 4.0 * before, 4.0);
    std::array<EcnConfig, kNumPriorities> ecn = sw->Config().ecn;
    ecn[3].kminBytes = 1234;
    sw->SetEcn(ecn);
    EXPECT_EQ(sw->PortEcn(0, 3).kminBytes, 1234u);
    EXPECT_EQ(sw->PortEcn(16, 3).kminBytes, 1234u);

    Scenario pinned = Incast16(1.0);
    for (auto& c : pinned.switchCfg)
    {
        c.pfc.alphaByRate = {{100.0, 0.5}};
        c.ecnByRate = {{100.0, c.ecn}};
    }
    FabricRunner r2(pinned);
    FabricSwitch* sw2 = r2.Fabric().Switch(17);
    ASSERT_NE(sw2, nullptr);
    uint64_t pinnedBefore = sw2->Mmu().Threshold(0);
    uint64_t kmin = sw2->PortEcn(0, 3).kminBytes;
    sw2->SetAlpha(0.01);
    sw2->SetEcn(ecn);
    EXPECT_EQ(sw2->Mmu().Threshold(0), pinnedBefore);
    EXPECT_EQ(sw2->PortEcn(0, 3).kminBytes, kmin);
}
