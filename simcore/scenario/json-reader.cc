#include "json-reader.h"

#include <cmath>
#include <cstdio>

namespace fabric
{

using nlohmann::json;

Range
Range::Closed(double lo, double hi, const std::string& unit)
{
    Range r;
    r.min = lo;
    r.max = hi;
    r.unit = unit;
    return r;
}

Range
Range::Of(const NumberField& field)
{
    Range r;
    r.min = field.min;
    r.minOpen = field.minOpen;
    r.max = field.max;
    r.maxOpen = field.maxOpen;
    r.unit = field.unit ? field.unit : "";
    return r;
}

Range
Range::AboveTo(double lo, double hi, const std::string& unit)
{
    Range r = Closed(lo, hi, unit);
    r.minOpen = true;
    return r;
}

Range
Range::Above(double lo, const std::string& unit)
{
    Range r;
    r.min = lo;
    r.minOpen = true;
    r.unit = unit;
    return r;
}

Range
Range::AtLeast(double lo, const std::string& unit)
{
    Range r;
    r.min = lo;
    r.unit = unit;
    return r;
}

bool
Range::Contains(double v) const
{
    if (std::isnan(v))
    {
        return false;
    }
    bool lowOk = minOpen ? v > min : v >= min;
    bool highOk = maxOpen ? v < max : v <= max;
    return lowOk && highOk;
}

std::string
Range::Describe(bool integer) const
{
    std::string text = integer ? "must be an integer" : "must be";
    bool hasMin = std::isfinite(min);
    bool hasMax = std::isfinite(max);
    if (hasMin)
    {
        text += std::string(minOpen ? " > " : " >= ") + FormatNumber(min);
    }
    if (hasMin && hasMax)
    {
        text += " and";
    }
    if (hasMax)
    {
        text += std::string(maxOpen ? " < " : " <= ") + FormatNumber(max);
    }
    if (!unit.empty())
    {
        text += " " + unit;
    }
    return text;
}

std::string
FormatNumber(double v)
{
    char buf[64];
    if (std::fabs(v) < 1e18 && v == std::floor(v))
    {
        std::snprintf(buf, sizeof(buf), "%lld", static_cast<long long>(v));
    }
    else
    {
        std::snprintf(buf, sizeof(buf), "%.10g", v);
    }
    return buf;
}

json
DeepMerge(const json& base, const json& patch)
{
    if (!base.is_object() || !patch.is_object())
    {
        return patch;
    }
    json merged = base;
    for (auto it = patch.begin(); it != patch.end(); ++it)
    {
        auto found = merged.find(it.key());
        if (found != merged.end())
        {
            *found = DeepMerge(*found, it.value());
        }
        else
        {
            merged[it.key()] = it.value();
        }
    }
    return merged;
}

std::string
TypeName(const json& v)
{
    switch (v.type())
    {
    case json::value_t::object:
        return "an object";
    case json::value_t::array:
        return "a list";
    case json::value_t::string:
        return "a string";
    case json::value_t::boolean:
        return "a boolean";
    case json::value_t::null:
        return "null";
    case json::value_t::number_integer:
    case json::value_t::number_unsigned:
        return "an integer";
    case json::value_t::number_float:
        return "a number";
    default:
        return "an unsupported value";
    }
}

int64_t
ReadInt(const json& v, const std::string& path, const Range& range)
{
    double asDouble = 0;
    int64_t value = 0;
    if (v.is_number_unsigned())
    {
        uint64_t u = v.get<uint64_t>();
        if (u > static_cast<uint64_t>(std::numeric_limits<int64_t>::max()))
        {
            throw ScenarioError(path, range.Describe(true));
        }
        value = static_cast<int64_t>(u);
        asDouble = static_cast<double>(u);
    }
    else if (v.is_number_integer())
    {
        value = v.get<int64_t>();
        asDouble = static_cast<double>(value);
    }
    else if (v.is_number_float() && std::isfinite(v.get<double>()) &&
             v.get<double>() == std::floor(v.get<double>()) && std::fabs(v.get<double>()) < 9e18)
    {
        asDouble = v.get<double>();
        value = static_cast<int64_t>(asDouble);
    }
    else
    {
        throw ScenarioError(path, "must be an integer");
    }
    if (!range.Contains(asDouble))
    {
        throw ScenarioError(path, range.Describe(true));
    }
    return value;
}

double
ReadNumber(const json& v, const std::string& path, const Range& range)
{
    if (!v.is_number())
    {
        throw ScenarioError(path, "must be a number");
    }
    double value = v.get<double>();
    if (!range.Contains(value))
    {
        throw ScenarioError(path, range.Describe(false));
    }
    return value;
}

bool
ReadBool(const json& v, const std::string& path)
{
    if (!v.is_boolean())
    {
        throw ScenarioError(path, "must be true or false");
    }
    return v.get<bool>();
}

std::string
ReadString(const json& v, const std::string& path, std::size_t maxLen)
{
    if (!v.is_string())
    {
        throw ScenarioError(path, "must be a string");
    }
    const std::string& s = v.get_ref<const std::string&>();
    if (s.size() > maxLen)
    {
        throw ScenarioError(path, "must be at most " + std::to_string(maxLen) + " characters");
    }
    return s;
}

const json&
RequireObject(const json& v, const std::string& path)
{
    if (!v.is_object())
    {
        throw ScenarioError(path, "must be an object, not " + TypeName(v));
    }
    return v;
}

const json&
RequireArray(const json& v, const std::string& path, std::size_t minItems, std::size_t maxItems)
{
    if (!v.is_array())
    {
        throw ScenarioError(path, "must be a list, not " + TypeName(v));
    }
    if (v.size() < minItems)
    {
        throw ScenarioError(path, "must have at least " + std::to_string(minItems) + " item" +
                                      (minItems == 1 ? "" : "s"));
    }
    if (v.size() > maxItems)
    {
        throw ScenarioError(path, "must have at most " + std::to_string(maxItems) + " items");
    }
    return v;
}

ObjectReader::ObjectReader(const json& value, const std::string& path, nlohmann::ordered_json* out)
    : m_value(RequireObject(value, path)),
      m_path(path),
      m_out(out)
{
    if (m_out && !m_out->is_object())
    {
        *m_out = nlohmann::ordered_json::object();
    }
}

const std::string&
ObjectReader::GetPath() const
{
    return m_path;
}

std::string
ObjectReader::FieldPath(const std::string& key) const
{
    return JoinPath(m_path, key);
}

bool
ObjectReader::Has(const std::string& key) const
{
    return m_value.contains(key);
}

const json*
ObjectReader::Raw(const std::string& key)
{
    m_known.insert(key);
    auto it = m_value.find(key);
    return it == m_value.end() ? nullptr : &*it;
}

int64_t
ObjectReader::Int(const std::string& key, int64_t def, const Range& range)
{
    const json* v = Raw(key);
    int64_t value = v ? ReadInt(*v, FieldPath(key), range) : def;
    Record(key, value);
    return value;
}

int64_t
ObjectReader::RequiredInt(const std::string& key, const Range& range)
{
    const json* v = Raw(key);
    if (!v)
    {
        throw ScenarioError(FieldPath(key), "field required");
    }
    int64_t value = ReadInt(*v, FieldPath(key), range);
    Record(key, value);
    return value;
}

double
ObjectReader::Number(const std::string& key, double def, const Range& range)
{
    const json* v = Raw(key);
    double value = v ? ReadNumber(*v, FieldPath(key), range) : def;
    Record(key, value);
    return value;
}

bool
ObjectReader::Bool(const std::string& key, bool def)
{
    const json* v = Raw(key);
    bool value = v ? ReadBool(*v, FieldPath(key)) : def;
    Record(key, value);
    return value;
}

std::string
ObjectReader::String(const std::string& key, const std::string& def, std::size_t maxLen)
{
    const json* v = Raw(key);
    std::string value = v ? ReadString(*v, FieldPath(key), maxLen) : def;
    Record(key, value);
    return value;
}

std::string
ObjectReader::Enum(const std::string& key,
                   const std::string& def,
                   const std::vector<std::string>& allowed)
{
    const json* v = Raw(key);
    std::string list;
    for (std::size_t i = 0; i < allowed.size(); ++i)
    {
        list += (i ? ", \"" : "\"") + allowed[i] + "\"";
    }
    if (!v)
    {
        if (def.empty())
        {
            throw ScenarioError(FieldPath(key), "field required (one of " + list + ")");
        }
        Record(key, def);
        return def;
    }
    if (v->is_string())
    {
        const std::string& s = v->get_ref<const std::string&>();
        for (const auto& a : allowed)
        {
            if (s == a)
            {
                Record(key, s);
                return s;
            }
        }
    }
    throw ScenarioError(FieldPath(key), "must be one of " + list);
}

void
ObjectReader::Record(const std::string& key, const nlohmann::ordered_json& value)
{
    if (m_out)
    {
        (*m_out)[key] = value;
    }
}

nlohmann::ordered_json*
ObjectReader::Out()
{
    return m_out;
}

void
ObjectReader::Finish() const
{
    for (auto it = m_value.begin(); it != m_value.end(); ++it)
    {
        if (m_known.count(it.key()) == 0)
        {
            std::string allowed;
            for (const auto& k : m_known)
            {
                allowed += (allowed.empty() ? "" : ", ") + k;
            }
            throw ScenarioError(FieldPath(it.key()),
                                "unknown field (allowed here: " + allowed + ")");
        }
    }
}

} // namespace fabric
