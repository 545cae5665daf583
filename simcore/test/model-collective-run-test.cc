/*
 * Collectives run on the packet model, checked against formulas written here:
 *  - a ring all-reduce of S bytes over n ranks on a non-blocking leaf-spine: 2(n-1) steps of S/n,
 *    busbw within 3 % of the payload line rate (line x mtu / (mtu + headers + preamble));
 *  - halving-doubling: 2 log2 n steps, the same busbw bound;
 *  - the double binary tree: every rank sends 2 x S/2 ... its JCT is at least its busiest
 *    rank's bytes at the payload rate;
 *  - an all-to-all on a 2:1 oversubscribed leaf-spine within 5 % of the max-min fair bound
 *    (the bytes that must cross one leaf's uplink over its payload rate);
 *  - dependencies exact: no flow starts before the flows it waits for completed plus the gap;
 *    an NVLink step takes exactly bytes x 8 / nvlink_gbps.
 */
#include "common/wire.h"
#include "helper/fabric-run.h"
#include "helper/fabric-runner.h"
#include "helper/flow-dependencies.h"
#include "helper/network-builder.h"
#include "scenario/path-timing.h"
#include "model/rdma-nic.h"
#include "scenario/scenario-parser.h"

#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <map>
#include <string>
#include <set>

using namespace fabric;

namespace
{

std::string
LeafSpine(double fabricGbps, int spines, const std::string& traffic, const std::string& nic = "")
{
    return R"({"schema_version": 1, "seed": 1, "duration_us": 20000,
      "nic": {"mtu_bytes": 4096)" + nic + R"(},
      "topology": {"kind": "leaf_spine", "leaves": 2, "spines": )" + std::to_string(spines) +
           R"(, "hosts_per_leaf": 4, "host_rate_gbps": 100, "fabric_rate_gbps": )" +
           std::to_string(fabricGbps) + R"(, "link_delay_us": 1},
      "traffic": [)" + traffic + "]}";
}

/** 100 Gbit/s carrying 4096-byte payloads in frames of 4096 + headers + preamble and gap. */
double
PayloadGbps(const Scenario& s)
{
    const NicConfig& nic = s.nicCfg[0];
    return 100.0 * 4096 / (4096 + nic.headerBytes + nic.preambleIfgBytes);
}

nlohmann::ordered_json
RunJob(const std::string& text, Scenario* out = nullptr)
{
    Scenario s = LoadScenario(text);
    if (out)
    {
        *out = s;
    }
    FabricRunner r(s);
    EXPECT_EQ(r.Run(RunLimits(), nullptr), RunStatus::OK);
    auto res = r.Results();
    EXPECT_TRUE(res.contains("jobs"));
    return res["jobs"][0];
}

} // namespace

TEST(CollectiveRun, RingAllReduceBusbwWithinThreePercentOfPayloadLineRate)
{
    const uint64_t size = 32000000;
    Scenario s;
    auto job = RunJob(LeafSpine(400, 2, R"({"kind": "collective", "op": "all_reduce",
        "algorithm": "ring", "message_bytes": 32000000})"), &s);
    ASSERT_TRUE(job["completed"].get<bool>());
    const double n = 8;
    // 2(n-1) steps of S/n: the busbw definition makes the ideal the payload rate itself
    std::set<uint32_t> steps;
    for (const auto& st : job["steps"])
    {
        steps.insert(st["step"].get<uint32_t>());
        EXPECT_EQ(st["bytes"].get<uint64_t>(), static_cast<uint64_t>(n * size / n));
    }
    EXPECT_EQ(steps.size(), 14u);
    double jct = job["jct_us"].get<double>();
    double algbw = size * 8.0 / jct / 1000.0;
    EXPECT_NEAR(job["algbw_gbps"].get<double>(), algbw, 1e-3);
    double busbw = algbw * 2 * (n - 1) / n;
    EXPECT_NEAR(job["busbw_gbps"].get<double>(), busbw, 1e-3);
    double payload = PayloadGbps(s);
    EXPECT_NEAR(job["nic_payload_gbps"].get<double>(), payload, 1e-3);
    EXPECT_LE(busbw, payload);
    EXPECT_GE(busbw, 0.97 * payload) << "busbw " << busbw << " of " << payload;
}

