/*
 * The collective algorithms' step structure, checked against formulas written here: transfer
 * counts, bytes per rank, partners, that every transfer waits only for earlier ones, and the
 * refusals (algorithm not for the op, halving-doubling on a non-power-of-two, a message too
 * small to split). Also the generator through the scenario reader: jobs, NVLink steps,
 * placement, and the errors a user sees.
 */
#include "scenario/collective-algorithm.h"
#include "scenario/collective-plan.h"
#include "scenario/scenario-contract.h"
#include "scenario/scenario-error.h"
#include "scenario/scenario-parser.h"

#include <gtest/gtest.h>

#include <map>
#include <set>

using namespace fabric;

namespace
{

CollectiveRequest
Request(const std::string& op, const std::string& alg, uint32_t n, uint64_t bytes)
{
    CollectiveRequest r;
    r.op = op;
    r.algorithm = alg;
    for (uint32_t i = 0; i < n; ++i)
    {
        r.serverOf.push_back(i); // every rank its own server
    }
    r.messageBytes = bytes;
    return r;
}

void
ExpectAcyclicOrder(const TransferPlan& plan)
{
    for (std::size_t i = 0; i < plan.size(); ++i)
    {
        for (uint32_t a : plan.After(i))
        {
            ASSERT_LT(a, i) << "transfer " << i << " waits for a later one";
        }
    }
}

std::map<uint32_t, uint64_t>
SentBytes(const TransferPlan& plan)
{
    std::map<uint32_t, uint64_t> sent;
    for (const Transfer& t : plan)
    {
        sent[t.src] += t.bytes;
    }
    return sent;
}

} // namespace

TEST(CollectivePlan, RingAllReduceIsTwoNMinusOneStepsOfSOverN)
{
    const uint32_t n = 8;
    const uint64_t s = 8000000;
    auto plan = PlanCollective(Request("all_reduce", "ring", n, s));
    ASSERT_EQ(plan.size(), 2u * (n - 1) * n);
    std::set<uint32_t> steps;
    for (const Transfer& t : plan)
    {
        EXPECT_EQ(t.bytes, s / n);
        EXPECT_EQ(t.dst, (t.src + 1) % n); // the successor on the ring
        steps.insert(t.step);
    }
    EXPECT_EQ(steps.size(), 2u * (n - 1));
    for (auto [rank, bytes] : SentBytes(plan))
    {
        EXPECT_EQ(bytes, 2 * (n - 1) * s / n) << rank;
    }
    ExpectAcyclicOrder(plan);
    // step k of rank p waits for step k - 1 of rank p - 1 (the block it forwards)
    for (std::size_t i = 0; i < plan.size(); ++i)
    {
        const Transfer& t = plan[i];
        if (t.step == 0)
        {
            EXPECT_TRUE(plan.After(i).empty());
            continue;
        }
        bool found = false;
        for (uint32_t a : plan.After(i))
        {
            found = found || (plan[a].step + 1 == t.step && plan[a].dst == t.src);
        }
        EXPECT_TRUE(found) << "step " << t.step << " of rank " << t.src;
    }
}

TEST(CollectivePlan, GatherScatterAndBroadcastStepCounts)
{
    const uint32_t n = 6;
    EXPECT_EQ(PlanCollective(Request("all_gather", "ring", n, 6000)).size(), (n - 1) * n);
    EXPECT_EQ(PlanCollective(Request("reduce_scatter", "ring", n, 6000)).size(), (n - 1) * n);
    // a chain of n - 1 hops from rank 0, each in ceil(S / chunk) chunks
    auto r = Request("broadcast", "ring", n, 10000);
    r.chunkBytes = 4000;
    auto plan = PlanCollective(r);
    EXPECT_EQ(plan.size(), (n - 1) * 3u);
    EXPECT_EQ(plan[0].src, 0u);
}

