/*
 * The training plan (scenario/training-plan.h) against figures written here: Megatron-LM's group
 * membership, the FLOP count, the refusals, and the schedule's timing on an ideal network (a
 * transfer takes bytes / rate after the last of what it waits for, compute its gap): the 1F1B
 * iteration is (m + p - 1)(t_f + t_b) when communication costs nothing, pure DP is compute plus
 * the all-reduce, and overlapped buckets hide behind the backward pass.
 */
#include "scenario/scenario-error.h"
#include "scenario/scenario-parser.h"
#include "scenario/training-plan.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>
#include <tuple>

using namespace fabric;

namespace
{

TrainingRequest
Request(uint32_t tp, uint32_t pp, uint32_t dp, uint32_t gpusPerServer = 8)
{
    TrainingRequest r;
    r.model.name = "custom";
    r.model.layers = 8;
    r.model.hidden = 1024;
    r.model.ffnHidden = 4096;
    r.model.heads = 16;
    r.model.seqLen = 1024;
    r.model.vocab = 32000;
    r.parallel.tp = tp;
    r.parallel.pp = pp;
    r.parallel.dp = dp;
    for (uint32_t i = 0; i < tp * pp * dp; ++i)
    {
        r.serverOf.push_back(i / gpusPerServer);
    }
    return r;
}

/**
 * Completion time (ns) of every transfer on an ideal network of `nsPerByte` per transfer: it
 * starts at the last completion it waits for plus its gap, and takes bytes x nsPerByte.
 */
std::vector<double>
IdealTimes(const TrainingPlan& plan, double nsPerByte)
{
    std::vector<double> done(plan.transfers.size(), -1);
    // the plan lists every transfer after what it waits for except DP buckets' ready markers
    // (earlier) and PP sends (earlier): one pass in index order suffices
    for (std::size_t i = 0; i < plan.transfers.size(); ++i)
    {
        const Transfer& t = plan.transfers[i];
        double start = 0;
        for (uint32_t a : plan.transfers.After(i))
        {
            EXPECT_LT(a, i) << "transfer " << i << " waits for a later one";
            start = std::max(start, done[a]);
        }
        done[i] = start + static_cast<double>(t.gapNs) + static_cast<double>(t.bytes) * nsPerByte;
    }
    return done;
}

double
IterationNs(const TrainingPlan& plan, const std::vector<double>& done, uint32_t k)
{
    double end = 0;
    for (uint32_t m : plan.iterationEnd[k])
    {
        end = std::max(end, done[m]);
    }
    return end;
}

} // namespace

TEST(TrainingPlanTest, MegatronRankOrder)
{
    TrainingParallelSpec p;
    p.tp = 4;
    p.pp = 2;
    p.dp = 3;
    // TP fastest, then DP, then PP
    EXPECT_EQ(TrainingRank(p, 1, 2, 1), 1u + 4u * (2u + 3u * 1u));
    EXPECT_EQ(TpGroup(p, 1, 0), (std::vector<uint32_t>{4, 5, 6, 7}));
    EXPECT_EQ(DpGroup(p, 2, 1), (std::vector<uint32_t>{14, 18, 22}));
    EXPECT_EQ(PpGroup(p, 3, 0), (std::vector<uint32_t>{3, 15}));
    p.dp = 4;
    p.ep = 2;
    EXPECT_EQ(EpGroup(p, 0, 3, 0), (std::vector<uint32_t>{8, 12}));
    // every rank in exactly one TP, DP and PP group
    std::multiset<uint32_t> tp, dp, pp;
    for (uint32_t s = 0; s < p.pp; ++s)
        for (uint32_t d = 0; d < p.dp; ++d)
            for (uint32_t r : TpGroup(p, d, s))
                tp.insert(r);
    for (uint32_t s = 0; s < p.pp; ++s)
        for (uint32_t t = 0; t < p.tp; ++t)
            for (uint32_t r : DpGroup(p, t, s))
                dp.insert(r);
    for (uint32_t d = 0; d < p.dp; ++d)
        for (uint32_t t = 0; t < p.tp; ++t)
            for (uint32_t r : PpGroup(p, t, d))
                pp.insert(r);
    for (uint32_t r = 0; r < p.tp * p.pp * p.dp; ++r)
    {
        EXPECT_EQ(tp.count(r), 1u);
        EXPECT_EQ(dp.count(r), 1u);
        EXPECT_EQ(pp.count(r), 1u);
    }
}

