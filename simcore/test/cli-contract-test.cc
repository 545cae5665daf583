/*
 * The fabricsim command-line contract (docs/result-format.md), run as a subprocess:
 * exit codes, one-line errors naming the JSON path, expand/schema output, byte-identical
 * results for the same scenario and seed, limits and progress lines.
 */
#include "scenario/sha256.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdlib>
#include <dirent.h>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <thread>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

namespace
{

using nlohmann::json;
using nlohmann::ordered_json;

const std::string kBin = FABRICSIM_BIN;
const std::string kExamples = FABRICSIM_EXAMPLES_DIR;

struct Outcome
{
    int code = -1;
    std::string out;
    std::string err;
};

std::string
ReadFile(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

void
WriteFile(const std::string& path, const std::string& text)
{
    std::ofstream(path, std::ios::binary) << text;
}

std::string
Quote(const std::string& s)
{
    std::string q = "'";
    for (char c : s)
    {
        q += c == '\'' ? std::string("'\\''") : std::string(1, c);
    }
    return q + "'";
}

class CliTest : public ::testing::Test
{
  protected:
    void SetUp() override
    {
        char tmpl[] = "/tmp/fabricsim-cli-XXXXXX";
        ASSERT_NE(mkdtemp(tmpl), nullptr);
        m_dir = tmpl;
    }

    void TearDown() override { std::system(("rm -rf " + Quote(m_dir)).c_str()); }

    /**
     * Runs fabricsim with the arguments (shell words, already quoted where needed), env
     * (NAME=value words) added to its environment.
     */
    Outcome Fabricsim(const std::string& args, const std::string& env = "")
    {
        std::string out = m_dir + "/stdout";
        std::string err = m_dir + "/stderr";
        std::string cmd = (env.empty() ? "" : "env " + env + " ") + Quote(kBin) + " " + args +
                          " >" + Quote(out) + " 2>" + Quote(err);
        int status = std::system(cmd.c_str());
        Outcome o;
        o.code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
        o.out = ReadFile(out);
        o.err = ReadFile(err);
        return o;
    }

    std::string Path(const std::string& name) const { return m_dir + "/" + name; }

    std::string m_dir;
};

std::vector<std::string>
JsonFiles(const std::string& dir)
{
    std::vector<std::string> names;
    if (DIR* d = opendir(dir.c_str()))
    {
        while (dirent* e = readdir(d))
        {
            std::string n = e->d_name;
            if (n.size() > 5 && n.substr(n.size() - 5) == ".json" && n != "expected.json")
            {
                names.push_back(n);
            }
        }
        closedir(d);
    }
    std::sort(names.begin(), names.end());
    return names;
}

std::size_t
Lines(const std::string& text)
{
    return static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n'));
}

/** The result document minus its perf block, as bytes. */
std::string
WithoutPerf(const std::string& resultBytes)
{
    ordered_json doc = ordered_json::parse(resultBytes);
    doc.erase("perf");
    return doc.dump();
}

TEST_F(CliTest, Version)
{
    Outcome o = Fabricsim("--version");
    EXPECT_EQ(o.code, 0);
    EXPECT_EQ(o.out, std::string("fabricsim ") + FABRICSIM_VERSION + " (ns-3.37)\n");
}

TEST_F(CliTest, InvalidExamplesExitTwoWithTheirPath)
{
    json expected = json::parse(ReadFile(kExamples + "/invalid/expected.json"));
    std::vector<std::string> files = JsonFiles(kExamples + "/invalid");
    ASSERT_GE(files.size(), 12u);
    for (const auto& name : files)
    {
        SCOPED_TRACE(name);
        Outcome o = Fabricsim("validate " + Quote(kExamples + "/invalid/" + name));
        EXPECT_EQ(o.code, 2);
        EXPECT_EQ(Lines(o.err), 1u) << o.err;
        EXPECT_EQ(o.err.rfind(expected.value(name, std::string("?")) + ": ", 0), 0u) << o.err;
        EXPECT_EQ(o.out, "");
        // run and expand refuse the same input the same way
        Outcome r = Fabricsim("run " + Quote(kExamples + "/invalid/" + name) + " --out " +
                              Quote(Path("r.json")));
        EXPECT_EQ(r.code, 2);
        EXPECT_EQ(r.err, o.err);
        EXPECT_EQ(Fabricsim("expand " + Quote(kExamples + "/invalid/" + name)).code, 2);
    }
}

TEST_F(CliTest, ValidExamplesValidate)
{
    std::vector<std::string> files = JsonFiles(kExamples + "/valid");
    ASSERT_GE(files.size(), 8u);
    for (const auto& name : files)
    {
        SCOPED_TRACE(name);
        Outcome o = Fabricsim("validate " + Quote(kExamples + "/valid/" + name));
        EXPECT_EQ(o.code, 0) << o.err;
        EXPECT_EQ(o.out, "ok\n");
        EXPECT_EQ(o.err, "");
    }
}

TEST_F(CliTest, ExpandPrintsNodesLinksStats)
{
    Outcome o = Fabricsim("expand " + Quote(kExamples + "/valid/three-tier-tor-pairs.json"));
    ASSERT_EQ(o.code, 0) << o.err;
    json e = json::parse(o.out);
    // 2 podsets x 2 ToRs x 2 hosts = 8 hosts; 4 ToRs + 4 Leafs + 2 spines = 10 switches;
    // 8 host links + 4 ToRs x 2 Leafs + 4 Leafs x 1 spine per plane = 20 links.
    EXPECT_EQ(e["stats"]["hosts"], 8);
    EXPECT_EQ(e["stats"]["switches"], 10);
    EXPECT_EQ(e["stats"]["links"], 20);
    EXPECT_EQ(e["nodes"].size(), 18u);
    EXPECT_EQ(e["links"].size(), 20u);
    EXPECT_EQ(e["links"][19]["id"], 19);
}

TEST_F(CliTest, SchemaPrintsAValidDefaultedScenario)
{
    Outcome o = Fabricsim("schema");
    ASSERT_EQ(o.code, 0) << o.err;
    json d = json::parse(o.out);
    EXPECT_EQ(d["schema_version"], 1);
    EXPECT_EQ(d["duration_us"], 10000);
    EXPECT_EQ(d["switch"]["buffer_bytes"], 12000000);
    EXPECT_EQ(d["nic"]["cc"]["rai_mbps"], 5);   // nvidia-default's rpg_ai_rate
    EXPECT_EQ(d["nic"]["cnp_interval_us"], 4);  // and its min_time_between_cnps
    WriteFile(Path("defaults.json"), o.out);
    EXPECT_EQ(Fabricsim("validate " + Quote(Path("defaults.json"))).code, 0);
}

TEST_F(CliTest, SameScenarioAndSeedGiveIdenticalResults)
{
    std::string scenario = kExamples + "/valid/workload-custom-cdf.json";
    Outcome a = Fabricsim("run " + Quote(scenario) + " --out " + Quote(Path("a.json")));
    Outcome b = Fabricsim("run " + Quote(scenario) + " --out " + Quote(Path("b.json")));
    ASSERT_EQ(a.code, 0) << a.err;
    ASSERT_EQ(b.code, 0) << b.err;
    std::string ra = ReadFile(Path("a.json"));
    std::string rb = ReadFile(Path("b.json"));
    ordered_json doc = ordered_json::parse(ra);
    std::string keys;
    for (auto it = doc.begin(); it != doc.end(); ++it)
    {
        keys += it.key() + ",";
    }
    EXPECT_EQ(keys, "result_version,status,run_info,warnings,summary,flows,series,perf,");
    EXPECT_EQ(doc["warnings"].dump(), "[]"); // 1 us links, RTO 1 ms: nothing to warn about
    EXPECT_EQ(doc["status"], "ok");
    EXPECT_EQ(doc["run_info"]["scenario_sha256"], fabric::Sha256Hex(ReadFile(scenario)));
    EXPECT_EQ(doc["run_info"]["seed"], 5);
    EXPECT_EQ(doc["run_info"]["duration_ns"], 500000);
    EXPECT_EQ(doc["run_info"]["sim_time_ns"], 500000);
    EXPECT_GT(doc["run_info"]["events"].get<uint64_t>(), 0u);
    EXPECT_EQ(WithoutPerf(ra), WithoutPerf(rb));
    // and the bytes before the perf block are identical too
    EXPECT_EQ(ra.substr(0, ra.find("\"perf\"")), rb.substr(0, rb.find("\"perf\"")));
}

TEST_F(CliTest, DifferentSeedChangesWorkloadFlows)
{
    json doc = json::parse(ReadFile(kExamples + "/valid/workload-custom-cdf.json"));
    doc["seed"] = 6;
    WriteFile(Path("seed6.json"), doc.dump());
    Outcome a = Fabricsim("run " + Quote(kExamples + "/valid/workload-custom-cdf.json") +
                          " --out " + Quote(Path("a.json")));
    Outcome b = Fabricsim("run " + Quote(Path("seed6.json")) + " --out " + Quote(Path("b.json")));
    ASSERT_EQ(a.code, 0) << a.err;
    ASSERT_EQ(b.code, 0) << b.err;
    json fa = json::parse(ReadFile(Path("a.json")))["flows"];
    json fb = json::parse(ReadFile(Path("b.json")))["flows"];
    ASSERT_GT(fa.size(), 0u);
    EXPECT_NE(fa.dump(), fb.dump());
}

TEST_F(CliTest, ProgressLinesAndLimits)
{
    std::string scenario = kExamples + "/valid/leaf-spine-incast.json";
    Outcome o =
        Fabricsim("run " + Quote(scenario) + " --out " + Quote(Path("p.json")) + " --progress");
    ASSERT_EQ(o.code, 0) << o.err;
    ASSERT_GE(Lines(o.out), 1u);
    std::istringstream lines(o.out);
    std::string line;
    json last;
    while (std::getline(lines, line))
    {
        last = json::parse(line);
        for (const char* key : {"sim_time_ns", "duration_ns", "events", "wall_s"})
        {
            EXPECT_TRUE(last.contains(key)) << line;
        }
    }
    EXPECT_EQ(last["sim_time_ns"], last["duration_ns"]);

    Outcome limited = Fabricsim("run " + Quote(scenario) + " --out " + Quote(Path("l.json")) +
                                " --max-events 500");
    EXPECT_EQ(limited.code, 3) << limited.err;
    json partial = json::parse(ReadFile(Path("l.json")));
    EXPECT_EQ(partial["status"], "limit");
    EXPECT_LT(partial["run_info"]["sim_time_ns"].get<uint64_t>(),
              partial["run_info"]["duration_ns"].get<uint64_t>());
}

TEST_F(CliTest, MaxHostsRefusesALargerFabricBeforeItsTrafficAndResultsRecordTheFabric)
{
    std::string scenario = kExamples + "/valid/three-tier-tor-pairs.json";
    Outcome expand = Fabricsim("expand " + Quote(scenario));
    ASSERT_EQ(expand.code, 0) << expand.err;
    json stats = json::parse(expand.out)["stats"];
    // 8 hosts: a limit of 8 runs it, on either engine, and the result records the fabric as
    // `expand` states it (hosts, switches, links, the generator's oversubscription)
    for (const char* engine : {"packet", "flow"})
    {
        std::string out = Path(std::string(engine) + ".json");
        Outcome o = Fabricsim("run " + Quote(scenario) + " --out " + Quote(out) + " --engine " +
                              engine + " --max-hosts 8");
        ASSERT_EQ(o.code, 0) << o.err;
        json fabric = json::parse(ReadFile(out))["run_info"]["fabric"];
        EXPECT_EQ(fabric, stats) << engine;
        EXPECT_EQ(fabric["hosts"], 8);
        // ToRs 2 x 100G down over 2 x 100G up (1), Leafs 2 ToRs x 100G over one spine (2)
        EXPECT_EQ(fabric["oversubscription"], 2);
    }
    // a limit of 7 refuses it at its topology, one line, no result
    Outcome refused = Fabricsim("run " + Quote(scenario) + " --out " + Quote(Path("r.json")) +
                                " --engine flow --max-hosts 7");
    EXPECT_EQ(refused.code, 2);
    EXPECT_EQ(refused.err, "topology: expands to 8 hosts, more than this run's limit of 7 "
                           "(--max-hosts)\n");
    EXPECT_NE(access(Path("r.json").c_str(), F_OK), 0);
    // before its traffic is built: traffic naming a ToR the fabric lacks is refused there
    // without the limit, at the topology with it
    ordered_json doc = ordered_json::parse(ReadFile(scenario));
    doc["traffic"][0]["tor_pairs"][0][1] = "tor9_9";
    WriteFile(Path("stray.json"), doc.dump());
    Outcome stray = Fabricsim("run " + Quote(Path("stray.json")) + " --out " + Quote(Path("s.json")));
    EXPECT_EQ(stray.code, 2);
    EXPECT_EQ(stray.err.rfind("traffic[0]", 0), 0u) << stray.err;
    Outcome limited = Fabricsim("run " + Quote(Path("stray.json")) + " --out " +
                                Quote(Path("s.json")) + " --max-hosts 4");
    EXPECT_EQ(limited.code, 2);
    EXPECT_EQ(limited.err.rfind("topology: expands to 8 hosts", 0), 0u) << limited.err;
    EXPECT_EQ(Fabricsim("run " + Quote(scenario) + " --out " + Quote(Path("r.json")) +
                        " --max-hosts 0")
                  .code,
              2);
}

TEST_F(CliTest, AHeadlineResultIsTheFullOneWithoutItsTables)
{
    // a training job (jobs: steps, links, a timeline) and a flow list (flows), on either engine
    for (const std::string name : {"training-3d-parallel.json", "leaf-spine-incast.json"})
    {
        std::string scenario = kExamples + "/valid/" + name;
        for (const char* engine : {"packet", "flow"})
        {
            std::string run = "run " + Quote(scenario) + " --engine " + engine + " --out ";
            ASSERT_EQ(Fabricsim(run + Quote(Path("full.json"))).code, 0) << name << engine;
            Outcome o = Fabricsim(run + Quote(Path("head.json")) + " --result headline");
            ASSERT_EQ(o.code, 0) << o.err;
            ordered_json full = ordered_json::parse(ReadFile(Path("full.json")));
            ordered_json head = ordered_json::parse(ReadFile(Path("head.json")));
            EXPECT_EQ(head["run_info"]["result"], "headline");
            EXPECT_EQ(head["flows"], ordered_json::array());
            EXPECT_EQ(head["summary"]["link_utilization"], ordered_json::array());
            EXPECT_FALSE(full["summary"]["link_utilization"].empty()) << name << engine;
            EXPECT_TRUE(full.contains("jobs") || !full["flows"].empty()) << name << engine;
            // emptied, the rest is the full result's, key for key
            full["run_info"]["result"] = "headline";
            full["flows"] = ordered_json::array();
            full["summary"]["link_utilization"] = ordered_json::array();
            full["summary"]["host_throughput_gbps"] = ordered_json::object();
            for (auto& job : full.value("jobs", ordered_json::array()))
            {
                EXPECT_FALSE(job["links"].empty()) << name << engine;
            }
            if (full.contains("jobs"))
            {
                for (auto& job : full["jobs"])
                {
                    job["hosts"] = job["links"] = job["steps"] = ordered_json::array();
                    job["steps_truncated"] = true;
                    if (job.contains("training"))
                    {
                        EXPECT_FALSE(job["training"]["timeline"].empty()) << engine;
                        job["training"]["timeline"] = ordered_json::array();
                        job["training"]["timeline_truncated"] = true;
                    }
                }
            }
            full.erase("perf");
            head.erase("perf");
            full["run_info"].erase("events");
            head["run_info"].erase("events");
            EXPECT_EQ(head, full) << name << " " << engine;
        }
    }
    Outcome bad = Fabricsim("run " + Quote(kExamples + "/valid/leaf-spine-incast.json") +
                            " --out " + Quote(Path("x.json")) + " --result brief");
    EXPECT_EQ(bad.code, 2);
    EXPECT_EQ(bad.err.rfind("--result: must be \"full\" or \"headline\"", 0), 0u) << bad.err;
}

TEST_F(CliTest, BadCommandLinesAndGarbageNeverCrash)
{
    Outcome o = Fabricsim("run " + Quote(kExamples + "/valid/pingmesh.json"));
    EXPECT_EQ(o.code, 2);
    EXPECT_EQ(Lines(o.err), 1u);
    EXPECT_EQ(Fabricsim("frobnicate").code, 2);
    EXPECT_EQ(Fabricsim("").code, 2);
    EXPECT_EQ(Fabricsim("validate " + Quote(Path("missing.json"))).code, 2);
    o = Fabricsim("run " + Quote(kExamples + "/valid/pingmesh.json") + " --out " +
                  Quote(Path("x.json")) + " --max-wall-s -4");
    EXPECT_EQ(o.code, 2);
    std::string garbage;
    for (int i = 0; i < 4096; ++i)
    {
        garbage += static_cast<char>((i * 131 + 17) % 256);
    }
    WriteFile(Path("garbage.json"), garbage);
    o = Fabricsim("run " + Quote(Path("garbage.json")) + " --out " + Quote(Path("g.json")));
    EXPECT_EQ(o.code, 2);
    EXPECT_EQ(Lines(o.err), 1u);
    EXPECT_EQ(o.err.rfind("(root): ", 0), 0u) << o.err;
}

TEST_F(CliTest, ALargeFabricRunsOnHugePagesWithTheSameBytes)
{
    // A k=24 fat tree (20,736 ports, above the bar) for 2 us: the run starts itself again with
    // glibc.malloc.hugetlb=1 (main/fabricsim.cc); FABRICSIM_HUGE_PAGES=0 keeps 4 KB pages.
    WriteFile(Path("k24.json"),
              R"({"schema_version": 1, "name": "k24", "seed": 2, "duration_us": 2,
                  "topology": {"kind": "fat_tree", "k": 24, "link_delay_us": 1},
                  "traffic": [{"kind": "workload", "distribution": "websearch", "load": 0.3}]})");
    Outcome on = Fabricsim("run " + Quote(Path("k24.json")) + " --out " + Quote(Path("on.json")));
    ASSERT_EQ(on.code, 0) << on.err;
    Outcome off = Fabricsim("run " + Quote(Path("k24.json")) + " --out " +
                            Quote(Path("off.json")), "FABRICSIM_HUGE_PAGES=0");
    ASSERT_EQ(off.code, 0) << off.err;
    EXPECT_EQ(WithoutPerf(ReadFile(Path("on.json"))), WithoutPerf(ReadFile(Path("off.json"))));
    double onMb = json::parse(ReadFile(Path("on.json")))["perf"]["huge_pages_mb"];
    double offMb = json::parse(ReadFile(Path("off.json")))["perf"]["huge_pages_mb"];
    // What the kernel grants depends on its transparent_hugepage setting.
    std::string mode = ReadFile("/sys/kernel/mm/transparent_hugepage/enabled");
    if (mode.find("[madvise]") != std::string::npos)
    {
        EXPECT_GT(onMb, 0.0) << "malloc asked for huge pages and the kernel grants them";
        EXPECT_EQ(offMb, 0.0) << "nothing asked for them";
    }
    else if (mode.find("[always]") != std::string::npos)
    {
        EXPECT_GT(onMb, 0.0);
    }
    else
    {
        EXPECT_EQ(onMb, 0.0);
    }
}

TEST_F(CliTest, ThreadsGiveTheSameResultBytesAndBadCountsAreRefused)
{
    std::string scenario = kExamples + "/valid/fat-tree-permutation.json";
    Outcome one = Fabricsim("run " + Quote(scenario) + " --out " + Quote(Path("t1.json")));
    ASSERT_EQ(one.code, 0) << one.err;
    Outcome two = Fabricsim("run " + Quote(scenario) + " --out " + Quote(Path("t2.json")) +
                            " --threads 2");
    ASSERT_EQ(two.code, 0) << two.err;
    EXPECT_EQ(WithoutPerf(ReadFile(Path("t1.json"))), WithoutPerf(ReadFile(Path("t2.json"))));
    json perf = json::parse(ReadFile(Path("t2.json")))["perf"]["parallel"];
    EXPECT_EQ(perf["threads"], 2);
    EXPECT_EQ(perf["partitions"], 2);
    EXPECT_EQ(json::parse(ReadFile(Path("t1.json")))["perf"]["parallel"]["partitions"], 1);

    unsigned cores = std::max(1u, std::thread::hardware_concurrency());
    // Up to 4 x the cores is allowed (more threads than cores, slower but the same bytes) ...
    Outcome many = Fabricsim("run " + Quote(scenario) + " --out " + Quote(Path("t4.json")) +
                             " --threads " + std::to_string(4 * cores));
    EXPECT_EQ(many.code, 0) << many.err;
    // ... and 0, negatives, non-integers and more than 4 x the cores are refused in one line.
    for (const std::string& bad :
         std::vector<std::string>{"0", "-2", "1.5", "two", "", std::to_string(4 * cores + 1)})
    {
        Outcome o = Fabricsim("run " + Quote(scenario) + " --out " + Quote(Path("tb.json")) +
                              " --threads " + Quote(bad));
        EXPECT_EQ(o.code, 2) << bad;
        EXPECT_EQ(Lines(o.err), 1u) << o.err;
        EXPECT_NE(o.err.find("--threads"), std::string::npos) << o.err;
        EXPECT_NE(o.err.find("from 1 to " + std::to_string(4 * cores)), std::string::npos) << o.err;
    }
    Outcome batch = Fabricsim("batch " + Quote(Path("none.json")) + " --threads 0");
    EXPECT_EQ(batch.code, 2);
    EXPECT_NE(batch.err.find("--threads"), std::string::npos) << batch.err;
    // What cannot run on threads yet is refused, naming it, not run on one thread silently.
    Outcome refused = Fabricsim("run " + Quote(kExamples + "/valid/dci-accelerator-bdp.json") +
                                " --out " + Quote(Path("tr.json")) + " --threads 2");
    EXPECT_EQ(refused.code, 2);
    EXPECT_EQ(Lines(refused.err), 1u);
    EXPECT_NE(refused.err.find("DCI accelerator runs on one thread"), std::string::npos)
        << refused.err;
}

TEST_F(CliTest, BatchResultsEqualStandaloneRunsAndEachEntryReportsItsExit)
{
    // Three valid scenarios (one with another seed), one invalid: the batch reports every entry
    // once with the exit `run` gives, and each result equals a standalone run byte for byte
    // (perf aside), whatever the number of parallel jobs.
    std::string a = kExamples + "/valid/workload-custom-cdf.json";
    std::string b = kExamples + "/valid/leaf-spine-incast.json";
    json seeded = json::parse(ReadFile(a));
    seeded["seed"] = 6;
    WriteFile(Path("seed6.json"), seeded.dump());
    std::string bad = kExamples + "/invalid/kmin-above-kmax.json";
    std::vector<std::string> scenarios{a, b, Path("seed6.json"), bad};
    for (const char* jobs : {"1", "3"})
    {
        json manifest = {{"runs", json::array()}};
        for (std::size_t i = 0; i < scenarios.size(); ++i)
        {
            manifest["runs"].push_back(
                {{"scenario", scenarios[i]},
                 {"out", Path(std::string("batch") + jobs + "-" + std::to_string(i) + ".json")}});
        }
        WriteFile(Path("manifest.json"), manifest.dump());
        Outcome o = Fabricsim("batch " + Quote(Path("manifest.json")) + " --jobs " + jobs);
        ASSERT_EQ(o.code, 0) << o.err;
        std::map<int, json> byIndex;
        std::istringstream lines(o.out);
        std::string line;
        while (std::getline(lines, line))
        {
            json l = json::parse(line);
            EXPECT_EQ(byIndex.count(l["index"].get<int>()), 0u) << "entry reported twice";
            byIndex[l["index"].get<int>()] = l;
        }
        ASSERT_EQ(byIndex.size(), scenarios.size()) << o.out;
        for (std::size_t i = 0; i < scenarios.size(); ++i)
        {
            std::string single = Path("single-" + std::to_string(i) + ".json");
            Outcome s = Fabricsim("run " + Quote(scenarios[i]) + " --out " + Quote(single));
            EXPECT_EQ(byIndex[static_cast<int>(i)]["exit"], s.code) << scenarios[i];
            std::string batchOut =
                Path(std::string("batch") + jobs + "-" + std::to_string(i) + ".json");
            EXPECT_EQ(access((batchOut + ".stderr").c_str(), F_OK), -1) << "stderr file left";
            if (s.code != 0)
            {
                // the same one-line reason as the standalone run, and no result file
                EXPECT_EQ(byIndex[static_cast<int>(i)]["error"].get<std::string>() + "\n", s.err);
                EXPECT_EQ(access(batchOut.c_str(), F_OK), -1);
                continue;
            }
            EXPECT_EQ(byIndex[static_cast<int>(i)]["error"], "");
            EXPECT_EQ(WithoutPerf(ReadFile(batchOut)), WithoutPerf(ReadFile(single))) << scenarios[i];
        }
    }
}

TEST_F(CliTest, BatchRefusesBadManifestsAndOptionsBeforeRunningAnything)
{
    WriteFile(Path("list.json"), "[]");
    WriteFile(Path("nopath.json"), R"({"runs": [{"scenario": "a.json"}]})");
    WriteFile(Path("ok.json"), "{\"runs\": [{\"scenario\": " +
                                   json(kExamples + "/valid/pingmesh.json").dump() +
                                   ", \"out\": " + json(Path("never.json")).dump() + "}]}");
    struct Case
    {
        std::string args;
        std::string message;
    };
    std::vector<Case> cases{
        {"batch", "batch: missing MANIFEST.json"},
        {"batch " + Quote(Path("missing.json")), "batch: cannot read manifest"},
        {"batch " + Quote(Path("list.json")), "batch: manifest must be a JSON object"},
        {"batch " + Quote(Path("nopath.json")), "runs[0].out: must be a non-empty path"},
        {"batch " + Quote(Path("ok.json")) + " --jobs 0", "--jobs: must be an integer from 1"},
        {"batch " + Quote(Path("ok.json")) + " --max-wall-s -1", "--max-wall-s: must be a number > 0"},
        {"batch " + Quote(Path("ok.json")) + " --frob", "unknown option --frob"},
    };
    for (const Case& c : cases)
    {
        Outcome o = Fabricsim(c.args);
        EXPECT_EQ(o.code, 2) << c.args;
        EXPECT_EQ(Lines(o.err), 1u) << c.args;
        EXPECT_EQ(o.err.rfind(c.message, 0), 0u) << c.args << ": " << o.err;
        EXPECT_EQ(o.out, "") << c.args;
    }
    EXPECT_EQ(access(Path("never.json").c_str(), F_OK), -1);
}

class HostileInputTest : public CliTest
{
  protected:
    /** Runs `fabricsim ARGS` with ulimit -v 1 GiB and timeout 60 s. */
    Outcome Guarded(const std::string& args)
    {
        std::string out = m_dir + "/stdout";
        std::string err = m_dir + "/stderr";
        std::string cmd = "ulimit -v 1048576; timeout 60 " + Quote(kBin) + " " + args + " >" +
                          Quote(out) + " 2>" + Quote(err);
        int status = std::system(("sh -c " + Quote(cmd)).c_str());
        Outcome o;
        o.code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
        o.out = ReadFile(out);
        o.err = ReadFile(err);
        return o;
    }

