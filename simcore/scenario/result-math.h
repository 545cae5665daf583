/*
 * Nearest-rank percentiles of result values (rounding is common/rounding.h), and the part of a
 * flow's record both engines write alike.
 */
#ifndef FABRIC_RESULT_MATH_H
#define FABRIC_RESULT_MATH_H

#include "model/fabric-config.h"

#include <nlohmann/json.hpp>

#include <cstdint>

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

/**
 * The head of a result's flows[] record: id, src, dst, generator, priority, size_bytes and
 * start_us (a flow that waited for others starts when they completed: `startPs` if `started`,
 * else null). Each engine adds what it measured.
 */
nlohmann::ordered_json FlowRecordHead(const Scenario& s, uint32_t flow, bool started,
                                      double startPs);

} // namespace fabric

#endif