TEST(CollectiveRun, HalvingDoublingTakesTwoLogNStepsAtTheSameBusbw)
{
    Scenario s;
    auto job = RunJob(LeafSpine(400, 2, R"({"kind": "collective", "op": "all_reduce",
        "algorithm": "halving_doubling", "message_bytes": 32000000})"), &s);
    ASSERT_TRUE(job["completed"].get<bool>());
    EXPECT_EQ(job["steps"].size(), 6u); // 2 log2 8
    EXPECT_EQ(job["flows"].get<uint64_t>(), 6u * 8);
    double payload = PayloadGbps(s);
    double busbw = job["busbw_gbps"].get<double>();
    EXPECT_LE(busbw, payload);
    EXPECT_GE(busbw, 0.97 * payload);
}

TEST(CollectiveRun, TreeIsBoundByItsBusiestRank)
{
    // Double binary tree, S = 8 MiB, 1 MiB chunks: each tree carries 4 MiB; an inner node of one
    // tree sends 1 chunk up and 2 down per chunk, and as a leaf of the other 1 up: 4 x 4 MiB
    // per rank at most, so JCT >= 16 MiB at the payload rate, and the reduce + broadcast
    // structure gives 2 x 4 chunk steps per tree. Without congestion control: a parent's two
    // children share its link, and DCQCN's cuts persist on their connections (docs/model.md,
    // "Collectives"), which measures DCQCN's recovery, not the tree's pipelining.
    Scenario s;
    auto job = RunJob(LeafSpine(400, 2, R"({"kind": "collective", "op": "all_reduce",
        "algorithm": "tree", "message_bytes": 8388608})", R"(, "cc": {"algorithm": "none"})"), &s);
    ASSERT_TRUE(job["completed"].get<bool>());
    EXPECT_EQ(job["flows"].get<uint64_t>(), 2u * 2 * 7 * 4);
    std::set<uint32_t> steps;
    for (const auto& st : job["steps"])
    {
        steps.insert(st["step"].get<uint32_t>());
    }
    EXPECT_EQ(steps.size(), 8u);
    double bound = 4 * 4194304 * 8.0 / (PayloadGbps(s) * 1000.0);
    EXPECT_GE(job["jct_us"].get<double>(), bound);
    EXPECT_LT(job["jct_us"].get<double>(), 4 * bound); // pipelined, not step after step
}

TEST(CollectiveRun, AllToAllOnTwoToOneOversubscriptionWithinFivePercentOfMaxMinBound)
{
    // 2 leaves x 4 hosts at 100G, one 200G spine link per leaf: 2:1. Each rank sends S/8 to
    // every other rank; 4 ranks x 4 peers across x S/8 = 2S bytes must leave a leaf through
    // 200G. PFC alone (no DCQCN) shares the uplink max-min fairly.
    const double size = 16000000;
    Scenario s;
    auto job = RunJob(LeafSpine(200, 1, R"({"kind": "collective", "op": "all_to_all",
        "algorithm": "direct", "message_bytes": 16000000})", R"(, "cc": {"algorithm": "none"})"),
                      &s);
    ASSERT_TRUE(job["completed"].get<bool>());
    double bound = 2 * size * 8.0 / (2 * PayloadGbps(s) * 1000.0);
    double jct = job["jct_us"].get<double>();
    EXPECT_GE(jct, bound);
    EXPECT_LE(jct, 1.05 * bound) << jct << " us against " << bound;
}

