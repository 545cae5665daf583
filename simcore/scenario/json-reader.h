/*
 * Typed, path-aware reading of scenario JSON. Every accessor either returns a valid value or
 * throws ScenarioError naming the path and what is allowed. ObjectReader also records the
 * value it returned (defaults included) into an optional "normalized" document, which is how
 * `fabricsim schema` prints the fully defaulted scenario.
 */
#ifndef FABRIC_JSON_READER_H
#define FABRIC_JSON_READER_H

#include "scenario-contract.h"
#include "scenario-error.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <initializer_list>
#include <limits>
#include <set>
#include <string>
#include <vector>

namespace fabric
{

/** An allowed interval of numbers with optional open ends and a unit for messages. */
struct Range
{
    double min = -std::numeric_limits<double>::infinity();
    bool minOpen = false;
    double max = std::numeric_limits<double>::infinity();
    bool maxOpen = false;
    std::string unit;

    /** [lo, hi] */
    static Range Closed(double lo, double hi, const std::string& unit = "");
    /** (lo, hi] */
    static Range AboveTo(double lo, double hi, const std::string& unit = "");
    /** (lo, inf) */
    static Range Above(double lo, const std::string& unit = "");
    /** [lo, inf) */
    static Range AtLeast(double lo, const std::string& unit = "");
    /** The range (and unit) of a generated scenario field (scenario-contract.h). */
    static Range Of(const NumberField& field);

    bool Contains(double v) const;
    /** "must be > 0 and <= 1600 Gbit/s" */
    std::string Describe(bool integer) const;
};

/** A number as people write it: integers without a fraction, others with up to 10 digits. */
std::string FormatNumber(double v);

/** Deep merge: objects merge key by key (recursively), any other value replaces. */
nlohmann::json DeepMerge(const nlohmann::json& base, const nlohmann::json& patch);

/** Name of a JSON type for messages ("an object", "a list", ...). */
std::string TypeName(const nlohmann::json& v);

int64_t ReadInt(const nlohmann::json& v, const std::string& path, const Range& range);
double ReadNumber(const nlohmann::json& v, const std::string& path, const Range& range);
bool ReadBool(const nlohmann::json& v, const std::string& path);
std::string ReadString(const nlohmann::json& v, const std::string& path, std::size_t maxLen);
const nlohmann::json& RequireObject(const nlohmann::json& v, const std::string& path);
const nlohmann::json& RequireArray(const nlohmann::json& v,
                                   const std::string& path,
                                   std::size_t minItems,
                                   std::size_t maxItems);

/**
 * Reads the fields of one JSON object. Call Finish() after reading every known field: any
 * field not read is reported as unknown.
 */
class ObjectReader
{
  public:
    /**
     * \param value the JSON value that must be an object
     * \param path its path ("" for the root)
     * \param out where to record the values returned (may be null)
     */
    ObjectReader(const nlohmann::json& value,
                 const std::string& path,
                 nlohmann::ordered_json* out = nullptr);

    const std::string& GetPath() const;
    std::string FieldPath(const std::string& key) const;
    bool Has(const std::string& key) const;

    /** The raw value (marks the field as known), or null when absent. */
    const nlohmann::json* Raw(const std::string& key);

    int64_t Int(const std::string& key, int64_t def, const Range& range);
    int64_t RequiredInt(const std::string& key, const Range& range);
    double Number(const std::string& key, double def, const Range& range);
    bool Bool(const std::string& key, bool def);
    std::string String(const std::string& key, const std::string& def, std::size_t maxLen);
    /** One of the allowed strings; an empty default makes the field required. */
    std::string Enum(const std::string& key,
                     const std::string& def,
                     const std::vector<std::string>& allowed);

    /** Records a value in the normalized output under key (no-op without an output). */
    void Record(const std::string& key, const nlohmann::ordered_json& value);
    /** The normalized output, or null. */
    nlohmann::ordered_json* Out();

    /** Throws on the first field that was never read. */
    void Finish() const;

  private:
    const nlohmann::json& m_value;
    std::string m_path;
    nlohmann::ordered_json* m_out;
    std::set<std::string> m_known;
};

} // namespace fabric

#endif
