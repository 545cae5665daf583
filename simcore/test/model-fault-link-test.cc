/*
 * link_down / link_up faults: traffic moves to the remaining spine; with PFC and a zero
 * convergence delay only frames on the wire are lost; with a convergence delay frames routed
 * toward the dead link meanwhile are dropped too (counted as link_down).
 */
#include "model-test-util.h"

#include <gtest/gtest.h>

using namespace fabric;
using namespace fabric::test;

namespace
{

struct Fabric
{
    Scenario s;
    uint32_t leaf0 = 0;
    uint32_t leaf1 = 0;
    uint32_t spine0 = 0;
    uint32_t spine1 = 0;
};

/** h0, h1 under leaf0; h2, h3 under leaf1; two spines; 100G, 1 us links; 8 QPs h0,h1 -> h2,h3. */
Fabric
Build(uint64_t flowBytes)
{
    Fabric f;
    Scenario& s = f.s;
    s.durationNs = 3000000;
    for (int i = 0; i < 4; ++i)
    {
        AddNode(s, "h" + std::to_string(i), true);
    }
    f.leaf0 = AddNode(s, "leaf0", false);
    f.leaf1 = AddNode(s, "leaf1", false);
    f.spine0 = AddNode(s, "spine0", false);
    f.spine1 = AddNode(s, "spine1", false);
    AddLink(s, 0, f.leaf0, 100, 1);
    AddLink(s, 1, f.leaf0, 100, 1);
    AddLink(s, 2, f.leaf1, 100, 1);
    AddLink(s, 3, f.leaf1, 100, 1);
    for (uint32_t l : {f.leaf0, f.leaf1})
    {
        for (uint32_t sp : {f.spine0, f.spine1})
        {
            AddLink(s, l, sp, 100, 1);
        }
    }
    SetCc(s, "none", false);
    for (int q = 0; q < 4; ++q)
    {
        AddFlow(s, 0, 2, flowBytes).window = 200;
        AddFlow(s, 1, 3, flowBytes).window = 200;
    }
    return f;
}

FaultSpec
Down(uint32_t a, uint32_t b, uint64_t atNs, uint64_t convergenceNs)
{
    FaultSpec d;
    d.kind = FaultKind::LINK_DOWN;
    d.link = {a, b};
    d.startNs = atNs;
    d.convergenceNs = convergenceNs;
    return d;
}

bool
UsesHop(const std::vector<uint32_t>& path, uint32_t a, uint32_t b)
{
    for (size_t i = 0; i + 1 < path.size(); ++i)
    {
        if ((path[i] == a && path[i + 1] == b) || (path[i] == b && path[i + 1] == a))
        {
            return true;
        }
    }
    return false;
}

} // namespace

TEST(FaultLink, TrafficMovesToTheRemainingSpineAndOnlyTheWireIsLost)
{
    Fabric f = Build(2000000);
    FabricRunner before(f.s);
    int viaSpine0 = 0;
    for (const FlowSpec& fl : f.s.flows)
    {
        viaSpine0 += UsesHop(before.Fabric().NodePathOf(fl), f.leaf0, f.spine0) ? 1 : 0;
    }
    ASSERT_GT(viaSpine0, 0) << "ECMP must use the link that fails";
    ASSERT_LT(viaSpine0, 8);

    f.s.faults.push_back(Down(f.leaf0, f.spine0, 50000, 0));
    FabricRunner r(f.s);
    r.Run(RunLimits(), nullptr);
    auto res = r.Results();
    for (const FlowSpec& fl : f.s.flows)
    {
        EXPECT_FALSE(UsesHop(r.Fabric().NodePathOf(fl), f.leaf0, f.spine0));
    }
    // Every flow completes over the remaining spine.
    EXPECT_EQ(res["summary"]["flows_completed"].get<int>(), 8);
    // Lost: only frames on the wire of leaf0<->spine0 when it failed. leaf0->spine0 carries DATA:
    // at most 1 us / 86.56 ns + 1 = 12.6 frames. spine0->leaf0 carries ACKs, one per DATA frame
    // delivered, and the two receivers take at most 2 x 11.55 DATA frames per us: <= 24.1 ACKs.
    uint64_t wire = res["faults"]["drops"]["link_down"].get<uint64_t>();
    EXPECT_EQ(res["summary"]["drops"]["total"].get<uint64_t>(), wire);
    EXPECT_GT(wire, 0u);
    EXPECT_LE(wire, 12u + 24u);
    EXPECT_EQ(res["summary"]["drops"]["buffer_overflow"].get<uint64_t>(), 0u);
    EXPECT_EQ(res["summary"]["drops"]["headroom_overflow"].get<uint64_t>(), 0u);
    // Nothing crosses the dead link after it failed; the other spine carries everything.
    const Port& dead = r.Fabric().Device(f.leaf0)->GetPort(r.Fabric().Device(f.leaf0)->PortToward(f.spine0));
    const Port& alive = r.Fabric().Device(f.leaf0)->GetPort(r.Fabric().Device(f.leaf0)->PortToward(f.spine1));
    EXPECT_GT(alive.txWireBytesWarm, 8ull * 2000000);
    EXPECT_LT(dead.txWireBytesWarm, 8ull * 2000000 / 2);
    std::cout << "lost on the wire " << wire << " frames; flows via spine0 before: " << viaSpine0
              << std::endl;
}

TEST(FaultLink, ConvergenceDelayDropsWhatIsRoutedTowardTheDeadLink)
{
    Fabric f = Build(2000000);
    f.s.faults.push_back(Down(f.leaf0, f.spine0, 50000, 20000));
    FabricRunner r(f.s);
    r.Run(RunLimits(), nullptr);
    auto res = r.Results();
    uint64_t dropped = res["faults"]["drops"]["link_down"].get<uint64_t>();
    // For 20 us leaf0 keeps hashing some QPs onto the dead port: at up to 100 Gbit/s that is
    // up to 20 us / 86.56 ns = 231 frames, far more than the wire holds (<= 36).
    EXPECT_GT(dropped, 36u);
    EXPECT_LE(dropped, 2u * 231u + 36u);
    EXPECT_EQ(res["summary"]["flows_completed"].get<int>(), 8); // go-back-N recovers
    bool converged = false;
    for (const auto& e : res["faults"]["events"])
    {
        if (e["event"] == "routes_converged_without")
        {
            converged = true;
            EXPECT_EQ(e["t_us"].get<double>(), 70);
        }
    }
    EXPECT_TRUE(converged);
}

TEST(FaultLink, LinkComesBackAndIsUsedAgain)
{
    Fabric f = Build(0);
    f.s.durationNs = 600000;
    FaultSpec d = Down(f.leaf0, f.spine0, 50000, 0);
    d.endNs = 200000;
    f.s.faults.push_back(d);
    FabricRunner r(f.s);
    r.Run(RunLimits(), nullptr);
    int viaSpine0 = 0;
    for (const FlowSpec& fl : f.s.flows)
    {
        viaSpine0 += UsesHop(r.Fabric().NodePathOf(fl), f.leaf0, f.spine0) ? 1 : 0;
    }
    EXPECT_GT(viaSpine0, 0) << "after link up, ECMP uses the link again";
    auto res = r.Results();
    EXPECT_EQ(res["faults"]["events"].size(), 4u); // down, converged, up, converged
}