TEST(CollectiveRun, EveryFlowStartsWhenItsSenderKnowsItsInputsAndNvlinkStepsTakeTheirCost)
{
    Scenario s = LoadScenario(R"({"schema_version": 1, "seed": 2, "duration_us": 5000,
      "topology": {"kind": "rail_optimized", "units": 2, "servers_per_unit": 2,
                   "nics_per_server": 4, "spines": 2, "host_rate_gbps": 100,
                   "fabric_rate_gbps": 100, "nvlink_gbps": 800},
      "traffic": [{"kind": "collective", "op": "all_reduce", "algorithm": "hierarchical",
                   "message_bytes": 3200000, "iterations": 2, "compute_us": 7},
                  {"kind": "flows", "flows": [
                    {"src": "h0", "dst": "h5", "size_bytes": 50000, "start_us": 0},
                    {"src": "h5", "dst": "h9", "size_bytes": 50000, "start_us": 1, "after": [0],
                     "gap_us": 3},
                    {"src": "h0", "dst": "h9", "size_bytes": 50000, "start_us": 0, "after": [0]}]}]})");
    FabricRunner r(s);
    ASSERT_EQ(r.Run(RunLimits(), nullptr), RunStatus::OK);
    const FabricContext& ctx = r.Fabric().Context();
    const Scenario& sc = r.Fabric().GetScenario();
    uint32_t checked = 0;
    uint32_t nvlink = 0;
    uint32_t acknowledged = 0;
    uint32_t queued = 0;
    for (uint32_t i = 0; i < sc.flows.size(); ++i)
    {
        ASSERT_GE(ctx.flows[i].completePs, 0) << "flow " << i << " did not complete";
    }
    const Transfers& tr = sc.transfers;
    ASSERT_FALSE(tr.Empty());
    for (uint32_t t = 0; t < tr.Size(); ++t)
    {
        int64_t start = ctx.transferStartPs[t];
        int64_t done = ctx.transferCompletePs[t];
        ASSERT_GE(done, 0) << "transfer " << t << " did not complete";
        const FlowSpec& conn = sc.flows[tr.flow[t]];
        if (conn.local)
        {
            // bytes x 8 / 800 Gbit/s, in ns
            int64_t ns = std::llround(tr.bytes[t] * 8.0 / 800.0);
            EXPECT_EQ(done - start, ns * 1000);
            ++nvlink;
        }
        int64_t ready = static_cast<int64_t>(conn.startNs) * 1000;
        for (uint32_t k = tr.deps.begin[t]; k < tr.deps.begin[t + 1]; ++k)
        {
            uint32_t in = tr.deps.on[k];
            const FlowSpec& input = sc.flows[tr.flow[in]];
            // Known at the waiting transfer's sender: at once on the receiver's host, when the
            // last ACK is back if that sender sent the input (propagation + the ACK's
            // serialization at every hop of its path).
            int64_t known = ctx.transferCompletePs[in];
            if (FlowDependencyTracker::Acknowledged(input, conn))
            {
                const NetworkBuilder& net = r.Fabric().Network();
                const NicConfig& nc = net.Nics()[input.src]->Config();
                known += static_cast<int64_t>(std::ceil(
                    AckReturnPs(net.PathOf(input), nc.headerBytes + nc.preambleIfgBytes + kAethBytes)));
                ++acknowledged;
            }
            ready = std::max<int64_t>(ready, known + static_cast<int64_t>(tr.deps.gapNs[t]) * 1000);
        }
        // in order on its connection: never before the transfer before it there
        if (t > tr.flowBegin[tr.flow[t]] && ctx.transferStartPs[t - 1] > ready)
        {
            ready = ctx.transferStartPs[t - 1];
            ++queued;
        }
        EXPECT_EQ(start, ready) << "transfer " << t; // posted exactly when its inputs are in
        ++checked;
    }
    EXPECT_LT(queued, checked);
    EXPECT_GT(nvlink, 0u);
    EXPECT_GT(checked, 100u);
    EXPECT_GT(acknowledged, 100u);
    auto res = r.Results();
    // the listed flows appear in "flows"; the collective's steps only in "jobs"
    ASSERT_EQ(res["flows"].size(), 3u);
    // (the result lists flows by sender)
    std::map<std::string, nlohmann::ordered_json> listed;
    for (const auto& f : res["flows"])
    {
        listed[f["src"].get<std::string>() + ">" + f["dst"].get<std::string>()] = f;
    }
    ASSERT_EQ(listed.size(), 3u);
    double first =
        listed["h0>h5"]["start_us"].get<double>() + listed["h0>h5"]["fct_us"].get<double>();
    EXPECT_NEAR(listed["h5>h9"]["start_us"].get<double>(), first + 3, 1e-3);
    // h0 learns that its flow to h5 completed when the last ACK is back: 4 hops of 1 us (h0 and
    // h5 are on different rails) plus 4 ACK serializations of 82 bytes at 100G (6.56 ns each)
    EXPECT_NEAR(listed["h0>h9"]["start_us"].get<double>(), first + 4 + 4 * 0.00656, 1e-3);
    const auto& job = res["jobs"][0];
    ASSERT_EQ(job["iterations"].size(), 2u);
    // the second iteration starts at least compute_us after the first one's earliest end
    EXPECT_GE(job["iterations"][1]["start_us"].get<double>(),
              job["iterations"][0]["start_us"].get<double>() + 7);
    EXPECT_EQ(job["flows_completed"].get<uint64_t>(), job["flows"].get<uint64_t>());
}

