#include "fault-config.h"

#include "common/rounding.h"
#include "json-reader.h"
#include "scenario-contract.h"

#include <cmath>
#include <set>

namespace fabric
{

using nlohmann::json;
using nlohmann::ordered_json;

namespace
{


/** "a->b" naming an existing link; the direction a to b. */
PortRef
ReadLink(ObjectReader& r, const Topology& topo)
{
    std::string path = r.FieldPath("link");
    const json* v = r.Raw("link");
    if (!v)
    {
        throw ScenarioError(path, "field required (\"node->neighbor\")");
    }
    std::string name = ReadString(*v, path, kMaxNameChars);
    r.Record("link", name);
    std::size_t arrow = name.find("->");
    if (arrow == std::string::npos)
    {
        throw ScenarioError(path, "must look like \"node->neighbor\" (got \"" + name + "\")");
    }
    std::string from = name.substr(0, arrow);
    std::string to = name.substr(arrow + 2);
    auto a = topo.index.find(from);
    auto b = topo.index.find(to);
    if (a == topo.index.end() || b == topo.index.end())
    {
        throw ScenarioError(path, "unknown node '" + (a == topo.index.end() ? from : to) + "'");
    }
    for (const auto& l : topo.links)
    {
        if ((l.a == a->second && l.b == b->second) || (l.a == b->second && l.b == a->second))
        {
            return {a->second, b->second};
        }
    }
    throw ScenarioError(path, "no link between '" + from + "' and '" + to + "'");
}

/** A host id. */
uint32_t
ReadHost(ObjectReader& r, const Topology& topo)
{
    std::string path = r.FieldPath("host");
    const json* v = r.Raw("host");
    if (!v)
    {
        throw ScenarioError(path, "field required (a host id)");
    }
    std::string name = ReadString(*v, path, kMaxNodeIdChars);
    r.Record("host", name);
    auto it = topo.index.find(name);
    if (it == topo.index.end())
    {
        throw ScenarioError(path, "unknown host '" + name + "'");
    }
    if (!topo.nodes[it->second].isHost)
    {
        throw ScenarioError(path, "a switch, not a host '" + name + "'");
    }
    return it->second;
}

void
ReadLoss(ObjectReader& r, const Topology& topo, FaultSpec& f)
{
    f.link = ReadLink(r, topo);
    f.bothDirections =
        r.Enum("direction", schema::kLossDirection.def, schema::kLossDirection.options) == "both";
    const json* rate = r.Raw("rate");
    const json* everyN = r.Raw("every_n");
    if ((rate == nullptr || rate->is_null()) == (everyN == nullptr || everyN->is_null()))
    {
        throw ScenarioError(r.FieldPath("rate"), "give exactly one of rate and every_n");
    }
    if (rate && !rate->is_null())
    {
        f.lossRate = ReadNumber(*rate, r.FieldPath("rate"), Range::Of(schema::kLossRate));
        r.Record("rate", f.lossRate);
        r.Record("every_n", nullptr);
    }
    else
    {
        f.everyN = static_cast<uint64_t>(
            ReadInt(*everyN, r.FieldPath("every_n"), Range::Of(schema::kLossEveryN)));
        r.Record("rate", nullptr);
        r.Record("every_n", f.everyN);
    }
    f.dataOnly = r.Enum("frames", schema::kLossFrames.def, schema::kLossFrames.options) == "data";
}

std::vector<uint32_t>
ReadSetNodes(ObjectReader& r, const Topology& topo, bool switches, const std::string& param)
{
    std::string path = r.FieldPath("nodes");
    const json* v = r.Raw("nodes");
    if (!v)
    {
        throw ScenarioError(path, "field required (\"switches\", \"hosts\" or a list of ids)");
    }
    std::vector<uint32_t> nodes;
    std::string kind = switches ? "switch" : "NIC";
    if (v->is_string())
    {
        std::string s = v->get<std::string>();
        if (s != "switches" && s != "hosts")
        {
            throw ScenarioError(path, "must be \"switches\", \"hosts\" or a list of node ids");
        }
        if ((s == "switches") != switches)
        {
            throw ScenarioError(path, param + " is a " + kind + " parameter");
        }
        for (uint32_t i = 0; i < topo.nodes.size(); ++i)
        {
            if (topo.nodes[i].isHost != switches)
            {
                nodes.push_back(i);
            }
        }
        r.Record("nodes", s);
        return nodes;
    }
    RequireArray(*v, path, 1, kMaxSetNodes);
    ordered_json names = ordered_json::array();
    for (std::size_t i = 0; i < v->size(); ++i)
    {
        std::string itemPath = IndexPath(path, i);
        std::string name = ReadString((*v)[i], itemPath, kMaxNodeIdChars);
        auto it = topo.index.find(name);
        if (it == topo.index.end() || topo.nodes[it->second].isHost == switches)
        {
            throw ScenarioError(itemPath, "'" + name + "' is not a " +
                                              std::string(switches ? "switch" : "host") + " (" +
                                              param + ")");
        }
        nodes.push_back(it->second);
        names.push_back(name);
    }
    r.Record("nodes", names);
    return nodes;
}

void
ReadSet(ObjectReader& r, const Topology& topo, FaultSpec& f)
{
    // The settable parameters and their ranges are the static settings' (scenario-contract.h,
    // generated from backend/app/scenarios/faults.py SET_PARAMS), in SetParamKind's order.
    static_assert(sizeof(kSetParams) / sizeof(kSetParams[0]) ==
                      static_cast<std::size_t>(SetParamKind::CNP_INTERVAL_US) + 1,
                  "kSetParams and SetParamKind list the same parameters");
    // Pydantic checks fields in declaration order: nodes, param, value.
    r.Raw("nodes");
    std::vector<std::string> names;
    for (const auto& p : kSetParams)
    {
        names.emplace_back(p.name);
    }
    std::string param = r.Enum("param", "", names);
    std::size_t index = 0;
    while (param != kSetParams[index].name)
    {
        ++index;
    }
    const SetParamField& info = kSetParams[index];
    f.nodes = ReadSetNodes(r, topo, info.onSwitch, param);
    f.param = static_cast<SetParamKind>(index);
    f.paramName = info.name;
    const json* v = r.Raw("value");
    if (!v)
    {
        throw ScenarioError(r.FieldPath("value"), "field required (a number)");
    }
    double value = ReadNumber(*v, r.FieldPath("value"), Range::Of(schema::kSetParamValue));
    if (value < info.field.min || value > info.field.max)
    {
        throw ScenarioError(r.FieldPath("value"), "must be >= " + FormatNumber(info.field.min) +
                                                      " and <= " + FormatNumber(info.field.max) +
                                                      " for " + param);
    }
    f.value = value;
    r.Record("value", value);
}

FaultSpec
ReadFault(const json& item, const std::string& path, const Topology& topo, uint8_t dataPriority,
          double durationUs, ordered_json* out)
{
    ObjectReader r(item, path, out);
    FaultSpec f;
    std::string kind = r.Enum("kind", "", kFaultKinds);
    f.name = r.String("name", "", kMaxNameChars);
    const json* start = r.Raw("start_us");
    if (!start)
    {
        throw ScenarioError(r.FieldPath("start_us"), "field required (us)");
    }
    double startUs =
        ReadNumber(*start, r.FieldPath("start_us"), Range::Of(schema::kFaultBaseStartUs));
    if (startUs >= durationUs)
    {
        throw ScenarioError(r.FieldPath("start_us"),
                            "must be >= 0 and < duration_us (" + FormatNumber(durationUs) + ")");
    }
    r.Record("start_us", startUs);
    f.startNs = UsToNs(startUs);
    const json* end = r.Raw("end_us");
    if (end && !end->is_null())
    {
        double endUs = ReadNumber(*end, r.FieldPath("end_us"), Range::Of(schema::kFaultBaseEndUs));
        if (!(startUs < endUs && endUs <= durationUs))
        {
            throw ScenarioError(r.FieldPath("end_us"), "must be > start_us (" +
                                                           FormatNumber(startUs) +
                                                           ") and <= duration_us (" +
                                                           FormatNumber(durationUs) + ")");
        }
        if (kind == "link_up")
        {
            throw ScenarioError(r.FieldPath("end_us"), "not allowed for link_up");
        }
        f.endNs = UsToNs(endUs);
        r.Record("end_us", endUs);
    }
    else
    {
        r.Record("end_us", nullptr);
    }
    if (kind == "loss")
    {
        f.kind = FaultKind::LOSS;
        ReadLoss(r, topo, f);
    }
    else if (kind == "link_down" || kind == "link_up")
    {
        f.kind = kind == "link_down" ? FaultKind::LINK_DOWN : FaultKind::LINK_UP;
        f.link = ReadLink(r, topo);
        f.convergenceNs = UsToNs(
            r.Number("convergence_us", 0, Range::Of(schema::kLinkDownConvergenceUs)));
    }
    else if (kind == "pfc_storm")
    {
        f.kind = FaultKind::PFC_STORM;
        f.host = ReadHost(r, topo);
        f.priority = static_cast<uint8_t>(
            r.Int("priority", dataPriority, Range::Of(schema::kPfcStormPriority)));
        const json* interval = r.Raw("interval_us");
        if (interval && !interval->is_null())
        {
            double us = ReadNumber(*interval, r.FieldPath("interval_us"),
                                   Range::Of(schema::kPfcStormIntervalUs));
            f.intervalNs = std::max<uint64_t>(1, UsToNs(us));
            r.Record("interval_us", us);
        }
        else
        {
            r.Record("interval_us", nullptr);
        }
    }
    else if (kind == "slow_receiver")
    {
        f.kind = FaultKind::SLOW_RECEIVER;
        f.host = ReadHost(r, topo);
        if (!r.Has("drain_gbps"))
        {
            throw ScenarioError(r.FieldPath("drain_gbps"), "field required (Gbit/s)");
        }
        f.drainGbps = r.Number("drain_gbps", 0, Range::Of(schema::kSlowReceiverDrainGbps));
        f.bufferBytes = static_cast<uint64_t>(
            r.Int("buffer_bytes", static_cast<int64_t>(schema::kSlowReceiverBufferBytes.def),
                  Range::Of(schema::kSlowReceiverBufferBytes)));
    }
    else
    {
        f.kind = FaultKind::SET;
        ReadSet(r, topo, f);
    }
    r.Finish();
    return f;
}

} // namespace

std::vector<FaultSpec>
ResolveFaults(const json* faults, const Topology& topo, uint8_t dataPriority, double durationUs,
              ordered_json* out)
{
    std::vector<FaultSpec> list;
    ordered_json items = ordered_json::array();
    if (faults)
    {
        RequireArray(*faults, "faults", 0, kMaxFaults);
        for (std::size_t i = 0; i < faults->size(); ++i)
        {
            ordered_json itemOut;
            list.push_back(ReadFault((*faults)[i], IndexPath("faults", i), topo, dataPriority,
                                     durationUs, out ? &itemOut : nullptr));
            items.push_back(itemOut);
        }
    }
    if (out)
    {
        *out = items;
    }
    return list;
}

WatchdogConfig
ResolveWatchdogs(const json* watchdogs, ordered_json* out)
{
    static const json kEmpty = json::object();
    ObjectReader r(watchdogs ? *watchdogs : kEmpty, "watchdogs", out);
    WatchdogConfig w;
    {
        const json* sw = r.Raw("switch");
        ordered_json swOut;
        ObjectReader s(sw ? *sw : kEmpty, r.FieldPath("switch"), out ? &swOut : nullptr);
        w.switchEnabled = s.Bool("enabled", false);
        w.switchDetectNs = UsToNs(s.Number("detect_us", schema::kSwitchWatchdogDetectUs.def,
                                           Range::Of(schema::kSwitchWatchdogDetectUs)));
        w.switchRestoreNs = UsToNs(s.Number("restore_us", schema::kSwitchWatchdogRestoreUs.def,
                                            Range::Of(schema::kSwitchWatchdogRestoreUs)));
        w.switchAllPorts = s.Enum("ports", schema::kSwitchWatchdogPorts.def,
                                  schema::kSwitchWatchdogPorts.options) == "all";
        s.Finish();
        r.Record("switch", swOut);
    }
    {
        const json* nic = r.Raw("nic");
        ordered_json nicOut;
        ObjectReader n(nic ? *nic : kEmpty, r.FieldPath("nic"), out ? &nicOut : nullptr);
        w.nicEnabled = n.Bool("enabled", false);
        w.nicDetectNs = UsToNs(n.Number("detect_us", schema::kNicWatchdogDetectUs.def,
                                        Range::Of(schema::kNicWatchdogDetectUs)));
        n.Finish();
        r.Record("nic", nicOut);
    }
    w.deadlockReportNs =
        UsToNs(r.Number("deadlock_report_us", schema::kWatchdogsDeadlockReportUs.def,
                        Range::Of(schema::kWatchdogsDeadlockReportUs)));
    r.Finish();
    return w;
}

TelemetryConfig
ResolveTelemetry(const json* telemetry, ordered_json* out)
{
    static const json kEmpty = json::object();
    ObjectReader r(telemetry ? *telemetry : kEmpty, "telemetry", out);
    TelemetryConfig t;
    t.portCounters = r.Bool("port_counters", false);
    t.flowPaths = r.Bool("flow_paths", false);
    r.Finish();
    return t;
}

} // namespace fabric