TEST(CollectivePlan, HalvingDoublingPartnersAndBytes)
{
    const uint32_t n = 8;
    const uint64_t s = 8000000;
    auto plan = PlanCollective(Request("all_reduce", "halving_doubling", n, s));
    // 2 log2 n steps: distances n/2, n/4, ..., 1 with S/2, S/4, ..., then 1, 2, ... n/2
    ASSERT_EQ(plan.size(), 2u * 3 * n);
    const uint32_t distance[6] = {4, 2, 1, 1, 2, 4};
    const uint64_t bytes[6] = {s / 2, s / 4, s / 8, s / 8, s / 4, s / 2};
    for (const Transfer& t : plan)
    {
        EXPECT_EQ(t.dst, t.src ^ distance[t.step]);
        EXPECT_EQ(t.bytes, bytes[t.step]);
    }
    for (auto [rank, sent] : SentBytes(plan))
    {
        EXPECT_EQ(sent, 2 * (n - 1) * s / n) << rank; // the ring's bytes, in fewer steps
    }
    ExpectAcyclicOrder(plan);
    EXPECT_THROW(PlanCollective(Request("all_reduce", "halving_doubling", 6, s)), PlanError);
}

TEST(CollectivePlan, DoubleBinaryTreeLeavesOfOneAreInnerInTheOther)
{
    const uint32_t n = 8;
    auto r = Request("all_reduce", "tree", n, 8 * 1048576);
    auto plan = PlanCollective(r);
    // 2 trees x (reduce + broadcast) x (n - 1) edges x chunks (4 MiB per tree / 1 MiB)
    ASSERT_EQ(plan.size(), 2u * 2 * (n - 1) * 4);
    // senders towards a parent in the reduce phase (step < chunks): inner nodes receive
    std::map<uint32_t, std::set<uint32_t>> receivers; // per tree: ranks receiving in reduce
    for (const Transfer& t : plan)
    {
        if (t.step < 4)
        {
            receivers[t.channel].insert(t.dst);
        }
    }
    ASSERT_EQ(receivers.size(), 2u);
    for (uint32_t rank : receivers[0])
    {
        EXPECT_EQ(receivers[1].count(rank), 0u) << "rank " << rank << " inner in both trees";
    }
    ExpectAcyclicOrder(plan);
}

TEST(CollectivePlan, DirectAllToAllAndHierarchical)
{
    const uint32_t n = 5;
    auto plan = PlanCollective(Request("all_to_all", "direct", n, 5000));
    ASSERT_EQ(plan.size(), n * (n - 1));
    std::set<std::pair<uint32_t, uint32_t>> pairs;
    for (std::size_t i = 0; i < plan.size(); ++i)
    {
        const Transfer& t = plan[i];
        EXPECT_EQ(t.dst, (t.src + t.step + 1) % n);
        EXPECT_TRUE(plan.After(i).empty()); // all at once
        pairs.insert({t.src, t.dst});
    }
    EXPECT_EQ(pairs.size(), n * (n - 1u)); // every ordered pair once
    // 2 servers x 4 GPUs: reduce-scatter inside (3 steps), ring all-reduce across (2 steps),
    // all-gather inside (3 steps)
    CollectiveRequest h = Request("all_reduce", "hierarchical", 8, 8000);
    h.serverOf = {0, 0, 0, 0, 1, 1, 1, 1};
    auto hp = PlanCollective(h);
    EXPECT_EQ(hp.size(), 2u * 2 * 4 * 3 + 4 * 2 * 2);
    uint32_t across = 0;
    for (const Transfer& t : hp)
    {
        if (h.serverOf[t.src] != h.serverOf[t.dst])
        {
            ++across;
            EXPECT_EQ(t.src % 4, t.dst % 4); // same local index: one rail
        }
    }
    EXPECT_EQ(across, 4u * 2 * 2);
    ExpectAcyclicOrder(hp);
}

TEST(CollectivePlan, IterationsWaitForTheRanksPreviousIterationAndTheComputeGap)
{
    auto r = Request("all_reduce", "ring", 4, 4000);
    r.iterations = 3;
    r.computeNs = 5000;
    auto plan = PlanCollective(r);
    ASSERT_EQ(plan.size(), 3u * 2 * 3 * 4);
    for (std::size_t i = 0; i < plan.size(); ++i)
    {
        const Transfer& t = plan[i];
        if (t.iteration > 0 && t.step == 0)
        {
            EXPECT_EQ(t.gapNs, 5000u);
            for (uint32_t a : plan.After(i))
            {
                EXPECT_EQ(plan[a].iteration + 1, t.iteration);
                EXPECT_TRUE(plan[a].src == t.src || plan[a].dst == t.src);
            }
        }
    }
    ExpectAcyclicOrder(plan);
}