// ---- Persistent connections (docs/model.md, "Collectives": connections and messages) ----

TEST(CollectiveConnections, RingUsesOneQpPerRankAndChannelCarryingItsStepsInOrder)
{
    // 8 ranks, no servers (no NVLink), 3 channels: n x C = 24 QPs, each carrying the
    // 2(n-1) = 14 steps of its ring position as messages, posted and completed in order.
    Scenario s = LoadScenario(LeafSpine(100, 2, R"({"kind": "collective", "op": "all_reduce",
        "algorithm": "ring", "message_bytes": 2400000, "channels": 3})"));
    const uint32_t n = 8;
    const uint32_t c = 3;
    ASSERT_EQ(s.flows.size(), n * c);
    ASSERT_EQ(s.transfers.Size(), 2 * (n - 1) * n * c);
    for (uint32_t f = 0; f < s.flows.size(); ++f)
    {
        EXPECT_FALSE(s.flows[f].local);
        EXPECT_EQ(s.transfers.flowBegin[f + 1] - s.transfers.flowBegin[f], 2 * (n - 1)) << f;
    }
    FabricRunner r(s);
    ASSERT_EQ(r.Run(RunLimits(), nullptr), RunStatus::OK);
    const FabricContext& ctx = r.Fabric().Context();
    const Scenario& sc = r.Fabric().GetScenario();
    for (uint32_t f = 0; f < sc.flows.size(); ++f)
    {
        for (uint32_t t = sc.transfers.flowBegin[f]; t < sc.transfers.flowBegin[f + 1]; ++t)
        {
            ASSERT_GE(ctx.transferCompletePs[t], ctx.transferStartPs[t]);
            EXPECT_EQ(sc.transfers.job[t].step, t - sc.transfers.flowBegin[f]); // step order
            if (t > sc.transfers.flowBegin[f])
            {
                EXPECT_GE(ctx.transferStartPs[t], ctx.transferStartPs[t - 1]) << t;
                EXPECT_GT(ctx.transferCompletePs[t], ctx.transferCompletePs[t - 1]) << t;
            }
        }
        EXPECT_GE(ctx.flows[f].completePs, 0);
    }
    auto res = r.Results();
    EXPECT_EQ(res["summary"]["flows_total"].get<uint64_t>(), n * c);
    EXPECT_EQ(res["summary"]["flows_completed"].get<uint64_t>(), n * c);
    EXPECT_EQ(res["jobs"][0]["flows"].get<uint64_t>(), 2 * (n - 1) * n * c); // transfers
    EXPECT_EQ(res["jobs"][0]["flows_completed"].get<uint64_t>(), 2 * (n - 1) * n * c);
}

