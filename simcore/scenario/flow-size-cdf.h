/*
 * Flow-size distributions given as a piecewise-linear CDF of (size in bytes, cumulative
 * percent) points, sampled by inverse transform with linear interpolation.
 */
#ifndef FABRIC_FLOW_SIZE_CDF_H
#define FABRIC_FLOW_SIZE_CDF_H

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace fabric
{

/**
 * A flow-size CDF. The first point's percent is a point mass at the first size (nothing is
 * smaller); between points the size is linear in the percent.
 */
class FlowSizeCdf
{
  public:
    /** points: sizes strictly increasing (>= 1), percents non-decreasing, the last 100. */
    explicit FlowSizeCdf(std::vector<std::pair<double, double>> points);

    /** "websearch", "fb_hadoop" or "alistorage"; throws std::out_of_range otherwise. */
    static FlowSizeCdf Named(const std::string& name);

    /** The exact mean of the piecewise-linear distribution, in bytes. */
    double Mean() const;

    /** The size at cumulative probability u in [0, 1], rounded to whole bytes (>= 1). */
    uint64_t Sample(double u) const;

    const std::vector<std::pair<double, double>>& Points() const;

  private:
    std::vector<std::pair<double, double>> m_points;
};

} // namespace fabric

#endif