TEST(CollectivePlan, Refusals)
{
    EXPECT_THROW(PlanCollective(Request("all_to_all", "ring", 4, 4000)), PlanError);
    EXPECT_THROW(PlanCollective(Request("all_reduce", "ring", 1, 4000)), PlanError);
    try
    {
        PlanCollective(Request("all_reduce", "ring", 8, 7));
        FAIL();
    }
    catch (const PlanError& e)
    {
        EXPECT_EQ(e.Field(), "message_bytes");
        EXPECT_NE(std::string(e.what()).find("at least 8 bytes"), std::string::npos) << e.what();
    }
    CollectiveRequest uneven = Request("all_reduce", "hierarchical", 5, 5000);
    uneven.serverOf = {0, 0, 0, 1, 1};
    EXPECT_THROW(PlanCollective(uneven), PlanError);
}

// One class per algorithm (collective-algorithm.h): every algorithm the scenario format names
// for an op has its class, and every class is named by some op (else it could never run).
TEST(CollectivePlan, EveryDeclaredAlgorithmHasItsClass)
{
    std::set<std::string> declared;
    for (const CollectiveOp& c : kCollectiveOps)
    {
        for (const std::string& a : c.algorithms)
        {
            declared.insert(a);
            const collective::CollectiveAlgorithm* alg = collective::FindCollectiveAlgorithm(a);
            ASSERT_NE(alg, nullptr) << a << " (of " << c.op << ") has no class";
            EXPECT_EQ(alg->Name(), a);
        }
    }
    std::set<std::string> classes;
    for (const collective::CollectiveAlgorithm* alg : collective::CollectiveAlgorithms())
    {
        EXPECT_TRUE(classes.insert(alg->Name()).second) << alg->Name() << " is listed twice";
        EXPECT_EQ(declared.count(alg->Name()), 1u) << alg->Name() << " runs no op";
    }
    EXPECT_EQ(collective::FindCollectiveAlgorithm("no_such"), nullptr);
    try
    {
        CheckCollective(Request("all_reduce", "no_such", 4, 4000));
        FAIL();
    }
    catch (const PlanError& e)
    {
        EXPECT_EQ(e.Field(), "algorithm");
    }
}

namespace
{

std::string
Doc(const std::string& traffic, const std::string& topology = "")
{
    std::string topo = topology.empty()
                           ? R"({"kind": "rail_optimized", "units": 2, "servers_per_unit": 2,
                                "nics_per_server": 4, "spines": 2})"
                           : topology;
    return R"({"schema_version": 1, "seed": 3, "duration_us": 1000, "topology": )" + topo +
           R"(, "traffic": )" + traffic + "}";
}

std::string
ErrorOf(const std::string& text)
{
    try
    {
        LoadScenario(text);
    }
    catch (const ScenarioError& e)
    {
        return e.what();
    }
    return "";
}

} // namespace

