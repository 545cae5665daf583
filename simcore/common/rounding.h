/*
 * Rounding of reported figures, shared by the result writers (helper/) and the config check
 * (scenario/): one copy, so every figure prints the same way; and of a scenario's times in
 * microseconds to the model's nanoseconds (the scenario layer's readers).
 */
#ifndef FABRIC_COMMON_ROUNDING_H
#define FABRIC_COMMON_ROUNDING_H

#include <cmath>
#include <cstdint>

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

/** A time in microseconds (a scenario's unit) as whole nanoseconds (the model's), rounded half
 *  away from zero. */
inline uint64_t
UsToNs(double us)
{
    return static_cast<uint64_t>(std::llround(us * 1000.0));
}

} // namespace fabric

#endif
