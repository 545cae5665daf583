/*
 * Helpers for scenario-layer tests: a small leaf-spine document and the one-line error a
 * document gets (empty when it loads).
 */
#ifndef FABRIC_SCENARIO_TEST_UTIL_H
#define FABRIC_SCENARIO_TEST_UTIL_H

#include "scenario/scenario-parser.h"

#include <nlohmann/json.hpp>

#include <string>

namespace fabric::test
{

/** 2 leaves, 2 spines, 2 hosts per leaf at 100 Gbit/s, 1 us links, 100 us. */
inline nlohmann::json
SmallLeafSpine()
{
    return {{"schema_version", 1},
            {"duration_us", 100},
            {"topology",
             {{"kind", "leaf_spine"}, {"leaves", 2}, {"spines", 2}, {"hosts_per_leaf", 2},
              {"host_rate_gbps", 100}, {"fabric_rate_gbps", 100}, {"link_delay_us", 1}}}};
}

/** The ScenarioError a document gets, or "" when it loads. */
inline std::string
LoadError(const nlohmann::json& doc)
{
    try
    {
        LoadScenario(doc.dump());
        return "";
    }
    catch (const ScenarioError& e)
    {
        return e.what();
    }
}

} // namespace fabric::test

#endif