TEST(CollectiveGenerator, JobsNvlinkStepsAndDependencies)
{
    auto s = LoadScenario(Doc(
        R"([{"kind": "collective", "op": "all_reduce", "message_bytes": 1600000, "job": "train"}])"));
    ASSERT_EQ(s.jobs.size(), 1u);
    EXPECT_EQ(s.jobs[0].name, "train");
    EXPECT_EQ(s.jobs[0].ranks.size(), 16u);
    EXPECT_EQ(s.jobs[0].servers, 4u);
    EXPECT_DOUBLE_EQ(s.jobs[0].busFactor, 2.0 * 15 / 16);
    // one connection per ring position (16 ranks, 1 channel), each carrying its 2(n-1) steps
    ASSERT_EQ(s.flows.size(), 16u);
    ASSERT_EQ(s.jobFlows.size(), s.flows.size());
    const Transfers& tr = s.transfers;
    ASSERT_EQ(tr.Size(), 2u * 15 * 16);
    uint32_t local = 0;
    uint32_t localTransfers = 0;
    for (const FlowSpec& f : s.flows)
    {
        bool sameServer = s.topo.nodes[f.src].server == s.topo.nodes[f.dst].server;
        EXPECT_EQ(f.local, sameServer);
        EXPECT_EQ(s.jobFlows[f.id].job, 0u);
        local += f.local;
        ASSERT_EQ(tr.flowBegin[f.id + 1] - tr.flowBegin[f.id], 30u);
        uint64_t bytes = 0;
        for (uint32_t t = tr.flowBegin[f.id]; t < tr.flowBegin[f.id + 1]; ++t)
        {
            EXPECT_EQ(tr.flow[t], f.id);
            bytes += tr.bytes[t];
            if (f.local)
            {
                // 100,000 bytes at the default 3600 Gbit/s: 222 ns
                EXPECT_EQ(tr.job[t].localNs, 222u);
                ++localTransfers;
            }
        }
        EXPECT_EQ(f.sizeBytes, bytes); // a connection's size: its transfers'
    }
    EXPECT_EQ(local, 12u); // 3 of every 4 ring hops stay in a server
    EXPECT_EQ(localTransfers, 2u * 15 * 12);
    ASSERT_FALSE(tr.deps.Empty());
    EXPECT_TRUE(s.deps.Empty()); // flows wait for no flow: transfers wait for transfers
    for (uint32_t i = 0; i < tr.Size(); ++i)
    {
        for (uint32_t k = tr.deps.begin[i]; k < tr.deps.begin[i + 1]; ++k)
        {
            EXPECT_LT(tr.job[tr.deps.on[k]].step, tr.job[i].step);
        }
    }
}

TEST(CollectiveGenerator, TwoJobsTransfersAreNumberedByConnectionWhicheverStartsFirst)
{
    // job A is generated first; starting later, its connections sort after job B's, so the
    // scenario's numbering reorders the transfers EmitPlan listed (at the same start it keeps
    // them): either way each connection's transfers are consecutive, in step order, and wait
    // only for transfers of their own job with earlier steps
    for (const char* startA : {"0", "50"})
    {
        SCOPED_TRACE(startA);
        auto s = LoadScenario(Doc(R"([
            {"kind": "collective", "op": "all_reduce", "message_bytes": 800000, "servers": 2,
             "job": "A", "start_us": )" + std::string(startA) + R"(},
            {"kind": "collective", "op": "all_gather", "message_bytes": 800000, "servers": 2,
             "job": "B"}])"));
        ASSERT_EQ(s.jobs.size(), 2u);
        const Transfers& tr = s.transfers;
        ASSERT_EQ(tr.Size(), 2u * 7 * 8 + 7u * 8);
        ASSERT_EQ(s.flows.size(), 16u);
        uint32_t firstJob = s.jobFlows[s.flows[0].id].job;
        EXPECT_EQ(firstJob, std::string(startA) == "0" ? 0u : 1u);
        for (const FlowSpec& f : s.flows)
        {
            uint32_t job = s.jobFlows[f.id].job;
            for (uint32_t t = tr.flowBegin[f.id]; t < tr.flowBegin[f.id + 1]; ++t)
            {
                EXPECT_EQ(tr.flow[t], f.id);
                EXPECT_EQ(tr.job[t].job, job);
                if (t > tr.flowBegin[f.id])
                {
                    EXPECT_GT(tr.job[t].step, tr.job[t - 1].step) << "transfer " << t;
                }
                for (uint32_t k = tr.deps.begin[t]; k < tr.deps.begin[t + 1]; ++k)
                {
                    uint32_t on = tr.deps.on[k];
                    EXPECT_EQ(tr.job[on].job, job);
                    EXPECT_LT(tr.job[on].step, tr.job[t].step);
                }
            }
        }
    }
}

