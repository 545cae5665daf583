#include "result-math.h"

#include "common/rounding.h"

#include <algorithm>
#include <cmath>
#include <string>

namespace fabric
{

double
Percentile(const std::vector<double>& sorted, double p)
{
    if (sorted.empty())
    {
        return 0;
    }
    double rank = std::ceil(p * static_cast<double>(sorted.size()));
    size_t idx = rank < 1 ? 0 : static_cast<size_t>(rank) - 1;
    return sorted[std::min(idx, sorted.size() - 1)];
}


nlohmann::ordered_json
DistributionJson(std::vector<double> v, bool withP95)
{
    nlohmann::ordered_json j;
    std::sort(v.begin(), v.end());
    j["count"] = v.size();
    if (v.empty())
    {
        j["mean"] = nullptr;
        j["p50"] = nullptr;
        if (withP95)
        {
            j["p95"] = nullptr;
        }
        j["p99"] = nullptr;
        j["p999"] = nullptr;
        return j;
    }
    double sum = 0;
    for (double x : v)
    {
        sum += x;
    }
    j["mean"] = RoundDecimals(sum / v.size(), 4);
    j["p50"] = RoundDecimals(Percentile(v, 0.5), 4);
    if (withP95)
    {
        j["p95"] = RoundDecimals(Percentile(v, 0.95), 4);
    }
    j["p99"] = RoundDecimals(Percentile(v, 0.99), 4);
    j["p999"] = RoundDecimals(Percentile(v, 0.999), 4);
    return j;
}

nlohmann::ordered_json
FlowRecordHead(const Scenario& s, uint32_t flow, bool started, double startPs)
{
    using json = nlohmann::ordered_json;
    const auto& nodes = s.topo.nodes;
    auto name = [&](uint32_t n) { return n < nodes.size() ? nodes[n].id : std::to_string(n); };
    const FlowSpec& f = s.flows[flow];
    json r;
    r["id"] = f.id;
    r["src"] = name(f.src);
    r["dst"] = name(f.dst);
    r["generator"] = f.generator;
    r["priority"] = f.priority;
    r["size_bytes"] = f.sizeBytes;
    if (s.deps.Waits(flow))
    {
        r["start_us"] = started ? json(RoundDecimals(startPs / 1e6, 3)) : json(nullptr);
    }
    else
    {
        r["start_us"] = RoundDecimals(f.startNs / 1e3, 3);
    }
    return r;
}

} // namespace fabric
