/*
 * Nearest-rank percentiles of result values (rounding is common/rounding.h).
 */
#ifndef FABRIC_RESULT_MATH_H
#define FABRIC_RESULT_MATH_H

#include <nlohmann/json.hpp>

#include <vector>

namespace fabric
{

/** Nearest-rank percentile of sorted values (p in [0, 1]). */
double Percentile(const std::vector<double>& sorted, double p);

/**
 * {count, mean, p50, [p95,] p99, p999} of the values (4 decimals; nulls when empty): the
 * result's fct_us and slowdown, for either engine.
 */
nlohmann::ordered_json DistributionJson(std::vector<double> v, bool withP95);

} // namespace fabric

#endif