TEST(CollectiveConnections, SmallRingJctByHand)
{
    // A ring all-gather over the 4 hosts of one leaf (100G, 1 us links), blocks of 1 MiB = 256
    // frames of 4096 bytes: each of the n - 1 = 3 steps is the block's serialization at line
    // rate, the leaf's store-and-forward of the last frame and two links' propagation; the next
    // step starts at once at the receiver, which forwards the block on its own QP. An ACK per
    // 64 packets keeps the reverse ACKs off the data's way.
    Scenario s = LoadScenario(LeafSpine(100, 2, R"({"kind": "collective", "op": "all_gather",
        "algorithm": "ring", "hosts": ["h0", "h1", "h2", "h3"], "message_bytes": 4194304})",
                                        R"(, "ack_interval_packets": 64)"));
    FabricRunner r(s);
    ASSERT_EQ(r.Run(RunLimits(), nullptr), RunStatus::OK);
    const NicConfig& nic = s.nicCfg[0];
    double frameNs = (4096.0 + nic.headerBytes + nic.preambleIfgBytes) * 8.0 / 100.0;
    double stepNs = 257 * frameNs + 2 * 1000.0;
    auto res = r.Results();
    const auto& job = res["jobs"][0];
    ASSERT_TRUE(job["completed"].get<bool>());
    EXPECT_NEAR(job["jct_us"].get<double>(), 3 * stepNs / 1000.0, 3 * stepNs / 1000.0 * 0.002);
    EXPECT_EQ(res["summary"]["flows_total"].get<uint64_t>(), 4u);
}

TEST(CollectiveConnections, CongestionControlStateCarriesOverToTheNextMessage)
{
    // Two rings cross leaf 0's single uplink (h0 -> h4 and h1 -> h5 share it at 2 x 100G on a
    // 100G link): ECN marks cut the QPs' DCQCN rates. A message posted on a QP whose rate was cut
    // starts at that rate (the QP keeps its state), not at line rate as a new QP would.
    Scenario s = LoadScenario(LeafSpine(100, 1, R"({"kind": "collective", "op": "all_gather",
        "algorithm": "ring", "hosts": ["h0", "h4", "h1", "h5"], "message_bytes": 8388608})"));
    FabricRunner r(s);
    FabricContext& ctx = r.Fabric().Context();
    uint32_t posts = 0;
    uint32_t belowLine = 0;
    uint32_t cutsCarried = 0;
    std::vector<double> rateAtLastCompletion(s.flows.size(), 0);
    auto onPost = [&](uint32_t flow) {
        const FlowState& f = ctx.flows[flow];
        ++posts;
        if (f.cc)
        {
            double rate = f.cc->GetRateBps();
            belowLine += rate < f.lineRateBps ? 1 : 0;
            cutsCarried += rate < f.lineRateBps && rate <= rateAtLastCompletion[flow] * 1.5 ? 1 : 0;
        }
    };
    auto onDone = [&](uint32_t transfer) {
        uint32_t flow = r.Fabric().GetScenario().transfers.flow[transfer];
        const FlowState& f = ctx.flows[flow];
        rateAtLastCompletion[flow] = f.cc ? f.cc->GetRateBps() : 0;
    };
    std::function<void(uint32_t)> post = onPost;
    std::function<void(uint32_t)> done = onDone;
    for (RdmaNic* nic : r.Fabric().Network().Nics())
    {
        if (nic)
        {
            nic->TraceConnectWithoutContext(
                "MessagePosted", ns3::Callback<void, uint32_t>([&post](uint32_t f) { post(f); }));
            nic->TraceConnectWithoutContext(
                "MessageComplete", ns3::Callback<void, uint32_t>([&done](uint32_t t) { done(t); }));
        }
    }
    ASSERT_EQ(r.Run(RunLimits(), nullptr), RunStatus::OK);
    EXPECT_EQ(posts, 4u * 3u);    // 4 QPs x 3 steps
    EXPECT_GT(belowLine, 0u);     // a later message started below line rate
    EXPECT_GT(cutsCarried, 0u);   // at (about) the rate the QP had when its last message ended
    EXPECT_GT(TotalCounters(ctx).cnpsSent, 0u);
}

