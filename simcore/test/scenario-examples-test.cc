/*
 * The example scenarios in docs/examples: every valid one loads, every invalid one fails with
 * the JSON path that docs/examples/invalid/expected.json names (the backend's contract test
 * reads the same files).
 */
#include "scenario/scenario-parser.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <dirent.h>
#include <fstream>
#include <string>
#include <vector>

namespace
{

std::vector<std::string>
JsonFiles(const std::string& dir)
{
    std::vector<std::string> names;
    DIR* d = opendir(dir.c_str());
    if (!d)
    {
        return names;
    }
    while (dirent* e = readdir(d))
    {
        std::string name = e->d_name;
        if (name.size() > 5 && name.substr(name.size() - 5) == ".json" && name != "expected.json")
        {
            names.push_back(name);
        }
    }
    closedir(d);
    std::sort(names.begin(), names.end());
    return names;
}

const std::string kExamples = FABRICSIM_EXAMPLES_DIR;

TEST(ScenarioExamples, EveryValidExampleLoads)
{
    std::vector<std::string> files = JsonFiles(kExamples + "/valid");
    ASSERT_GE(files.size(), 8u);
    for (const auto& name : files)
    {
        SCOPED_TRACE(name);
        fabric::Scenario s;
        ASSERT_NO_THROW(
            s = fabric::LoadScenario(fabric::ReadScenarioFile(kExamples + "/valid/" + name)))
            << name;
        EXPECT_FALSE(s.topo.nodes.empty());
        EXPECT_EQ(s.sha256.size(), 64u);
    }
}

TEST(ScenarioExamples, EveryInvalidExampleNamesItsPath)
{
    std::ifstream in(kExamples + "/invalid/expected.json");
    ASSERT_TRUE(in.good());
    nlohmann::json expected = nlohmann::json::parse(in);
    std::vector<std::string> files = JsonFiles(kExamples + "/invalid");
    ASSERT_GE(files.size(), 12u);
    EXPECT_EQ(files.size(), expected.size()) << "every invalid example needs an expected path";
    for (const auto& name : files)
    {
        SCOPED_TRACE(name);
        ASSERT_TRUE(expected.contains(name)) << name << " missing from expected.json";
        std::string bytes = fabric::ReadScenarioFile(kExamples + "/invalid/" + name);
        try
        {
            fabric::LoadScenario(bytes);
            ADD_FAILURE() << name << " was accepted";
        }
        catch (const fabric::ScenarioError& e)
        {
            EXPECT_EQ(e.Path(), expected[name].get<std::string>()) << e.what();
            std::string what = e.what();
            EXPECT_EQ(what.find('\n'), std::string::npos);
            EXPECT_EQ(what.rfind(e.Path() + ": ", 0), 0u) << what;
        }
    }
}

} // namespace
