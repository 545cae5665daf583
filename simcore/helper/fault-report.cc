/*
 * The "faults" and "pingmesh" objects of the result (docs/result-format.md): the fault log,
 * drops by fault reason, watchdog triggers, PFC deadlocks found, and Pingmesh RTT percentiles
 * per scope, per host pair and per ToR pair, idle and under load.
 */
#include "common/rounding.h"
#include "scenario/result-math.h"
#include "helper/result-reports.h"
#include "helper/network-builder.h"
#include "model/fault-schedule.h"
#include "scenario/pingmesh-scope.h"

#include <algorithm>
#include <cmath>
#include <map>

namespace fabric
{

namespace
{

/** count, p50, p99, p999 and max of RTTs in us (null percentiles when empty). */
nlohmann::ordered_json
RttStats(std::vector<double> v)
{
    nlohmann::ordered_json j;
    std::sort(v.begin(), v.end());
    j["count"] = v.size();
    for (auto [key, p] : {std::pair<const char*, double>{"p50_us", 0.5}, {"p99_us", 0.99},
                          {"p999_us", 0.999}})
    {
        if (v.empty())
        {
            j[key] = nullptr;
        }
        else
        {
            j[key] = RoundDecimals(Percentile(v, p), 3);
        }
    }
    if (v.empty())
    {
        j["max_us"] = nullptr;
    }
    else
    {
        j["max_us"] = RoundDecimals(v.back(), 3);
    }
    return j;
}

} // namespace

bool
HasProbes(const Scenario& scenario)
{
    for (const FlowSpec& f : scenario.flows)
    {
        if (f.probe)
        {
            return true;
        }
    }
    return false;
}

nlohmann::ordered_json
FaultReport(const RunView& run)
{
    using json = nlohmann::ordered_json;
    json j;
    json events = json::array();
    for (const FaultEvent& e : run.faults.Events())
    {
        json x;
        x["t_us"] = RoundDecimals(e.ps / 1e6, 3);
        x["event"] = e.event;
        x["target"] = e.target;
        if (e.priority >= 0)
        {
            x["priority"] = e.priority;
        }
        events.push_back(x);
    }
    j["events"] = events;
    const FabricCounters& c = run.ctx.counters;
    json d;
    d["link_loss"] = c.drops[DROP_LINK_LOSS];
    d["link_down"] = c.drops[DROP_LINK_DOWN];
    d["pfc_watchdog"] = c.drops[DROP_PFC_WATCHDOG];
    d["nic_rx_overflow"] = c.drops[DROP_NIC_RX_OVERFLOW];
    j["drops"] = d;
    j["switch_watchdog_triggers"] = run.faults.SwitchWatchdogTriggers();
    j["nic_watchdog_triggers"] = run.faults.NicWatchdogTriggers();
    json dl = json::array();
    for (const DeadlockCycle& cyc : run.faults.Deadlocks())
    {
        json x;
        json ports = json::array();
        for (const DeadlockHop& h : cyc.hops)
        {
            ports.push_back(run.network.PortName(h.node, h.neighbor));
        }
        x["ports"] = ports;
        x["priority"] = cyc.priority;
        x["formed_us"] = RoundDecimals(cyc.formedPs / 1e6, 3);
        x["detected_us"] = RoundDecimals(cyc.detectedPs / 1e6, 3);
        dl.push_back(x);
    }
    j["deadlocks"] = dl;
    return j;
}

nlohmann::ordered_json
PortCountersReport(const RunView& run)
{
    using json = nlohmann::ordered_json;
    static const char* kReasons[] = {"headroom_overflow", "buffer_overflow", "tail_drop", "link_loss",
                                     "link_down", "pfc_watchdog", "nic_rx_overflow"};
    std::vector<std::pair<std::string, json>> rows;
    std::vector<std::pair<std::string, json>> drops;
    for (uint32_t d = 0; d < run.network.NodeCount(); ++d)
    {
        const FabricDevice* dev = run.network.Device(static_cast<uint32_t>(d));
        for (uint32_t p = 0; dev && p < dev->GetNPorts(); ++p)
        {
            const Port& port = dev->GetPort(p);
            if (!port.fault)
            {
                continue;
            }
            std::string name = run.network.PortName(d, port.neighbor);
            for (uint32_t prio = 0; prio < kNumPriorities; ++prio)
            {
                if (port.fault->txPackets[prio] == 0 && port.pausesSent[prio] == 0 &&
                    port.pausesReceived[prio] == 0)
                {
                    continue;
                }
                json r;
                r["port"] = name;
                r["priority"] = prio;
                r["tx_packets"] = port.fault->txPackets[prio];
                r["tx_bytes"] = port.fault->txBytes[prio];
                r["pauses_sent"] = port.pausesSent[prio];
                r["pauses_received"] = port.pausesReceived[prio];
                r["pause_duration_us"] = RoundDecimals(port.pausePs[prio] / 1e6, 3);
                rows.push_back({name + "#" + std::to_string(prio), r});
            }
            json x = json::object();
            uint64_t total = 0;
            static_assert(sizeof(kReasons) / sizeof(kReasons[0]) == DROP_REASONS &&
                              std::tuple_size<decltype(PortFault::drops)>::value == DROP_REASONS,
                          "one name and one counter per reason");
            for (uint32_t k = 0; k < DROP_REASONS; ++k)
            {
                if (port.fault->drops[k] > 0)
                {
                    x[kReasons[k]] = port.fault->drops[k];
                    total += port.fault->drops[k];
                }
            }
            if (total > 0)
            {
                json e;
                e["port"] = name;
                e["total"] = total;
                e["by_reason"] = x;
                drops.push_back({name, e});
            }
        }
    }
    auto byName = [](const auto& a, const auto& b) { return a.first < b.first; };
    std::sort(rows.begin(), rows.end(), byName);
    std::sort(drops.begin(), drops.end(), byName);
    json j;
    json arr = json::array();
    for (auto& r : rows)
    {
        arr.push_back(r.second);
    }
    json darr = json::array();
    for (auto& r : drops)
    {
        darr.push_back(r.second);
    }
    j["ports"] = arr;
    j["drops"] = darr;
    return j;
}

nlohmann::ordered_json
PingmeshReport(const RunView& run)
{
    using json = nlohmann::ordered_json;
    const Topology& topo = run.scenario.topo;
    const std::vector<uint32_t>& attach = run.network.HostAttachNode();
    // "Idle": probes sent before the first workload flow starts; "loaded": the others.
    uint64_t loadStartNs = UINT64_MAX;
    for (const FlowSpec& f : run.scenario.flows)
    {
        if (!f.probe)
        {
            loadStartNs = std::min(loadStartNs, f.startNs);
        }
    }
    std::map<std::string, std::vector<double>> byScope;
    std::map<std::pair<uint32_t, uint32_t>, std::vector<double>> byPair;
    std::map<std::pair<uint32_t, uint32_t>, std::vector<double>> byTor;
    std::vector<double> all;
    std::vector<double> idle;
    std::vector<double> loaded;
    uint64_t sent = 0;
    uint64_t unanswered = 0;
    uint64_t delivered = 0;
    for (const FlowState& f : run.ctx.flows)
    {
        if (!f.spec || !f.spec->probe)
        {
            continue;
        }
        ++sent;
        delivered += f.completePs >= 0 ? 1 : 0; // reached the receiver (its ACK may not be back)
        if (f.senderDonePs < 0)
        {
            ++unanswered; // no answer before the end of the run (a storm, a failure, or late)
            continue;
        }
        double rtt = (f.senderDonePs - f.startPs) / 1e6;
        all.push_back(rtt);
        (f.spec->startNs < loadStartNs ? idle : loaded).push_back(rtt);
        byScope[PingmeshScope(topo, attach, f.spec->src, f.spec->dst)].push_back(rtt);
        byPair[{f.spec->src, f.spec->dst}].push_back(rtt);
        byTor[{attach[f.spec->src], attach[f.spec->dst]}].push_back(rtt);
    }
    json j;
    j["probes_sent"] = sent;
    j["probes_delivered"] = delivered;
    j["probes_unanswered"] = unanswered;
    j["rtt"] = RttStats(all);
    j["idle"] = RttStats(idle);
    j["loaded"] = RttStats(loaded);
    json scopes = json::object();
    for (const char* scope : {"tor", "podset", "fabric"})
    {
        auto it = byScope.find(scope);
        scopes[scope] = RttStats(it == byScope.end() ? std::vector<double>() : it->second);
    }
    j["scopes"] = scopes;
    auto name = [&](uint32_t n) { return n < topo.nodes.size() ? topo.nodes[n].id : std::string("?"); };
    std::vector<std::pair<std::pair<std::string, std::string>, json>> pairs;
    for (const auto& [key, v] : byPair)
    {
        json x;
        x["src"] = name(key.first);
        x["dst"] = name(key.second);
        x["scope"] = PingmeshScope(topo, attach, key.first, key.second);
        json stats = RttStats(v);
        for (auto& [k, val] : stats.items())
        {
            x[k] = val;
        }
        pairs.push_back({{name(key.first), name(key.second)}, x});
    }
    std::sort(pairs.begin(), pairs.end(),
              [](const auto& a, const auto& b) { return a.first < b.first; });
    json pj = json::array();
    for (auto& p : pairs)
    {
        pj.push_back(p.second);
    }
    j["pairs"] = pj;
    std::vector<std::pair<std::pair<std::string, std::string>, json>> tors;
    for (const auto& [key, v] : byTor)
    {
        json x;
        x["src_tor"] = name(key.first);
        x["dst_tor"] = name(key.second);
        json stats = RttStats(v);
        for (auto& [k, val] : stats.items())
        {
            x[k] = val;
        }
        tors.push_back({{name(key.first), name(key.second)}, x});
    }
    std::sort(tors.begin(), tors.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    json tj = json::array();
    for (auto& t : tors)
    {
        tj.push_back(t.second);
    }
    j["tor_matrix"] = tj;
    return j;
}

} // namespace fabric