namespace
{
/**
 * A 2-rank ring all-gather (h0 -> h1, h1 -> h0) with a marker between them, as EmitPlan emits one
 * (0 bytes, a rank to itself, on a local connection of its own): h1 "computes" 5 us after h0's
 * block arrived, then sends its own. Returns the transfer indices (h0's, h1's, the marker's).
 */
std::array<uint32_t, 3>
AddMarker(Scenario& s)
{
    Transfers& tr = s.transfers;
    EXPECT_EQ(tr.Size(), 2u);
    uint32_t h1 = s.topo.index.at("h1");
    uint32_t first = s.flows[tr.flow[0]].src == h1 ? 1 : 0;
    uint32_t second = 1 - first;
    FlowSpec m = s.flows[tr.flow[second]];
    m.id = static_cast<uint32_t>(s.flows.size());
    m.dst = m.src;
    m.local = true;
    m.sizeBytes = 0;
    s.flows.push_back(m);
    s.jobFlows.resize(s.flows.size());
    s.jobFlows[m.id].job = 0;
    uint32_t marker = 2;
    tr.flow.push_back(m.id);
    tr.bytes.push_back(0);
    JobFlow jf = tr.job[second];
    jf.localNs = 0;
    tr.job.push_back(jf);
    tr.flowBegin.push_back(3);
    std::vector<std::vector<uint32_t>> on(3);
    on[second] = {marker};
    on[marker] = {first};
    tr.deps.begin = {0};
    tr.deps.on.clear();
    for (const auto& row : on)
    {
        tr.deps.on.insert(tr.deps.on.end(), row.begin(), row.end());
        tr.deps.begin.push_back(static_cast<uint32_t>(tr.deps.on.size()));
    }
    tr.deps.gapNs = {0, 0, 0};
    tr.deps.gapNs[marker] = 5000;
    return {first, second, marker};
}
} // namespace

TEST(CollectiveConnections, MarkersCompleteAtOnceAfterTheirInputsAndGap)
{
    Scenario s = LoadScenario(LeafSpine(100, 2, R"({"kind": "collective", "op": "all_gather",
        "algorithm": "ring", "hosts": ["h0", "h1"], "message_bytes": 2000000})"));
    auto [first, second, marker] = AddMarker(s);
    FabricRunner r(s);
    ASSERT_EQ(r.Run(RunLimits(), nullptr), RunStatus::OK);
    const FabricContext& ctx = r.Fabric().Context();
    ASSERT_GE(ctx.transferCompletePs[first], 0);
    // known at h1 when h0's block arrives, + 5 us; done at once; h1's send follows at once
    EXPECT_EQ(ctx.transferStartPs[marker], ctx.transferCompletePs[first] + 5000000);
    EXPECT_EQ(ctx.transferCompletePs[marker], ctx.transferStartPs[marker]);
    EXPECT_EQ(ctx.transferStartPs[second], ctx.transferCompletePs[marker]);
    EXPECT_GT(ctx.transferCompletePs[second], ctx.transferStartPs[second]);
    auto res = r.Results();
    EXPECT_EQ(res["summary"]["flows_total"].get<uint64_t>(), 3u);
    EXPECT_EQ(res["summary"]["flows_completed"].get<uint64_t>(), 3u);
    EXPECT_EQ(res["jobs"][0]["flows_completed"].get<uint64_t>(), 3u);
}
