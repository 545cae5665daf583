/*
 * The DCI edges' buffer when dci_buffer_bytes is absent (docs/scenario-format.md, "dci"): 64 MB,
 * unless the long link's PFC headroom leaves less than 12 MB of it; then headroom + 12 MB. An
 * explicit value is taken as given. Headroom per port from scenario/headroom.h, written out here.
 */
#include "scenario/headroom.h"
#include "scenario/scenario-error.h"
#include "scenario/scenario-parser.h"

#include <gtest/gtest.h>

#include <numeric>

using namespace fabric;

namespace
{

std::string
Dci(double km, const std::string& extra = "")
{
    return R"({"schema_version": 1, "duration_us": 100, "topology": {"kind": "dci", "length_km": )" +
           std::to_string(km) + extra + "}}";
}

uint64_t
EdgeHeadroom(const Scenario& s, uint32_t edge)
{
    auto h = SwitchPortHeadroom(s.topo, s.switchCfg[edge], s.nicCfg, edge,
                                LargestHostMtu(s.topo, s.nicCfg));
    return std::accumulate(h.begin(), h.end(), uint64_t{0});
}

} // namespace

TEST(DciBuffer, ShortLinksKeepTheDefault)
{
    Scenario s = LoadScenario(Dci(100));
    uint32_t edge = s.topo.index.at("a-dci");
    EXPECT_EQ(s.switchCfg[edge].bufferBytes, 64000000u);
    EXPECT_LT(EdgeHeadroom(s, edge) + 12000000, 64000000u);
}

TEST(DciBuffer, LongLinksAreSizedFromTheirHeadroom)
{
    Scenario s = LoadScenario(Dci(1000));
    for (const char* id : {"a-dci", "b-dci"})
    {
        uint32_t edge = s.topo.index.at(id);
        uint64_t headroom = EdgeHeadroom(s, edge);
        // 1000 km = 5 ms one way: about 125 MB at 100 Gbit/s on the long port alone
        EXPECT_GT(headroom, 120000000u);
        EXPECT_EQ(s.switchCfg[edge].bufferBytes, headroom + 12000000);
    }
}

TEST(DciBuffer, AnExplicitBufferIsTakenAsGiven)
{
    try
    {
        LoadScenario(Dci(1000, R"(, "dci_buffer_bytes": 64000000)"));
        FAIL() << "64 MB cannot hold 1000 km of headroom";
    }
    catch (const ScenarioError& e)
    {
        EXPECT_NE(std::string(e.what()).find("topology.dci_buffer_bytes"), std::string::npos) << e.what();
    }
    Scenario s = LoadScenario(Dci(100, R"(, "dci_buffer_bytes": 30000000)"));
    EXPECT_EQ(s.switchCfg[s.topo.index.at("b-dci")].bufferBytes, 30000000u);
    // an override of the edge wins too
    Scenario o = LoadScenario(R"({"schema_version": 1, "duration_us": 100,
      "topology": {"kind": "dci", "length_km": 100},
      "switch_overrides": {"a-dci": {"buffer_bytes": 50000000}}})");
    EXPECT_EQ(o.switchCfg[o.topo.index.at("a-dci")].bufferBytes, 50000000u);
}
