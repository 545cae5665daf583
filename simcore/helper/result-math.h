/*
 * Nearest-rank percentiles of result values (rounding is common/rounding.h).
 */
#ifndef FABRIC_RESULT_MATH_H
#define FABRIC_RESULT_MATH_H

#include <vector>

namespace fabric
{

/** Nearest-rank percentile of sorted values (p in [0, 1]). */
double Percentile(const std::vector<double>& sorted, double p);

} // namespace fabric

#endif