    /** One line on stderr, exit 2, starting with prefix. */
    void ExpectRefused(const Outcome& o, const std::string& prefix)
    {
        EXPECT_EQ(o.code, 2) << o.err;
        EXPECT_EQ(Lines(o.err), 1u) << o.err;
        EXPECT_EQ(o.err.rfind(prefix, 0), 0u) << o.err;
        EXPECT_EQ(o.out, "");
    }
};

TEST_F(HostileInputTest, EndlessDevicesAreCutAtTheSizeCap)
{
    // Without the cap these read forever (and /dev/zero grows without bound): the memory
    // ceiling turns that into exit 1 and the timeout into 124, both failures here.
    for (const char* device : {"/dev/zero", "/dev/urandom"})
    {
        SCOPED_TRACE(device);
        Outcome o = Guarded(std::string("validate ") + device);
        ExpectRefused(o, "(root): file is larger than 16777216 bytes (16 MiB");
    }
}

TEST_F(HostileInputTest, HugeFileRefusedBeforeReading)
{
    // A sparse 3 GB file: refused from its size, so it costs neither disk nor memory.
    std::string big = Path("big.json");
    ASSERT_EQ(std::system(("truncate -s 3000000000 " + Quote(big)).c_str()), 0);
    ExpectRefused(Guarded("validate " + Quote(big)), "(root): file is larger than 16777216 bytes");
    // One byte over the cap is refused, the cap itself is read (and then parsed).
    std::string edge = Path("edge.json");
    ASSERT_EQ(std::system(("truncate -s 16777217 " + Quote(edge)).c_str()), 0);
    ExpectRefused(Guarded("validate " + Quote(edge)), "(root): file is larger than");
    ASSERT_EQ(std::system(("truncate -s 16777216 " + Quote(edge)).c_str()), 0);
    ExpectRefused(Guarded("validate " + Quote(edge)), "(root): invalid JSON at line 1, column 1");
}

TEST_F(HostileInputTest, DirectoryIsNamedAsADirectory)
{
    ExpectRefused(Guarded("validate " + Quote(m_dir)), "(root): \"" + m_dir + "\" is a directory");
}

TEST_F(HostileInputTest, OutNamingADirectoryIsRefusedWithoutAStrayFile)
{
    std::string outDir = Path("outdir");
    ASSERT_EQ(std::system(("mkdir " + Quote(outDir)).c_str()), 0);
    std::string scenario = kExamples + "/valid/leaf-spine-incast.json";
    Outcome o = Guarded("run " + Quote(scenario) + " --out " + Quote(outDir));
    EXPECT_EQ(o.code, 2) << o.err;
    EXPECT_EQ(Lines(o.err), 1u) << o.err;
    EXPECT_EQ(o.err.rfind("--out: \"" + outDir + "\" is a directory", 0), 0u) << o.err;
    EXPECT_EQ(JsonFiles(outDir).size(), 0u);
    EXPECT_EQ(std::system(("test -z \"$(ls -A " + Quote(outDir) + ")\"").c_str()), 0)
        << "stray file left in " << outDir;
    // and into a directory that does not exist
    o = Guarded("run " + Quote(scenario) + " --out " + Quote(Path("nowhere/r.json")));
    EXPECT_EQ(o.code, 2) << o.err;
    EXPECT_EQ(o.err.rfind("--out: directory", 0), 0u) << o.err;
}

TEST_F(HostileInputTest, NumberOutOfRangeAndSyntaxErrorsGiveLineAndColumn)
{
    WriteFile(Path("big-number.json"), "{\n  \"schema_version\": 1,\n  \"duration_us\": 1e400\n}\n");
    ExpectRefused(Guarded("validate " + Quote(Path("big-number.json"))),
                  "(root): invalid JSON at line 3, column 22: number 1e400 is out of range");
    WriteFile(Path("cut.json"), "{\n  \"schema_version\": 1,\n  \"topology\": {\"kind\": ");
    Outcome o = Guarded("validate " + Quote(Path("cut.json")));
    ExpectRefused(o, "(root): invalid JSON at line 3, column");
    EXPECT_NE(o.err.find("unexpected end of input"), std::string::npos) << o.err;
}

TEST_F(HostileInputTest, DuplicateKeysAreRefusedAtTheirPath)
{
    WriteFile(Path("dup-root.json"),
              R"({"schema_version": 1, "seed": 1, "topology": {"kind": "leaf_spine"}, "seed": 2})");
    ExpectRefused(Guarded("validate " + Quote(Path("dup-root.json"))), "seed: duplicate key");
    WriteFile(Path("dup-deep.json"),
              R"({"schema_version": 1, "topology": {"kind": "explicit", "nodes": [{"id": "a"},)"
              R"( {"id": "b", "tier": 1, "tier": 2}]}})");
    ExpectRefused(Guarded("validate " + Quote(Path("dup-deep.json"))),
                  "topology.nodes[1].tier: duplicate key \"tier\"");
    // the same key in two different objects is fine
    WriteFile(Path("same-key.json"),
              R"({"schema_version": 1, "topology": {"kind": "leaf_spine"}, )"
              R"("switch": {"ecn": {"enabled": true}, "pfc": {"enabled": true}}})");
    EXPECT_EQ(Guarded("validate " + Quote(Path("same-key.json"))).code, 0);
}

TEST_F(HostileInputTest, RtoBelowBaseRttIsAWarningInTheResult)
{
    // 100 km of fibre = 500 us each way: the base RTT passes the default 1 ms RTO.
    json doc = {{"schema_version", 1},
                {"duration_us", 20},
                {"topology", {{"kind", "dci"}, {"length_km", 100}}},
                {"traffic", json::array({{{"kind", "pairs"}, {"pairs", json::array({json::array({"a-h0", "b-h0"})})}}})}};
    WriteFile(Path("dci.json"), doc.dump());
    Outcome o = Guarded("run " + Quote(Path("dci.json")) + " --out " + Quote(Path("dci-r.json")));
    ASSERT_EQ(o.code, 0) << o.err;
    json r = json::parse(ReadFile(Path("dci-r.json")));
    ASSERT_EQ(r["warnings"].size(), 1u) << r["warnings"].dump();
    EXPECT_EQ(r["warnings"][0]["code"], "rto_below_base_rtt");
    EXPECT_EQ(r["warnings"][0]["field"], "nic.rto_us");
    EXPECT_NE(r["warnings"][0]["message"].get<std::string>().find("nic.rto_us (1000 us)"),
              std::string::npos);
    // an RTO above the base RTT: no warning
    doc["nic"] = {{"rto_us", 4000}};
    WriteFile(Path("dci.json"), doc.dump());
    o = Guarded("run " + Quote(Path("dci.json")) + " --out " + Quote(Path("dci-r.json")));
    ASSERT_EQ(o.code, 0) << o.err;
    EXPECT_EQ(json::parse(ReadFile(Path("dci-r.json")))["warnings"], json::array());
}

} // namespace
