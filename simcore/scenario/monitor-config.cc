#include "monitor-config.h"

#include "json-reader.h"
#include "scenario-contract.h"
#include "topology-queries.h"

#include <set>

namespace fabric
{

using nlohmann::json;
using nlohmann::ordered_json;

namespace
{


/** The egress queues toward the hosts that receive traffic (first appearance), up to 16. */
std::vector<PortRef>
AutoQueues(const Topology& topo, const std::vector<FlowSpec>& flows)
{
    std::vector<uint32_t> attachment = HostAttachments(topo);
    std::vector<PortRef> ports;
    std::set<uint32_t> seen;
    for (const auto& f : flows)
    {
        if (ports.size() >= kMonitorAutoCount)
        {
            break;
        }
        if (seen.insert(f.dst).second && attachment[f.dst] != kNoNode)
        {
            ports.push_back({attachment[f.dst], f.dst});
        }
    }
    return ports;
}

/** "auto" or a list of "node->neighbor" names of existing link directions. */
std::vector<PortRef>
ReadPorts(ObjectReader& r,
          const std::string& key,
          const Topology& topo,
          const std::vector<PortRef>& autoPorts)
{
    const json* v = r.Raw(key);
    std::string path = r.FieldPath(key);
    if (!v || (v->is_string() && v->get<std::string>() == "auto"))
    {
        r.Record(key, "auto");
        return autoPorts;
    }
    if (!v->is_array())
    {
        throw ScenarioError(path, "must be \"auto\" or a list of \"node->neighbor\" names");
    }
    RequireArray(*v, path, 0, kMaxMonitorEntries);
    std::set<std::pair<uint32_t, uint32_t>> linked;
    for (const auto& l : topo.links)
    {
        linked.insert({l.a, l.b});
        linked.insert({l.b, l.a});
    }
    std::vector<PortRef> ports;
    ordered_json names = ordered_json::array();
    for (std::size_t i = 0; i < v->size(); ++i)
    {
        std::string itemPath = IndexPath(path, i);
        std::string name = ReadString((*v)[i], itemPath, kMaxNameChars);
        std::size_t arrow = name.find("->");
        if (arrow == std::string::npos)
        {
            throw ScenarioError(itemPath,
                                "must look like \"node->neighbor\" (got \"" + name + "\")");
        }
        std::string from = name.substr(0, arrow);
        std::string to = name.substr(arrow + 2);
        auto a = topo.index.find(from);
        auto b = topo.index.find(to);
        if (a == topo.index.end() || b == topo.index.end())
        {
            std::string missing = a == topo.index.end() ? from : to;
            throw ScenarioError(itemPath, "unknown node \"" + missing + "\"");
        }
        if (!linked.count({a->second, b->second}))
        {
            throw ScenarioError(itemPath, "no link between \"" + from + "\" and \"" + to + "\"");
        }
        ports.push_back({a->second, b->second});
        names.push_back(name);
    }
    r.Record(key, names);
    return ports;
}

bool
IsAuto(ObjectReader& r, const std::string& key)
{
    const json* v = r.Raw(key);
    return !v || (v->is_string() && v->get<std::string>() == "auto");
}

std::vector<uint32_t>
ReadFlows(ObjectReader& r, const std::vector<FlowSpec>& flows)
{
    const json* v = r.Raw("flows");
    std::string path = r.FieldPath("flows");
    std::vector<uint32_t> ids;
    if (!v || (v->is_string() && v->get<std::string>() == "auto"))
    {
        for (std::size_t i = 0; i < flows.size() && i < kMonitorAutoCount; ++i)
        {
            ids.push_back(flows[i].id);
        }
        r.Record("flows", "auto");
        return ids;
    }
    if (v->is_string() && v->get<std::string>() == "all")
    {
        if (flows.size() > kMonitorAllFlowsMax)
        {
            throw ScenarioError(path,
                                "\"all\" is allowed only with <= 256 flows (the scenario has " +
                                    std::to_string(flows.size()) + ")");
        }
        for (const auto& f : flows)
        {
            ids.push_back(f.id);
        }
        r.Record("flows", "all");
        return ids;
    }
    if (!v->is_array())
    {
        throw ScenarioError(path, "must be \"auto\", \"all\" or a list of flow ids");
    }
    RequireArray(*v, path, 0, kMaxMonitorEntries);
    std::set<uint32_t> seen;
    ordered_json given = ordered_json::array();
    for (std::size_t i = 0; i < v->size(); ++i)
    {
        int64_t id =
            ReadInt((*v)[i], IndexPath(path, i), Range::Closed(0, static_cast<double>(kMaxFlowId)));
        if (static_cast<uint64_t>(id) >= flows.size())
        {
            throw ScenarioError(IndexPath(path, i), "unknown flow id " + std::to_string(id) +
                                                        " (the scenario has " +
                                                        std::to_string(flows.size()) + " flows)");
        }
        if (seen.insert(static_cast<uint32_t>(id)).second)
        {
            ids.push_back(static_cast<uint32_t>(id));
        }
        given.push_back(id);
    }
    r.Record("flows", given);
    return ids;
}

} // namespace

std::string
PortName(const Topology& topo, const PortRef& port)
{
    return topo.nodes[port.node].id + "->" + topo.nodes[port.neighbor].id;
}

MonitorConfig
ResolveMonitor(const json* monitor,
               const Topology& topo,
               const std::vector<FlowSpec>& flows,
               double durationUs,
               ordered_json* out)
{
    static const json kEmpty = json::object();
    ObjectReader r(monitor ? *monitor : kEmpty, "monitor", out);
    MonitorConfig m;
    double minInterval = std::max(0.1, durationUs / static_cast<double>(kMaxSamples));
    const json* interval = r.Raw("sample_interval_us");
    m.sampleIntervalUs = 10;
    if (interval)
    {
        m.sampleIntervalUs = ReadNumber(*interval, r.FieldPath("sample_interval_us"),
                                        Range::Of(schema::kMonitorSampleIntervalUs));
    }
    if (m.sampleIntervalUs < minInterval)
    {
        throw ScenarioError(r.FieldPath("sample_interval_us"),
                            "must be >= " + FormatNumber(minInterval) +
                                " us (at most 100000 samples per series over duration_us)");
    }
    r.Record("sample_interval_us", m.sampleIntervalUs);
    m.queuesAuto = IsAuto(r, "queues");
    m.flowsAuto = IsAuto(r, "flows");
    m.portsAuto = IsAuto(r, "ports");
    std::vector<PortRef> autoQueues = AutoQueues(topo, flows);
    m.queues = ReadPorts(r, "queues", topo, autoQueues);
    m.flows = ReadFlows(r, flows);
    m.ports = ReadPorts(r, "ports", topo, m.queues);
    r.Finish();
    return m;
}

} // namespace fabric
