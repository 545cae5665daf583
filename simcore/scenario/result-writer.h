/*
 * Deterministic JSON output: every floating-point number rounded to a fixed number of
 * significant digits before serialization, so the same scenario and seed give the same bytes.
 */
#ifndef FABRIC_RESULT_WRITER_H
#define FABRIC_RESULT_WRITER_H

#include <nlohmann/json.hpp>

#include <string>

namespace fabric
{

/** Significant digits kept for every floating-point number in results. */
constexpr int kResultSignificantDigits = 6;

/** v rounded to `digits` significant decimal digits (-0 becomes 0; NaN/inf become 0). */
double RoundSignificant(double v, int digits = kResultSignificantDigits);

/**
 * Rounds every floating-point number in the document (recursively); floats that are whole
 * numbers of magnitude below 2^53 after rounding are stored as integers.
 */
void RoundNumbers(nlohmann::ordered_json& doc, int digits = kResultSignificantDigits);

/** RoundNumbers, then a compact dump (indent < 0) or an indented one. */
std::string DumpDeterministic(nlohmann::ordered_json doc, int indent = -1);

} // namespace fabric

#endif
