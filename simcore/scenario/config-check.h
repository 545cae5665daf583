/*
 * The configuration check (`fabricsim check`, POST /scenarios/check, the editor's panel): lints
 * the effective configuration of a resolved scenario (after overrides and timed `set` faults)
 * the way Guo et al. 2016 (section 5.1) compare running and desired configurations. Each
 * finding has a severity, the ports or nodes it concerns, the numbers and the fix.
 * Rules and their formulas: docs/config-check.md.
 */
#ifndef FABRIC_CONFIG_CHECK_H
#define FABRIC_CONFIG_CHECK_H

#include "model/fabric-config.h"

#include <nlohmann/json.hpp>

#include <map>
#include <string>
#include <vector>

namespace fabric
{

struct Finding
{
    std::string severity; ///< "error" (will misbehave), "warning" (likely not intended), "info"
    std::string rule;
    std::vector<std::string> where; ///< ports "a->b" or node ids
    std::map<std::string, double> numbers;
    std::string message;
    std::string fix;
};

/** Every finding for the scenario, in rule order then port order. */
std::vector<Finding> CheckConfiguration(const Scenario& s);

/** {"findings": [...], "counts": {"error": n, "warning": n, "info": n}, "effective": [...]} */
nlohmann::ordered_json ConfigCheckJson(const Scenario& s);

/** A number as findings' messages print it (and the app prints their numbers): "39,728", "8.934". */
std::string FormatCheckNumber(double v);

} // namespace fabric

#endif
