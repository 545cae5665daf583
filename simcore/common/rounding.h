/*
 * Rounding of reported figures, shared by the result writers (helper/) and the config check
 * (scenario/): one copy, so every figure prints the same way.
 */
#ifndef FABRIC_COMMON_ROUNDING_H
#define FABRIC_COMMON_ROUNDING_H

#include <cmath>

namespace fabric
{

/** x rounded half away from zero to `decimals` decimal places; -0 becomes 0 (never "-0"). */
inline double
RoundDecimals(double x, int decimals)
{
    double f = std::pow(10.0, decimals);
    double r = std::round(x * f) / f;
    return r == 0 ? 0.0 : r;
}

} // namespace fabric

#endif
