/*
 * The arithmetic every part of the result shares: rounding to a fixed number of decimals (never
 * "-0") and nearest-rank percentiles.
 */
#ifndef FABRIC_RESULT_MATH_H
#define FABRIC_RESULT_MATH_H

#include <vector>

namespace fabric
{

/** x rounded to decimals places; a result that rounds to zero is +0 (no "-0" in JSON). */
double Round(double x, int decimals);

/** Nearest-rank percentile of sorted values (p in [0, 1]). */
double Percentile(const std::vector<double>& sorted, double p);

} // namespace fabric

#endif