TEST(CollectiveGenerator, ConnectionsPerAlgorithmAndTheTransferLimit)
{
    auto count = [](const std::string& op, const std::string& algorithm, uint32_t channels) {
        auto s = LoadScenario(Doc(R"([{"kind": "collective", "op": ")" + op +
                                  R"(", "algorithm": ")" + algorithm +
                                  R"(", "message_bytes": 16000000, "channels": )" +
                                  std::to_string(channels) + "}]"));
        return std::make_pair(s.flows.size(), s.transfers.Size());
    };
    // 16 ranks in 4 servers of 4: O(n x C) connections, whatever the steps
    EXPECT_EQ(count("all_reduce", "ring", 2).first, 16u * 2);
    EXPECT_LE(count("all_reduce", "tree", 2).first, 4u * 16 * 2);
    EXPECT_LE(count("all_reduce", "halving_doubling", 1).first, 16u * 4 * 2);
    EXPECT_LE(count("all_reduce", "hierarchical", 1).first, 16u * 3);
    EXPECT_LE(count("broadcast", "ring", 2).first, 16u * 2);
    EXPECT_EQ(count("all_to_all", "direct", 1).first, 16u * 15);
    EXPECT_GT(count("all_reduce", "tree", 2).second, count("all_reduce", "tree", 2).first);
}

// An op's default algorithm is its first (scenario-contract.h's kCollectiveOps, generated from
// the API's table): an all_to_all that names none runs direct, as the API and the editor say.
TEST(CollectiveGenerator, UnsetAlgorithmIsTheOpsFirst)
{
    auto a2a = LoadScenario(
        Doc(R"([{"kind": "collective", "op": "all_to_all", "message_bytes": 160000}])"));
    ASSERT_EQ(a2a.jobs.size(), 1u);
    EXPECT_EQ(a2a.jobs[0].algorithm, "direct");
    auto ring = LoadScenario(
        Doc(R"([{"kind": "collective", "op": "broadcast", "message_bytes": 160000}])"));
    EXPECT_EQ(ring.jobs[0].algorithm, "ring");
    EXPECT_EQ(AlgorithmsFor("all_reduce"),
              (std::vector<std::string>{"ring", "tree", "halving_doubling", "hierarchical"}));
}

TEST(CollectiveGenerator, PlacementTakesFreeServers)
{
    // 4 servers (srv0, srv1 in unit 0; srv2, srv3 in unit 1)
    auto packed = LoadScenario(Doc(R"([
      {"kind": "collective", "op": "all_gather", "message_bytes": 80000, "servers": 2, "job": "a"},
      {"kind": "collective", "op": "all_gather", "message_bytes": 80000, "servers": 2, "job": "b"}])"));
    auto serverOf = [&](const fabric::Scenario& s, std::size_t job) {
        std::set<std::string> out;
        for (uint32_t h : s.jobs[job].ranks)
        {
            out.insert(s.topo.nodes[h].server);
        }
        return out;
    };
    EXPECT_EQ(serverOf(packed, 0), (std::set<std::string>{"srv0", "srv1"}));
    EXPECT_EQ(serverOf(packed, 1), (std::set<std::string>{"srv2", "srv3"}));
    auto spread = LoadScenario(Doc(R"([
      {"kind": "collective", "op": "all_gather", "message_bytes": 80000, "servers": 2, "placement": "spread"}])"));
    EXPECT_EQ(serverOf(spread, 0), (std::set<std::string>{"srv0", "srv2"})); // one per unit
    auto random = LoadScenario(Doc(R"([
      {"kind": "collective", "op": "all_gather", "message_bytes": 80000, "servers": 3, "placement": "random"}])"));
    EXPECT_EQ(serverOf(random, 0).size(), 3u);
    EXPECT_EQ(random.jobs[0].ranks.size(), 12u);
}