TEST(TrainingPlanTest, TpCollectivesStayInTheirGroup)
{
    TrainingRequest r = Request(4, 2, 2, 4);
    r.iterations = 1;
    TrainingPlan plan = PlanTraining(r);
    for (std::size_t i = 0; i < plan.transfers.size(); ++i)
    {
        const Transfer& t = plan.transfers[i];
        TrainingParallelSpec& p = r.parallel;
        auto t_ = [&](uint32_t x)
        {
            return x % p.tp;
        };
        auto d_ = [&](uint32_t x)
        {
            return x / p.tp % p.dp;
        };
        auto s_ = [&](uint32_t x)
        {
            return x / (p.tp * p.dp);
        };
        switch (plan.kind[i])
        {
        case TrainingKind::COMPUTE:
            EXPECT_EQ(t.src, t.dst);
            EXPECT_EQ(t.bytes, 0u);
            break;
        case TrainingKind::TP: // same data index and stage: inside one server here
            EXPECT_EQ(d_(t.src), d_(t.dst));
            EXPECT_EQ(s_(t.src), s_(t.dst));
            EXPECT_EQ(r.serverOf[t.src], r.serverOf[t.dst]);
            break;
        case TrainingKind::DP:
            EXPECT_EQ(t_(t.src), t_(t.dst));
            EXPECT_EQ(s_(t.src), s_(t.dst));
            break;
        case TrainingKind::PP: // neighbouring stages, same TP and data index
            EXPECT_EQ(t_(t.src), t_(t.dst));
            EXPECT_EQ(d_(t.src), d_(t.dst));
            EXPECT_EQ(std::max(s_(t.src), s_(t.dst)) - std::min(s_(t.src), s_(t.dst)), 1u);
            break;
        case TrainingKind::EP:
            ADD_FAILURE() << "a dense model has no EP traffic";
        }
    }
    EXPECT_EQ(plan.tokensPerIteration, 2u * 1u * 1u * 1024u);
}

TEST(TrainingPlanTest, FlopCount)
{
    TrainingModelSpec m;
    m.hidden = 1000;
    m.ffnHidden = 4000;
    m.seqLen = 100;
    LayerFlops f = ForwardFlops(m, 2);
    // Narayanan et al.: 24 B s h^2 + 4 B s^2 h per layer with f = 4h
    EXPECT_DOUBLE_EQ(f.attention + f.mlp, 24.0 * 2 * 100 * 1e6 + 4.0 * 2 * 1e4 * 1000);
    m.gated = true;
    m.experts = 8;
    m.topK = 2;
    EXPECT_DOUBLE_EQ(ForwardFlops(m, 2).mlp, 2.0 * 3 * 2 * 100 * 1000 * 4000 * 2);
}

TEST(TrainingPlanTest, RefusesWhatMegatronRefuses)
{
    TrainingRequest r = Request(8, 4, 32);
    r.serverOf.resize(512);
    try
    {
        PlanTraining(r);
        FAIL();
    }
    catch (const PlanError& e)
    {
        EXPECT_EQ(e.Field(), "parallel");
        EXPECT_NE(std::string(e.what()).find("8 x 4 x 32 = 1024, but the job has 512 ranks"),
                  std::string::npos)
            << e.what();
    }
    r = Request(2, 3, 1);
    EXPECT_THROW(PlanTraining(r), PlanError); // 8 layers over 3 stages
    r = Request(1, 1, 4);
    r.parallel.ep = 3;
    try
    {
        PlanTraining(r);
        FAIL();
    }
    catch (const PlanError& e)
    {
        EXPECT_EQ(e.Field(), "parallel.ep");
    }
    r = Request(2, 1, 2);
    r.parallel.sequenceParallel = true;
    r.tpAlgorithm = "tree";
    EXPECT_THROW(PlanTraining(r), PlanError);
    r = Request(2, 2, 2);
    r.maxTransfers = 100;
    EXPECT_THROW(PlanTraining(r), PlanError);
}

