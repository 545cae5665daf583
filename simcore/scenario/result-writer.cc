#include "result-writer.h"

#include <charconv>
#include <cmath>
#include <cstdlib>

namespace fabric
{

double
RoundSignificant(double v, int digits)
{
    if (!std::isfinite(v) || v == 0)
    {
        return 0.0;
    }
    // printf's "%.*e" and strtod's digits, by to_chars and from_chars: the standard asks the
    // same digits of both and both are correctly rounded, at a quarter of the cost (results
    // hold tens of thousands of numbers)
    char buf[64];
    std::to_chars_result printed =
        std::to_chars(buf, buf + sizeof(buf), v, std::chars_format::scientific, digits - 1);
    double rounded = 0;
    if (std::from_chars(buf, printed.ptr, rounded).ec != std::errc())
    {
        *printed.ptr = '\0'; // out of range (a value that rounds past the largest double)
        rounded = std::strtod(buf, nullptr);
    }
    return rounded == 0 ? 0.0 : rounded;
}

void
RoundNumbers(nlohmann::ordered_json& doc, int digits)
{
    if (doc.is_number_float())
    {
        double r = RoundSignificant(doc.get<double>(), digits);
        if (std::fabs(r) < 9007199254740992.0 && r == std::floor(r))
        {
            doc = static_cast<int64_t>(r);
        }
        else
        {
            doc = r;
        }
    }
    else if (doc.is_structured())
    {
        for (auto& item : doc)
        {
            RoundNumbers(item, digits);
        }
    }
}

std::string
DumpDeterministic(nlohmann::ordered_json doc, int indent)
{
    RoundNumbers(doc);
    // Replace invalid UTF-8 rather than throw: ids are ASCII, but names come from users.
    return doc.dump(indent, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
}

} // namespace fabric