TEST(CollectiveGenerator, BadInputNamesTheField)
{
    EXPECT_NE(ErrorOf(Doc(R"([{"kind": "collective", "op": "all_sum", "message_bytes": 8}])"))
                  .find("traffic[0].op"), std::string::npos);
    std::string alg = ErrorOf(Doc(
        R"([{"kind": "collective", "op": "all_to_all", "algorithm": "tree", "message_bytes": 1000}])"));
    EXPECT_NE(alg.find("traffic[0].algorithm"), std::string::npos) << alg;
    EXPECT_NE(alg.find("direct"), std::string::npos) << alg;
    EXPECT_NE(ErrorOf(Doc(R"([{"kind": "collective", "op": "all_reduce", "hosts": ["h0", "h1", "h0"],
        "message_bytes": 1000}])")).find("traffic[0].hosts[2]"), std::string::npos);
    EXPECT_NE(ErrorOf(Doc(R"([{"kind": "collective", "op": "all_reduce", "hosts": ["h0"],
        "message_bytes": 1000}])")).find("traffic[0].hosts"), std::string::npos);
    std::string small = ErrorOf(Doc(
        R"([{"kind": "collective", "op": "all_reduce", "message_bytes": 1, "hosts": ["h0", "h4"]}])"));
    EXPECT_NE(small.find("traffic[0].message_bytes"), std::string::npos) << small;
    std::string many = ErrorOf(Doc(
        R"([{"kind": "collective", "op": "all_reduce", "message_bytes": 1000, "servers": 5}])"));
    EXPECT_NE(many.find("traffic[0].servers"), std::string::npos) << many;
    EXPECT_NE(many.find("4 of the fabric's 4 are free"), std::string::npos) << many;
    std::string hd = ErrorOf(Doc(R"([{"kind": "collective", "op": "all_reduce",
        "algorithm": "halving_doubling", "hosts": ["h0", "h1", "h2"], "message_bytes": 3000}])"));
    EXPECT_NE(hd.find("power-of-two"), std::string::npos) << hd;
    std::string twice = ErrorOf(Doc(R"([
      {"kind": "collective", "op": "all_reduce", "message_bytes": 1000, "job": "j"},
      {"kind": "collective", "op": "all_reduce", "message_bytes": 1000, "job": "j"}])"));
    EXPECT_NE(twice.find("traffic[1].job"), std::string::npos) << twice;
    std::string qps = ErrorOf(Doc(
        R"([{"kind": "collective", "op": "all_reduce", "message_bytes": 1000, "qps": 2}])"));
    EXPECT_NE(qps.find("traffic[0].qps"), std::string::npos) << qps;
}

TEST(FlowListAfter, CyclesAreRefusedAndIdsFollowTheSort)
{
    std::string leafSpine = R"({"kind": "leaf_spine", "leaves": 2, "spines": 1, "hosts_per_leaf": 2})";
    std::string cycle = ErrorOf(Doc(R"([{"kind": "flows", "flows": [
        {"src": "h0", "dst": "h1", "size_bytes": 1000, "start_us": 0, "after": [2]},
        {"src": "h1", "dst": "h2", "size_bytes": 1000, "start_us": 0, "after": [0]},
        {"src": "h2", "dst": "h3", "size_bytes": 1000, "start_us": 0, "after": [1]}]}])", leafSpine));
    EXPECT_NE(cycle.find("traffic[0].flows[0].after: is part of a dependency cycle"), std::string::npos)
        << cycle;
    std::string self = ErrorOf(Doc(R"([{"kind": "flows", "flows": [
        {"src": "h0", "dst": "h1", "size_bytes": 1000, "start_us": 0, "after": [0]}]}])", leafSpine));
    EXPECT_NE(self.find("traffic[0].flows[0].after[0]"), std::string::npos) << self;
    // flow 0 starts later than flow 1, so it sorts second: its dependency follows it
    auto s = LoadScenario(Doc(R"([{"kind": "flows", "flows": [
        {"src": "h0", "dst": "h1", "size_bytes": 1000, "start_us": 9},
        {"src": "h1", "dst": "h2", "size_bytes": 1000, "start_us": 0, "after": [0], "gap_us": 2}]}])",
                                   leafSpine));
    ASSERT_EQ(s.flows.size(), 2u);
    EXPECT_EQ(s.flows[0].src, s.topo.index.at("h1"));
    ASSERT_TRUE(s.deps.Waits(0));
    EXPECT_FALSE(s.deps.Waits(1));
    EXPECT_EQ(s.deps.on[s.deps.begin[0]], 1u);
    EXPECT_EQ(s.deps.gapNs[0], 2000u);
}
