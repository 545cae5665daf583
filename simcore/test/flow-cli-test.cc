/*
 * `fabricsim run --engine flow` as a subprocess (docs/result-format.md): the flows take the
 * packet engine's paths (telemetry.flow_paths, both engines), the same scenario gives the same
 * bytes, the engine is named in run_info and perf, bad engine names and scenarios it cannot
 * model exit 2 with one line, and a fabric past the packet engine's size is refused by it.
 */
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <sys/wait.h>
#include <unistd.h>

namespace
{

using nlohmann::json;

const std::string kBin = FABRICSIM_BIN;
const std::string kExamples = FABRICSIM_EXAMPLES_DIR;
const std::string kRoot = std::string(FABRICSIM_SOURCE_DIR) + "/..";

std::string
ReadFile(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

struct Outcome
{
    int code = -1;
    std::string err;
};

class FlowCli : public ::testing::Test
{
  protected:
    void SetUp() override
    {
        char tmpl[] = "/tmp/fabricsim-flow-XXXXXX";
        ASSERT_NE(mkdtemp(tmpl), nullptr);
        m_dir = tmpl;
    }

    void TearDown() override { std::system(("rm -rf '" + m_dir + "'").c_str()); }

    Outcome Fabricsim(const std::string& args)
    {
        std::string err = m_dir + "/stderr";
        int status =
            std::system(("'" + kBin + "' " + args + " >/dev/null 2>'" + err + "'").c_str());
        return {WIFEXITED(status) ? WEXITSTATUS(status) : 128, ReadFile(err)};
    }

    /** Writes the scenario with telemetry.flow_paths on; returns its path. */
    std::string WithPaths(const std::string& example)
    {
        json s = json::parse(ReadFile(kExamples + "/valid/" + example));
        s["telemetry"]["flow_paths"] = true;
        std::string path = m_dir + "/" + example;
        std::ofstream(path) << s.dump();
        return path;
    }

    json Result(const std::string& scenario, const std::string& engine, const std::string& name)
    {
        std::string out = m_dir + "/" + name;
        Outcome o = Fabricsim("run '" + scenario + "' --out '" + out + "' --engine " + engine);
        EXPECT_EQ(o.code, 0) << o.err;
        return json::parse(ReadFile(out));
    }

    std::string m_dir;
};

TEST_F(FlowCli, FlowsTakeThePacketEnginesPaths)
{
    // ECMP over fat trees, three tiers and rails, RC and a sprayed multi-plane fabric: the path
    // of every flow's first frame is the same in both engines. (Under per_packet or adaptive
    // switches the packet model's first frame takes whichever next hop the switch's counter or
    // queues give; the flow engine shows the hash's, and splits the flow evenly.)
    for (const char* example :
         {"fat-tree-stride-flow-paths.json", "rail-optimized-stride.json",
          "fat-tree-permutation.json", "three-tier-tor-pairs.json", "multi-plane-sprayed.json"})
    {
        std::string s = WithPaths(example);
        json packet = Result(s, "packet", "p.json");
        json flow = Result(s, "flow", "f.json");
        ASSERT_EQ(packet["flows"].size(), flow["flows"].size()) << example;
        std::size_t compared = 0;
        for (std::size_t i = 0; i < packet["flows"].size(); ++i)
        {
            const json& p = packet["flows"][i]["path"];
            if (p.is_null())
            {
                continue; // the packet run ended before this flow's first frame arrived
            }
            EXPECT_EQ(p, flow["flows"][i]["path"]) << example << " flow " << i;
            ++compared;
        }
        EXPECT_GT(compared, 0u) << example;
    }
}

TEST_F(FlowCli, SameScenarioGivesTheSameBytesAndNamesTheEngine)
{
    std::string s = kRoot + "/backend/app/presets/data/15-ai-rail-allreduce.json";
    json preset = json::parse(ReadFile(s));
    std::string scenario = m_dir + "/rail.json";
    std::ofstream(scenario) << preset["scenario"].dump();
    json a = Result(scenario, "flow", "a.json");
    json b = Result(scenario, "flow", "b.json");
    EXPECT_EQ(a["perf"]["engine"], "flow");
    EXPECT_EQ(a["run_info"]["engine"], "flow");
    a.erase("perf");
    b.erase("perf");
    EXPECT_EQ(a.dump(), b.dump());
    EXPECT_TRUE(a.contains("caveats"));
    json p = Result(scenario, "packet", "p.json");
    EXPECT_EQ(p["perf"]["engine"], "packet");
    EXPECT_EQ(p["run_info"]["engine"], "ns-3.37");
    EXPECT_FALSE(p.contains("caveats"));
}

TEST_F(FlowCli, BadEngineAndUnmodelableScenariosExitTwoWithOneLine)
{
    std::string s = kExamples + "/valid/flow-list.json";
    Outcome o = Fabricsim("run '" + s + "' --out '" + m_dir + "/r.json' --engine fluid");
    EXPECT_EQ(o.code, 2);
    EXPECT_EQ(o.err.rfind("--engine: must be \"packet\" or \"flow\"", 0), 0u) << o.err;
    EXPECT_EQ(std::count(o.err.begin(), o.err.end(), '\n'), 1);
    json storm = json::parse(ReadFile(kRoot + "/backend/app/presets/data/07-msft-pfc-storm.json"));
    std::string stormPath = m_dir + "/storm.json";
    std::ofstream(stormPath) << storm["scenario"].dump();
    o = Fabricsim("run '" + stormPath + "' --out '" + m_dir + "/r.json' --engine flow");
    EXPECT_EQ(o.code, 2);
    EXPECT_EQ(o.err.rfind("faults[0].kind: ", 0), 0u) << o.err;
    EXPECT_EQ(std::count(o.err.begin(), o.err.end(), '\n'), 1);
}

TEST_F(FlowCli, PacketEngineRefusesAFabricPastItsSize)
{
    // 65,536 GPUs (bench/flow-65536-ring.json's fabric) with one flow: valid for the scenario
    // format and the flow engine, not the packet engine
    json s = json::parse(ReadFile(kRoot + "/bench/flow-65536-ring.json"));
    s["traffic"] =
        json::parse(R"([{"kind": "pairs", "pairs": [["h0", "h65535"]], "size_bytes": 4096}])");
    std::string big = m_dir + "/big.json";
    std::ofstream(big) << s.dump();
    Outcome o = Fabricsim("run '" + big + "' --out '" + m_dir + "/r.json'");
    EXPECT_EQ(o.code, 2);
    EXPECT_EQ(
        o.err.rfind("topology: expands to 66048 nodes, more than the packet engine's limit", 0), 0u)
        << o.err;
    json flow = Result(big, "flow", "f.json");
    EXPECT_EQ(flow["flows"][0]["bytes_delivered"], 4096);
}

} // namespace
