/*
 * Training iterations on the packet model, checked against figures written here (docs/model.md,
 * "Training iterations"):
 *  - pure DP (tp = pp = 1, no overlap): an iteration is its compute plus the gradient all-reduce
 *    alone (the same all-reduce run as a collective job), within 3 %;
 *  - PP with m micro-batches and p stages, communication small: the 1F1B bubble is
 *    (p - 1)/(m + p - 1) of the iteration and the iteration (m + p - 1)(t_f + t_b), within 3 %;
 *  - overlap_grad_reduce hides the DP time behind a longer backward pass;
 *  - TP inside a server rides NVLink only; EP all-to-alls cross the fabric.
 */
#include "helper/fabric-run.h"
#include "helper/fabric-runner.h"
#include "scenario/scenario-parser.h"

#include <gtest/gtest.h>

#include <string>

using namespace fabric;

namespace
{

/** 4 servers of `gpus` GPUs (one NIC each), two units, 100 Gbit/s everywhere. */
std::string
Rail(int gpus, const std::string& traffic, int durationUs = 200000)
{
    return R"({"schema_version": 1, "seed": 1, "duration_us": )" + std::to_string(durationUs) + R"(,
      "nic": {"mtu_bytes": 4096},
      "topology": {"kind": "rail_optimized", "units": 2, "servers_per_unit": 2, "nics_per_server": )" +
           std::to_string(gpus) + R"(, "spines": 2, "host_rate_gbps": 100, "fabric_rate_gbps": 100},
      "traffic": [)" + traffic + "]}";
}

nlohmann::ordered_json
RunJob(const std::string& text)
{
    Scenario s = LoadScenario(text);
    FabricRunner r(s);
    EXPECT_EQ(r.Run(RunLimits(), nullptr), RunStatus::OK);
    auto res = r.Results();
    EXPECT_TRUE(res.contains("jobs"));
    return res["jobs"][0];
}

const char* kSmallModel =
    R"("model": {"layers": 8, "hidden": 512, "heads": 8, "seq_len": 512, "vocab": 1000})";

} // namespace

TEST(TrainingRun, PureDpIsComputePlusTheAllReduceAlone)
{
    auto job = RunJob(Rail(1, std::string(R"({"kind": "training", "servers": 4, )") + kSmallModel +
                                   R"(, "parallel": {"dp": 4, "bucket_bytes": 1000000000},
                                   "compute_us_per_layer": 100})"));
    ASSERT_TRUE(job["completed"].get<bool>());
    EXPECT_EQ(job["kind"], "training");
    const auto& t = job["training"];
    const auto& c = t["critical_collective"];
    ASSERT_EQ(c["kind"], "dp");
    ASSERT_EQ(c["op"], "all_reduce");
    uint64_t bytes = c["bytes"].get<uint64_t>();
    auto alone = RunJob(Rail(1, R"({"kind": "collective", "op": "all_reduce", "servers": 4,
        "message_bytes": )" + std::to_string(bytes) + "}"));
    double compute = 3.0 * 8 * 100; // forward + backward (2x), 8 layers of 100 us
    EXPECT_DOUBLE_EQ(t["compute_us"].get<double>(), compute);
    double expected = compute + alone["jct_us"].get<double>();
    double got = t["iteration_us"][0].get<double>();
    EXPECT_NEAR(got, expected, 0.03 * expected);
    EXPECT_NEAR(t["exposed_us"]["dp"].get<double>(), alone["jct_us"].get<double>(),
                0.03 * alone["jct_us"].get<double>());
    EXPECT_DOUBLE_EQ(t["bubble_us"].get<double>(), 0.0);
    EXPECT_EQ(t["tokens_per_iteration"], 4 * 512);
    EXPECT_NEAR(t["tokens_per_s"].get<double>(), 4 * 512 / got * 1e6, 1.0);
}

TEST(TrainingRun, OneFOneBBubble)
{
    for (int m : {4, 8})
    {
        const int p = 4;
        auto job = RunJob(Rail(1, R"({"kind": "training", "servers": 4,
            "model": {"layers": 8, "hidden": 64, "heads": 8, "seq_len": 64, "vocab": 1000},
            "parallel": {"pp": 4, "micro_batches": )" + std::to_string(m) + R"(},
            "compute_us_per_layer": 200})"));
        ASSERT_TRUE(job["completed"].get<bool>());
        const auto& t = job["training"];
        double iteration = t["iteration_us"][0].get<double>();
        double tfb = 2 * 3 * 200.0; // a stage's 2 layers, forward + backward
        EXPECT_NEAR(iteration, (m + p - 1) * tfb, 0.03 * iteration) << m;
        EXPECT_NEAR(t["bubble_us"].get<double>() / iteration, double(p - 1) / (m + p - 1), 0.03) << m;
        EXPECT_DOUBLE_EQ(t["compute_us"].get<double>(), m * tfb);
    }
}

TEST(TrainingRun, OverlapHidesDpBehindALongerBackward)
{
    auto run = [](bool overlap) {
        return RunJob(Rail(1, std::string(R"({"kind": "training", "servers": 4, )") + kSmallModel +
                                  R"(, "parallel": {"dp": 4, "bucket_bytes": 2000000,
                                  "overlap_grad_reduce": )" + (overlap ? "true" : "false") + R"(},
                                  "compute_us_per_layer": 2000})"))["training"];
    };
    auto plain = run(false);
    auto hidden = run(true);
    double compute = 3.0 * 8 * 2000;
    double plainDp = plain["exposed_us"]["dp"].get<double>();
    double hiddenDp = hidden["exposed_us"]["dp"].get<double>();
    EXPECT_GT(plainDp, 1000.0);
    EXPECT_LT(hiddenDp, 0.25 * plainDp); // only the buckets filled last are exposed
    EXPECT_LT(hidden["iteration_us"][0].get<double>(), plain["iteration_us"][0].get<double>());
    EXPECT_GE(hidden["iteration_us"][0].get<double>(), compute);
}

TEST(TrainingRun, TpInsideAServerRidesNvlink)
{
    auto job = RunJob(Rail(4, std::string(R"({"kind": "training", "servers": 1, )") + kSmallModel +
                                  R"(, "parallel": {"tp": 4}, "compute_us_per_layer": 10})"));
    ASSERT_TRUE(job["completed"].get<bool>());
    EXPECT_EQ(job["network_bytes"], 0);
    EXPECT_GT(job["nvlink_bytes"].get<uint64_t>(), 0u);
    EXPECT_GT(job["training"]["exposed_us"]["tp"].get<double>(), 0.0);
}

TEST(TrainingRun, ExpertsAllToAllCrossesTheFabric)
{
    auto job = RunJob(Rail(1, R"({"kind": "training", "servers": 4,
        "model": {"layers": 2, "hidden": 256, "heads": 8, "seq_len": 256, "vocab": 1000,
                  "experts": 4, "top_k": 2},
        "parallel": {"dp": 4, "ep": 4}, "compute_us_per_layer": 20})"));
    ASSERT_TRUE(job["completed"].get<bool>());
    const auto& t = job["training"];
    EXPECT_GT(t["exposed_us"]["ep"].get<double>(), 0.0);
    // the MLP after a dispatch waits for the rank's own attention too: compute never overlaps
    EXPECT_DOUBLE_EQ(t["compute_us"].get<double>(), 2 * 3 * 20.0);
    bool sawEp = false;
    for (const auto& s : t["timeline"])
    {
        sawEp = sawEp || s["kind"] == "ep";
    }
    EXPECT_TRUE(sawEp);
}
