/*
 * The simulator reads the limits, ranges and defaults that scenario-contract.h holds, generated
 * from the Pydantic models (backend/app/contracts/generate.py). These tests hold the model's own
 * configuration defaults to the generated ones and pin the disagreements issue 21 found: the
 * largest flow size (2^53), a `set` fault's pfc.alpha minimum (the static 1/128) and the switch's
 * byte limits in decimal units as documented (the API had 2^30 where the simulator had 10^9).
 */
#include "scenario/scenario-contract.h"
#include "scenario/scenario-parser.h"
#include "scenario-test-util.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

namespace
{

using nlohmann::json;

using fabric::test::LoadError;
using fabric::test::SmallLeafSpine;

TEST(Contract, ModelDefaultsAreTheGeneratedDefaults)
{
    using namespace fabric;
    SwitchConfig s;
    EXPECT_EQ(s.bufferBytes, kSwitchBufferBytes.def);
    EXPECT_EQ(s.cellBytes, kSwitchCellBytes.def);
    EXPECT_EQ(s.dataPriority, kSwitchDataPriority.def);
    EXPECT_EQ(s.ecmpSeed, kSwitchEcmpSeed.def);
    EXPECT_EQ(s.pfc.enabled, kSwitchPfcEnabled.def);
    EXPECT_EQ(s.pfc.alpha, kSwitchPfcAlpha.def);
    EXPECT_EQ(s.pfc.xonOffsetBytes, kSwitchPfcXonOffsetBytes.def);
    EXPECT_EQ(s.pfc.pauseQuanta, kSwitchPfcPauseQuanta.def);
    EXPECT_EQ(s.ecn[0].enabled, kSwitchEcnEnabled.def);
    EXPECT_EQ(s.ecn[0].kminBytes, kSwitchEcnKminBytes.def);
    EXPECT_EQ(s.ecn[0].kmaxBytes, kSwitchEcnKmaxBytes.def);
    EXPECT_EQ(s.ecn[0].pmax, kSwitchEcnPmax.def);
    NicConfig n;
    EXPECT_EQ(n.transport, kNicTransport.def);
    EXPECT_EQ(n.mtuBytes, kNicMtuBytes.def);
    EXPECT_EQ(n.qpDepth, kNicQpDepth.def);
    EXPECT_EQ(n.messageBytes, kNicMessageBytes.def);
    // cnp_interval_us has no default of its own: the preset's (scenario-validation-test).
    EXPECT_EQ(n.ackIntervalPackets, kNicAckIntervalPackets.def);
    EXPECT_EQ(n.rtoUs, kNicRtoUs.def);
    EXPECT_EQ(n.nackEnabled, kNicNackEnabled.def);
    EXPECT_EQ(n.headerBytes, kNicHeaderBytes.def);
    EXPECT_EQ(n.preambleIfgBytes, kNicPreambleIfgBytes.def);
    EXPECT_EQ(n.processesPerHost, kNicProcessesPerHost.def);
    EXPECT_EQ(n.qpCacheEntries, kNicQpCacheEntries.def);
    EXPECT_EQ(n.qpCacheMissNs, kNicQpCacheMissNs.def);
    EXPECT_EQ(n.reorderWindowPackets, kNicSprayedReorderWindowPackets.def);
    EXPECT_EQ(n.sackIntervalPackets, kNicSprayedSackIntervalPackets.def);
    EXPECT_EQ(n.erdPaths, kNicErdPaths.def);
    EXPECT_EQ(n.cc.algorithm, kNicCcAlgorithm.def);
}

TEST(Contract, ReaderDefaultsAreTheGeneratedDefaults)
{
    using namespace fabric;
    Scenario s = LoadScenario(SmallLeafSpine().dump());
    uint32_t leaf = s.topo.index.at("leaf0");
    uint32_t host = s.topo.index.at("h0");
    const SwitchConfig& sw = s.switchCfg[leaf];
    EXPECT_EQ(sw.bufferBytes, kSwitchBufferBytes.def);
    EXPECT_EQ(sw.pfc.pauseMode == PauseMode::QUANTA ? "quanta" : "xoff_xon",
              kSwitchPfcPauseMode.def);
    EXPECT_EQ(sw.ecnMarkOnDequeue ? "dequeue" : "enqueue", kSwitchEcnMarkPoint.def);
    EXPECT_EQ(sw.loadBalancing, LoadBalancing::ECMP);
    EXPECT_EQ(kSwitchLoadBalancing.def, "ecmp");
    const NicConfig& nic = s.nicCfg[host];
    EXPECT_EQ(nic.ackFlagFeedback ? "ack_flag" : "cnp", kNicEcnFeedback.def);
    EXPECT_EQ(nic.ackDataPriority ? "data" : "control", kNicAckPriority.def);
    EXPECT_EQ(nic.mtuBytes, kNicMtuBytes.def);
}

TEST(Contract, SwitchByteLimitsAreDecimal)
{
    // docs/scenario-format.md: byte multiples are decimal (1 GB = 10^9), on both sides.
    json d = SmallLeafSpine();
    d["switch"] = {{"buffer_bytes", fabric::kGb}, {"ecn", {{"kmin_bytes", fabric::kGb},
                                                          {"kmax_bytes", fabric::kGb}}}};
    EXPECT_EQ(LoadError(d), "");
    d["switch"]["buffer_bytes"] = fabric::kGb + 1;
    EXPECT_EQ(LoadError(d), "switch.buffer_bytes: must be an integer >= 65536 and <= 1000000000 bytes");
    d["switch"]["buffer_bytes"] = fabric::kGb;
    d["switch"]["pfc"] = {{"headroom_bytes", 64 * fabric::kMb + 1}};
    EXPECT_EQ(LoadError(d),
              "switch.pfc.headroom_bytes: must be an integer >= 0 and <= 64000000 bytes");
}

TEST(Contract, SetFaultAlphaHasTheStaticMinimum)
{
    json d = SmallLeafSpine();
    json set = {{"kind", "set"}, {"start_us", 10}, {"nodes", {"leaf0"}}, {"param", "pfc.alpha"},
                {"value", 1.0 / 128}};
    d["faults"] = json::array({set});
    EXPECT_EQ(LoadError(d), "");
    d["faults"][0]["value"] = 1.0 / 256;
    EXPECT_EQ(LoadError(d), "faults[0].value: must be >= 0.0078125 and <= 64 for pfc.alpha");
}

TEST(Contract, LargestFlowIsTwoToThe53)
{
    json d = SmallLeafSpine();
    json flow = {{"src", "h0"}, {"dst", "h3"}, {"size_bytes", 9007199254740992ULL},
                 {"start_us", 0}};
    d["traffic"] = json::array({{{"kind", "flows"}, {"flows", json::array({flow})}}});
    EXPECT_EQ(LoadError(d), "");
    d["traffic"][0]["flows"][0]["size_bytes"] = 9007199254740994ULL;
    EXPECT_EQ(LoadError(d).rfind("traffic[0].flows[0].size_bytes: must be", 0), 0u) << LoadError(d);
}

} // namespace