TEST(TrainingPlanTest, OneFOneBBubbleOnAnIdealNetwork)
{
    for (uint32_t p : {2u, 4u})
    {
        for (uint32_t m : {1u, 4u, 8u})
        {
            TrainingRequest r = Request(1, p, 1);
            r.parallel.microBatches = m;
            r.computeUsPerLayer = 100;
            TrainingPlan plan = PlanTraining(r);
            std::vector<double> done = IdealTimes(plan, 0);
            double tfb = static_cast<double>(plan.stageForwardNs + plan.stageBackwardNs);
            EXPECT_NEAR(IterationNs(plan, done, 0), (m + p - 1) * tfb, 1e-6) << p << " " << m;
        }
    }
}

TEST(TrainingPlanTest, PureDpIsComputeThenAllReduce)
{
    TrainingRequest r = Request(1, 1, 4);
    r.computeUsPerLayer = 50;
    r.parallel.bucketBytes = 1ull << 40; // one bucket
    TrainingPlan plan = PlanTraining(r);
    double nsPerByte = 0.01;
    std::vector<double> done = IdealTimes(plan, nsPerByte);
    // ring all-reduce of S: 2(n-1) steps of S/n, each after the one before
    uint64_t grads = 0;
    for (const TrainingCollective& c : plan.collectives)
    {
        ASSERT_EQ(c.kind, TrainingKind::DP);
        grads += c.bytes;
    }
    double compute = 3.0 * 8 * 50000; // forward + backward, 8 layers of 50 us
    double ring = 2.0 * 3 * (static_cast<double>(grads) / 4) * nsPerByte;
    EXPECT_NEAR(IterationNs(plan, done, 0), compute + ring, 2 * 6 * nsPerByte);
}

TEST(TrainingPlanTest, OverlapHidesBucketsBehindBackward)
{
    TrainingRequest r = Request(1, 1, 4);
    r.computeUsPerLayer = 500;
    r.model.vocab = 1000; // the embedding's gradients, ready last, stay small
    r.parallel.bucketBytes = 10000000;
    double nsPerByte = 0.001; // a bucket all-reduce: 6 x 2.5 MB x 1 ps = 15 us < a layer's 1 ms
    TrainingPlan plain = PlanTraining(r);
    r.parallel.overlapGradReduce = true;
    TrainingPlan overlapped = PlanTraining(r);
    double a = IterationNs(plain, IdealTimes(plain, nsPerByte), 0);
    double b = IterationNs(overlapped, IdealTimes(overlapped, nsPerByte), 0);
    double compute = 3.0 * 8 * 500000;
    EXPECT_GT(a - compute, 100000.0);          // every bucket after the backward pass
    EXPECT_LT(b - compute, (a - compute) / 4); // only the last bucket is exposed
    EXPECT_GE(b, compute);
}

namespace
{
/** The plan's connections as EmitPlan makes them: distinct (connection, sender, receiver). */
std::set<std::tuple<uint32_t, uint32_t, uint32_t>>
Connections(const TrainingPlan& plan)
{
    std::set<std::tuple<uint32_t, uint32_t, uint32_t>> out;
    for (const Transfer& t : plan.transfers)
    {
        out.emplace(t.connection, t.src, t.dst);
    }
    return out;
}

TrainingRequest
EveryCollective(uint64_t layers)
{
    TrainingRequest r = Request(4, 2, 4, 4);
    r.model.layers = layers;
    r.computeUsPerLayer = 100;
    r.channels = 2;
    r.parallel.microBatches = 4;
    r.parallel.bucketBytes = 2000000;
    r.parallel.overlapGradReduce = true;
    r.parallel.sequenceParallel = true;
    r.parallel.distributedOptimizer = true;
    return r;
}
} // namespace

TEST(TrainingPlanTest, EveryLayerReusesTheSameConnections)
{
    TrainingPlan few = PlanTraining(EveryCollective(4));
    TrainingPlan many = PlanTraining(EveryCollective(16));
    ASSERT_GT(many.transfers.size(), 3 * few.transfers.size());
    EXPECT_EQ(Connections(few), Connections(many));
    // 32 ranks: a TP ring of 4 on 2 channels (8 per group, 8 groups), a DP ring of 4 (8 per
    // group, 8 groups), a PP send per sender and direction (16 + 16), 2 marker chains per rank
    EXPECT_EQ(Connections(many).size(), 64u + 64u + 32u + 64u);
}

