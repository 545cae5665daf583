#include "scenario-parser.h"

#include "common/rounding.h"
#include "device-config.h"
#include "fault-config.h"
#include "json-input.h"
#include "json-reader.h"
#include "monitor-config.h"
#include "headroom.h"
#include "scenario-checks.h"
#include "scenario-contract.h"
#include "sha256.h"
#include "topology-reader.h"
#include "traffic-generator.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace fabric
{

using nlohmann::json;
using nlohmann::ordered_json;

namespace
{

/** For each node, the field that set its buffer_bytes (for error messages). */
std::vector<std::string>
BufferFieldPaths(const Topology& topo, const TopologyBuild& build, const json* overrides)
{
    std::vector<std::string> paths(topo.nodes.size(), "switch.buffer_bytes");
    for (const auto& entry : build.bufferBytes)
    {
        paths[entry.first] = "topology.dci_buffer_bytes";
    }
    if (overrides && overrides->is_object())
    {
        for (auto it = overrides->begin(); it != overrides->end(); ++it)
        {
            auto found = topo.index.find(it.key());
            if (found != topo.index.end() && it.value().is_object() &&
                it.value().contains("buffer_bytes"))
            {
                paths[found->second] = JoinPath(JoinPath("switch_overrides", it.key()), "buffer_bytes");
            }
        }
    }
    return paths;
}

/**
 * A DCI edge whose buffer no field set (dci_buffer_bytes absent, no switch_overrides entry) and
 * whose PFC headroom leaves less than kDciAutoPoolBytes of the 64 MB default gets headroom +
 * kDciAutoPoolBytes (at most the 1 GB limit): a long link's headroom grows with its length
 * (about 125 KB per km at 100G), so the default would refuse a DCI past about 500 km.
 */
void
SizeDciEdgeBuffers(Scenario& s, const TopologyBuild& build, const std::vector<std::string>& paths)
{
    uint32_t mtu = std::max<uint32_t>(LargestHostMtu(s.topo, s.nicCfg), 1);
    for (const auto& [edge, bytes] : build.bufferBytes)
    {
        SwitchConfig& cfg = s.switchCfg[edge];
        if (paths[edge] != "topology.dci_buffer_bytes" || !cfg.pfc.enabled)
        {
            continue;
        }
        std::vector<uint64_t> headroom = SwitchPortHeadroom(s.topo, cfg, s.nicCfg, edge, mtu);
        uint64_t reserved = std::accumulate(headroom.begin(), headroom.end(), uint64_t{0});
        uint64_t needed = reserved + kDciAutoPoolBytes;
        if (needed > cfg.bufferBytes)
        {
            cfg.bufferBytes = std::min<uint64_t>(needed, static_cast<uint64_t>(schema::kDciDciBufferBytes.max));
        }
    }
}

/** Hosts whose nic_overrides entry sets `field` (already validated). */
std::unordered_set<uint32_t>
HostsOverriding(const Topology& topo, const json* overrides, const std::string& field)
{
    std::unordered_set<uint32_t> hosts;
    if (overrides && overrides->is_object())
    {
        for (auto it = overrides->begin(); it != overrides->end(); ++it)
        {
            auto found = topo.index.find(it.key());
            if (found != topo.index.end() && it.value().is_object() && it.value().contains(field))
            {
                hosts.insert(found->second);
            }
        }
    }
    return hosts;
}

Scenario
Resolve(const json& doc, const std::string& bytes, ordered_json* out, const LoadOptions& options,
        std::vector<StreamedCollective>* streamed)
{
    if (!doc.is_object())
    {
        throw ScenarioError("", "must be an object, not " + TypeName(doc));
    }
    if (out)
    {
        // Fix the key order of the normalized document up front.
        *out = ordered_json::object();
        for (const char* key : {"schema_version", "name", "description", "seed", "duration_us",
                                "warmup_us", "topology", "switch", "switch_overrides", "nic",
                                "nic_overrides", "traffic", "monitor", "faults", "watchdogs", "telemetry"})
        {
            (*out)[key] = nullptr;
        }
    }
    ObjectReader r(doc, "", out);
    Scenario s;
    const json* version = r.Raw("schema_version");
    if (!version)
    {
        throw ScenarioError("schema_version", "field required (must be 1)");
    }
    if (!version->is_number_integer() || version->get<int64_t>() != 1)
    {
        throw ScenarioError("schema_version", "must be 1 (the only version this simulator reads)");
    }
    r.Record("schema_version", 1);
    s.schemaVersion = 1;
    s.name = r.String("name", "", kMaxNameChars);
    r.String("description", "", kMaxDescriptionChars);
    s.seed = static_cast<uint32_t>(r.Int("seed", static_cast<int64_t>(schema::kScenarioSeed.def),
                                         Range::Of(schema::kScenarioSeed)));
    double durationUs = r.Number("duration_us", schema::kScenarioDurationUs.def,
                                 Range::Of(schema::kScenarioDurationUs));
    const json* warmup = r.Raw("warmup_us");
    double warmupUs = 0;
    if (warmup)
    {
        warmupUs = ReadNumber(*warmup, "warmup_us", Range::Of(schema::kScenarioWarmupUs));
        if (warmupUs >= durationUs)
        {
            throw ScenarioError("warmup_us",
                                "must be < duration_us (" + FormatNumber(durationUs) + ")");
        }
    }
    r.Record("warmup_us", warmupUs);
    s.durationNs = UsToNs(durationUs);
    s.warmupNs = UsToNs(warmupUs);
    if (s.durationNs == 0)
    {
        throw ScenarioError("duration_us", "must be at least 0.001 us (1 ns)");
    }

    const json* topology = r.Raw("topology");
    if (!topology)
    {
        throw ScenarioError("topology", "field required");
    }
    TopologyBuild build = BuildTopology(*topology, out ? &(*out)["topology"] : nullptr);
    s.topo = std::move(build.topo);
    if (options.maxHosts > 0)
    {
        auto hosts = static_cast<uint64_t>(
            std::count_if(s.topo.nodes.begin(), s.topo.nodes.end(),
                          [](const NodeSpec& n) { return n.isHost; }));
        if (hosts > options.maxHosts)
        {
            throw ScenarioError("topology", "expands to " + std::to_string(hosts) +
                                                " hosts, more than this run's limit of " +
                                                std::to_string(options.maxHosts) + " (--max-hosts)");
        }
    }
    s.dciAccelerator = build.dciAccelerator;

    ResolveDeviceConfigs(s.topo, r.Raw("switch"), r.Raw("switch_overrides"), r.Raw("nic"),
                         r.Raw("nic_overrides"), build.bufferBytes, s.switchCfg, s.nicCfg, out);
    std::vector<std::string> bufferPaths = BufferFieldPaths(s.topo, build, r.Raw("switch_overrides"));
    if (build.dciBufferAuto)
    {
        SizeDciEdgeBuffers(s, build, bufferPaths);
    }
    CheckSwitchBuffers(s, bufferPaths);
    s.rtoOverridden = HostsOverriding(s.topo, r.Raw("nic_overrides"), "rto_us");

    TrafficContext ctx;
    ctx.topo = &s.topo;
    ctx.nicCfg = &s.nicCfg;
    const json* switchJson = r.Raw("switch");
    ctx.dataPriority =
        ReadSwitchConfig(switchJson ? *switchJson : json::object(), "switch").dataPriority;
    ctx.durationNs = s.durationNs;
    ctx.durationUs = durationUs;
    ctx.seed = s.seed;
    ctx.streamRingsAbove = options.streamRingsAbove;
    ctx.ringProgramsAbove = options.ringProgramsAbove;
    ctx.nvlinkGroups = options.nvlinkGroups;
    GeneratedTraffic traffic = GenerateTraffic(r.Raw("traffic"), ctx, out ? &(*out)["traffic"] : nullptr);
    s.flows = std::move(traffic.flows);
    s.deps = std::move(traffic.deps);
    s.jobs = std::move(traffic.jobs);
    s.jobFlows = std::move(traffic.jobFlows);
    s.transfers = std::move(traffic.transfers);
    if (streamed)
    {
        *streamed = std::move(traffic.streamed);
    }

    s.monitor = ResolveMonitor(r.Raw("monitor"), s.topo, s.flows, durationUs,
                               out ? &(*out)["monitor"] : nullptr);
    s.faults = ResolveFaults(r.Raw("faults"), s.topo, ctx.dataPriority, durationUs,
                             out ? &(*out)["faults"] : nullptr);
    s.watchdogs = ResolveWatchdogs(r.Raw("watchdogs"), out ? &(*out)["watchdogs"] : nullptr);
    TelemetryConfig telemetry =
        ResolveTelemetry(r.Raw("telemetry"), out ? &(*out)["telemetry"] : nullptr);
    s.portCounters = telemetry.portCounters;
    s.flowPaths = telemetry.flowPaths;
    r.Finish();
    s.sha256 = Sha256Hex(bytes);
    return s;
}

} // namespace

namespace
{

Scenario
LoadResolved(const std::string& bytes, ordered_json* normalized, const LoadOptions& options,
             std::vector<StreamedCollective>* streamed)
{
    json doc = ParseStrictJson(bytes);
    try
    {
        return Resolve(doc, bytes, normalized, options, streamed);
    }
    catch (const ScenarioError&)
    {
        throw;
    }
    catch (const json::exception& e)
    {
        // Every access is type-checked first; this is a last line of defence.
        throw ScenarioError("", std::string("invalid value (") + e.what() + ")");
    }
}

} // namespace

Scenario
LoadScenario(const std::string& bytes, ordered_json* normalized)
{
    return LoadResolved(bytes, normalized, LoadOptions(), nullptr);
}

LoadedScenario
LoadScenarioWith(const std::string& bytes, const LoadOptions& options)
{
    LoadedScenario out;
    out.scenario = LoadResolved(bytes, nullptr, options, &out.streamed);
    return out;
}

std::string
ReadScenarioFile(const std::string& path)
{
    return ReadCappedFile(path);
}

ordered_json
ScenarioDefaults()
{
    ordered_json out;
    LoadScenario(R"({"schema_version": 1, "topology": {"kind": "leaf_spine"}})", &out);
    return out;
}

ordered_json
ExpandJson(const Topology& topo)
{
    ordered_json doc = ordered_json::object();
    ordered_json nodes = ordered_json::array();
    for (const auto& n : topo.nodes)
    {
        ordered_json node = {{"id", n.id},
                             {"kind", n.isHost ? "host" : "switch"},
                             {"tier", n.tier},
                             {"group", n.group}};
        if (!n.server.empty())
        {
            node["server"] = n.server;
            node["rail"] = n.rail;
        }
        if (n.hasXY)
        {
            node["x"] = n.x;
            node["y"] = n.y;
        }
        nodes.push_back(std::move(node));
    }
    ordered_json links = ordered_json::array();
    for (const auto& l : topo.links)
    {
        links.push_back({{"id", l.id},
                         {"a", topo.nodes[l.a].id},
                         {"b", topo.nodes[l.b].id},
                         {"rate_gbps", l.rateGbps},
                         {"delay_us", l.delayUs}});
    }
    doc["nodes"] = std::move(nodes);
    doc["links"] = std::move(links);
    doc["stats"] = FabricStatsJson(topo);
    return doc;
}

ordered_json
FabricStatsJson(const Topology& topo)
{
    ordered_json stats = ordered_json::object();
    for (const char* key : {"hosts", "switches", "links"})
    {
        auto it = topo.stats.find(key);
        if (it != topo.stats.end())
        {
            stats[key] = static_cast<uint64_t>(it->second);
        }
    }
    for (const auto& [key, value] : topo.stats)
    {
        if (!stats.contains(key))
        {
            stats[key] = value;
        }
    }
    return stats;
}

} // namespace fabric