TEST(TrainingPlanTest, PostingInPlanOrderOnEachConnectionCostsNothing)
{
    // on the ideal network, each connection's transfers are ready in plan order: a connection
    // posting them in that order (EmitPlan's) never holds one behind a later-ready one
    TrainingPlan plan = PlanTraining(EveryCollective(4));
    double nsPerByte = 0.01;
    std::vector<double> done = IdealTimes(plan, nsPerByte);
    std::map<std::tuple<uint32_t, uint32_t, uint32_t>, double> lastReady;
    for (std::size_t i = 0; i < plan.transfers.size(); ++i)
    {
        const Transfer& t = plan.transfers[i];
        double ready = done[i] - static_cast<double>(t.bytes) * nsPerByte;
        auto key = std::make_tuple(t.connection, t.src, t.dst);
        auto it = lastReady.find(key);
        if (it != lastReady.end())
        {
            EXPECT_GE(ready, it->second)
                << "transfer " << i << " is ready before the one before it";
        }
        lastReady[key] = ready;
    }
}

TEST(TrainingPlanTest, ExpertsAllToAllPerMoeLayer)
{
    TrainingRequest r = Request(1, 1, 4);
    r.model.experts = 4;
    r.model.topK = 2;
    r.parallel.ep = 4;
    r.computeUsPerLayer = 10;
    TrainingPlan plan = PlanTraining(r);
    uint32_t a2a = 0;
    for (const TrainingCollective& c : plan.collectives)
    {
        if (c.kind == TrainingKind::EP)
        {
            EXPECT_EQ(c.op, "all_to_all");
            EXPECT_EQ(c.ranks, 4u);
            EXPECT_EQ(c.bytes, 1024u * 1024u * 2u * 2u); // B s h x bytes x top_k
            ++a2a;
        }
    }
    EXPECT_EQ(a2a, 8u * 4u); // dispatch and combine, forward and backward, per layer
}

namespace
{

std::string
TrainingError(const std::string& fields, int servers = 2)
{
    std::string text = R"({"schema_version": 1, "duration_us": 1000,
      "topology": {"kind": "rail_optimized", "units": 1, "servers_per_unit": 2,
                   "nics_per_server": 4, "spines": 2, "host_rate_gbps": 100, "fabric_rate_gbps": 100},
      "traffic": [{"kind": "training", "servers": )" +
                       std::to_string(servers) + ", " + fields + "}]}";
    try
    {
        LoadScenario(text);
        return "";
    }
    catch (const ScenarioError& e)
    {
        return e.what();
    }
}

} // namespace

TEST(TrainingGeneratorTest, ReadsAndRefusesWithTheField)
{
    EXPECT_EQ(
        TrainingError(R"("model": "llama3-8b", "parallel": {"tp": 4, "dp": 2}, "iterations": 1)"),
        "");
    std::string e =
        TrainingError(R"("model": "llama3-8b", "parallel": {"tp": 8, "pp": 4, "dp": 32})");
    EXPECT_NE(e.find("traffic[0].parallel"), std::string::npos) << e;
    EXPECT_NE(e.find("8 x 4 x 32 = 1024, but the job has 8 ranks"), std::string::npos) << e;
    e = TrainingError(R"("model": "llama3-9b")");
    EXPECT_NE(e.find("traffic[0].model"), std::string::npos) << e;
    EXPECT_NE(e.find("\"llama3-70b\""), std::string::npos) << e;
    e = TrainingError(
        R"("model": "llama3-8b", "parallel": {"pp": 8, "dp": 1}, "compute_us_per_layer": 0)");
    EXPECT_NE(e.find("traffic[0].compute_us_per_layer"), std::string::npos) << e;
    e = TrainingError(
        R"("model": {"layers": 3, "hidden": 64, "heads": 4, "seq_len": 8, "vocab": 10},
                         "parallel": {"pp": 2, "dp": 4})");
    EXPECT_NE(e.find("traffic[0].parallel.pp"), std::string::npos) << e;
    e = TrainingError(
        R"("model": {"layers": 2, "hidden": 64, "heads": 4, "seq_len": 8, "vocab": 10},
                         "parallel": {"dp": 8, "unknown": 1})");
    EXPECT_NE(e.find("traffic[0].parallel.unknown"), std::string::npos) << e;
}
