#include "flow/flow-result.h"

#include "common/rounding.h"
#include "scenario/job-summary.h"
#include "scenario/path-timing.h"
#include "scenario/result-math.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <tuple>
#include <utility>

namespace fabric
{
namespace flow
{

namespace
{

using json = nlohmann::ordered_json;

/**
 * Jobs x directed links up to which JobLinks adds in a table, not maps: 17 bytes a cell, all
 * written, so at most 4.5 MB (1,024 GPUs' rail fabric: one job's table is about 0.1 MB).
 */
constexpr std::size_t kDenseJobLinks = std::size_t(1) << 18;

bool
IsJobFlow(const Scenario& s, uint32_t i)
{
    return i < s.jobFlows.size() && s.jobFlows[i].job != UINT32_MAX;
}

int64_t
Ps(double ps)
{
    return static_cast<int64_t>(std::llround(ps));
}

} // namespace

FlowResultAssembler::FlowResultAssembler(const Scenario& scenario,
                                         FlowEngine& engine,
                                         const RingStreams* streams)
    : m_scenario(scenario),
      m_engine(engine),
      m_streams(streams)
{
}

json
FlowResultAssembler::Results(bool tables)
{
    json j;
    j["summary"] = Summary(tables);
    j["flows"] = tables ? FlowRecords() : json::array();
    j["series"] = Series();
    if (!m_scenario.jobs.empty())
    {
        j["jobs"] = Jobs(tables);
    }
    return j;
}

double
FlowResultAssembler::IdealPs(uint32_t flow)
{
    const FlowSpec& s = m_scenario.flows[flow];
    const FlowRoute* r = m_engine.RouteFor(flow);
    if (!r || s.sizeBytes == 0)
    {
        return 0;
    }
    const NicConfig& nc = m_scenario.nicCfg[s.src];
    return IdealFctPs(s.sizeBytes, std::max<uint32_t>(1, nc.mtuBytes), r->hops,
                      nc.headerBytes + nc.preambleIfgBytes);
}

json
FlowResultAssembler::Summary(bool tables)
{
    const auto& nodes = m_scenario.topo.nodes;
    const FlowRouting& routing = m_engine.Routing();
    double endPs = m_engine.EndPs();
    double warmupPs = static_cast<double>(m_scenario.warmupNs) * 1000.0;
    double windowS = std::max(0.0, endPs - warmupPs) / 1e12;
    json s;

    // Throughput: payload at the receivers inside [warm-up, end]
    std::vector<double> rx(nodes.size(), 0.0);
    double total = 0;
    for (uint32_t i = 0; i < m_engine.FlowCount(); ++i)
    {
        const FlowSpec& f = m_engine.Spec(i);
        if (f.local)
        {
            continue;
        }
        double bytes = m_engine.Delivered(i, endPs) - m_engine.DeliveredAtWarmup(i);
        if (bytes > 0)
        {
            rx[f.dst] += bytes;
            total += bytes;
        }
    }
    s["throughput_gbps"] = RoundDecimals(windowS > 0 ? total * 8.0 / windowS / 1e9 : 0.0, 4);
    if (!tables)
    {
        s["host_throughput_gbps"] = json::object();
        s["link_utilization"] = json::array();
    }
    else
    {
        json hosts = json::object();
        std::vector<std::pair<std::string, double>> byName;
        byName.reserve(nodes.size());
        for (uint32_t h = 0; h < nodes.size(); ++h)
        {
            if (rx[h] > 0)
            {
                byName.emplace_back(nodes[h].id, windowS > 0 ? rx[h] * 8.0 / windowS / 1e9 : 0.0);
            }
        }
        std::sort(byName.begin(), byName.end());
        // appended in name order straight to the object's list (names are distinct: operator[]
        // would search the list for each, quadratic in the hosts)
        auto& hostList = static_cast<json::object_t::Container&>(hosts.get_ref<json::object_t&>());
        hostList.reserve(byName.size());
        for (auto& [name, gbps] : byName)
        {
            hostList.emplace_back(std::move(name), RoundDecimals(gbps, 4));
        }
        s["host_throughput_gbps"] = std::move(hosts);

        // Link utilization: wire bits carried after the warm-up over the window's capacity
        std::vector<std::pair<std::string, double>> util;
        util.reserve(routing.LinkCount());
        for (uint32_t d = 0; d < routing.LinkCount(); ++d)
        {
            double bits = m_engine.Solver().CarriedBits(d, endPs);
            if (bits > 0 && windowS > 0)
            {
                double u = std::min(1.0, bits / (routing.Link(d).rateBps * windowS));
                util.emplace_back(routing.LinkName(d), u);
            }
        }
        std::sort(util.begin(), util.end());
        json uj = json::array();
        auto& linkList = uj.get_ref<json::array_t&>();
        linkList.reserve(util.size());
        for (auto& [name, u] : util)
        {
            // each entry's four fields appended to its list as they are (no initializer-list copy)
            json e = json::object();
            auto& fields = static_cast<json::object_t::Container&>(e.get_ref<json::object_t&>());
            fields.reserve(4);
            fields.emplace_back("link", std::move(name));
            fields.emplace_back("utilization", RoundDecimals(u, 4));
            fields.emplace_back("ecn_marked_packets", 0);
            fields.emplace_back("pauses_received", 0);
            linkList.push_back(std::move(e));
        }
        s["link_utilization"] = std::move(uj);
    }

    // FCT and slowdown of completed finite flows (network transfers of collectives included)
    std::vector<double> fct;
    std::vector<double> slow;
    uint64_t completed = 0;
    const Transfers& tr = m_scenario.transfers;
    for (uint32_t i = 0; i < m_scenario.flows.size(); ++i)
    {
        const FlowSpec& f = m_scenario.flows[i];
        const FlowOutcome& o = m_engine.Outcome(i);
        if (tr.Carries(i))
        {
            // a collective's connection: completed when its last transfer is (each transfer's
            // times are in "jobs", not in fct_us)
            bool done = true;
            for (uint32_t t = tr.flowBegin[i]; t < tr.flowBegin[i + 1] && done; ++t)
            {
                done = m_engine.Outcome(m_engine.TransferFlow(t)).completePs >= 0;
            }
            completed += done ? 1 : 0;
            continue;
        }
        if (f.sizeBytes == 0 || o.completePs < 0)
        {
            continue;
        }
        ++completed;
        if (f.probe || f.local)
        {
            continue;
        }
        double t = o.completePs - o.startPs;
        fct.push_back(t / 1e6);
        double ideal = IdealPs(i);
        if (ideal > 0)
        {
            slow.push_back(t / ideal);
        }
    }
    s["fct_us"] = DistributionJson(fct, false);
    s["slowdown"] = DistributionJson(slow, true);
    // not modelled (the result's caveats say so): no queue, mark, pause, drop or retransmission
    s["queues"] = json::array();
    s["max_queue_bytes"] = 0;
    s["max_queue_bytes_whole_run"] = 0;
    s["ecn_marked_packets"] = 0;
    s["cnps_sent"] = 0;
    s["pfc_pauses_sent"] = 0;
    s["pfc_pauses_received"] = 0;
    s["pfc"] = json::array();
    s["drops"] = {{"total", 0}, {"headroom_overflow", 0}, {"buffer_overflow", 0}, {"tail_drop", 0}};
    s["retransmitted_packets"] = 0;
    s["flows_total"] = m_scenario.flows.size() + (m_streams ? m_streams->Transfers() : 0);
    s["flows_completed"] = completed + (m_streams ? m_streams->TransfersCompleted() : 0);
    return s;
}

json
FlowResultAssembler::FlowRecords()
{
    const auto& nodes = m_scenario.topo.nodes;
    double endPs = m_engine.EndPs();
    double warmupPs = static_cast<double>(m_scenario.warmupNs) * 1000.0;
    auto name = [&](uint32_t n)
    {
        return n < nodes.size() ? nodes[n].id : std::to_string(n);
    };
    json arr = json::array();
    for (uint32_t i = 0; i < m_scenario.flows.size(); ++i)
    {
        if (IsJobFlow(m_scenario, i))
        {
            continue; // a collective's steps are in "jobs" (there may be millions)
        }
        const FlowSpec& s = m_scenario.flows[i];
        const FlowOutcome& o = m_engine.Outcome(i);
        bool started = o.startPs >= 0;
        json r = FlowRecordHead(m_scenario, i, started, o.startPs);
        bool done = s.sizeBytes > 0 && o.completePs >= 0;
        double fct = done ? o.completePs - o.startPs : 0;
        r["fct_us"] = done ? json(RoundDecimals(fct / 1e6, 3)) : json(nullptr);
        r["sender_fct_us"] =
            done
                ? json(RoundDecimals((fct + static_cast<double>(m_engine.AckReturnPs(i))) / 1e6, 3))
                : json(nullptr);
        double ideal = IdealPs(i);
        r["ideal_fct_us"] = ideal > 0 ? json(RoundDecimals(ideal / 1e6, 3)) : json(nullptr);
        r["slowdown"] = done && ideal > 0 ? json(RoundDecimals(fct / ideal, 4)) : json(nullptr);
        double delivered = std::floor(m_engine.Delivered(i, endPs));
        double sent = std::floor(std::max(delivered, m_engine.Sent(i, endPs)));
        r["bytes_delivered"] = static_cast<uint64_t>(delivered);
        double goodput = 0;
        if (started)
        {
            double until = done ? o.completePs : endPs;
            if (until > o.startPs)
            {
                goodput = delivered * 8.0 / ((until - o.startPs) / 1e12) / 1e9;
            }
        }
        r["goodput_gbps"] = RoundDecimals(goodput, 4);
        r["retransmits"] = 0;
        r["bytes_sent"] = static_cast<uint64_t>(sent);
        r["bytes_retransmitted"] = 0;
        r["bytes_received"] = static_cast<uint64_t>(delivered);
        r["bytes_dropped"] = 0;
        r["bytes_in_network"] = static_cast<uint64_t>(sent - delivered);
        double goodputWarm = 0;
        if (started)
        {
            double from = std::max(o.startPs, warmupPs);
            double until = done ? o.completePs : endPs;
            double inWindow = std::max(0.0, delivered - m_engine.DeliveredAtWarmup(i));
            if (until > from)
            {
                goodputWarm = inWindow * 8.0 / ((until - from) / 1e12) / 1e9;
            }
        }
        r["goodput_after_warmup_gbps"] = RoundDecimals(goodputWarm, 4);
        if (m_scenario.flowPaths)
        {
            const FlowRoute* route = m_engine.RouteFor(i);
            json path = json::array();
            if (route && started)
            {
                for (uint32_t n : route->nodes)
                {
                    path.push_back(name(n));
                }
            }
            r["path"] = path.empty() ? json(nullptr) : path;
        }
        arr.push_back(std::move(r));
    }
    return arr;
}

json
FlowResultAssembler::Series() const
{
    json s;
    s["interval_us"] = RoundDecimals(m_scenario.monitor.sampleIntervalUs, 3);
    s["t_us"] = json::array();
    s["queues"] = json::object();
    s["flow_rates_gbps"] = json::object();
    s["pause"] = json::object();
    const char* none = "not sampled: the flow engine keeps no queues, pauses or rate history";
    s["selection"] = {{"queues", none}, {"flows", none}, {"ports", none}};
    return s;
}

std::vector<json>
FlowResultAssembler::JobLinks()
{
    const FlowRouting& routing = m_engine.Routing();
    std::size_t jobs = m_scenario.jobs.size();
    std::size_t linkCount = routing.LinkCount();
    // per job and directed link: payload bytes and frames of the transfers' data on it, added
    // in transfer order; a table by (job, link) where it is small enough, else a map per job
    bool dense = jobs * linkCount <= kDenseJobLinks;
    std::vector<std::pair<double, double>> table(dense ? jobs * linkCount : 0);
    std::vector<uint8_t> inTable(dense ? jobs * linkCount : 0, 0);
    std::vector<std::vector<uint32_t>> tableLinks(dense ? jobs : 0); // links each job touched
    std::vector<std::map<uint32_t, std::pair<double, double>>> load(dense ? 0 : jobs);
    auto cell = [&](uint32_t job, uint32_t link) -> std::pair<double, double>&
    {
        if (!dense)
        {
            return load[job][link];
        }
        std::size_t i = job * linkCount + link;
        if (!inTable[i])
        {
            inTable[i] = 1;
            tableLinks[job].push_back(link);
        }
        return table[i];
    };
    const Transfers& tr = m_scenario.transfers;
    for (uint32_t t = 0; t < tr.Size(); ++t)
    {
        uint32_t i = m_engine.TransferFlow(t);
        if (m_engine.Spec(i).local || tr.job[t].job >= jobs)
        {
            continue;
        }
        const FlowRoute* r = m_engine.RouteOf(i);
        double bytes = m_engine.Sent(i, m_engine.EndPs());
        if (!r || bytes <= 0)
        {
            continue;
        }
        uint32_t mtu = std::max<uint32_t>(1, m_scenario.nicCfg[m_engine.Spec(i).src].mtuBytes);
        double frames = std::ceil(bytes / mtu);
        uint32_t job = tr.job[t].job;
        for (const LinkShare& ls : r->data)
        {
            auto& e = cell(job, ls.link);
            e.first += bytes * ls.share;
            e.second += frames * ls.share;
        }
    }
    std::vector<json> out(jobs, json::array());
    std::map<uint32_t, uint32_t> firstEnd; // link id -> its `a` node
    for (const LinkSpec& ls : m_scenario.topo.links)
    {
        firstEnd.emplace(ls.id, ls.a);
    }
    for (std::size_t j = 0; j < jobs; ++j)
    {
        // in link order, a -> b before b -> a (as the packet model lists them)
        std::vector<std::tuple<uint32_t, int, uint32_t>> order;
        auto add = [&](uint32_t d)
        {
            const DirectedLink& l = routing.Link(d);
            auto it = firstEnd.find(l.linkId);
            int dir = it != firstEnd.end() && it->second == l.from ? 0 : 1;
            order.emplace_back(l.linkId, dir, d);
        };
        if (dense)
        {
            for (uint32_t d : tableLinks[j])
            {
                add(d);
            }
        }
        else
        {
            for (const auto& [d, v] : load[j])
            {
                add(d);
            }
        }
        std::sort(order.begin(), order.end());
        auto& list = out[j].get_ref<json::array_t&>();
        list.reserve(order.size());
        for (const auto& [id, dir, d] : order)
        {
            const auto& v = cell(static_cast<uint32_t>(j), d);
            json e = json::object();
            auto& fields = static_cast<json::object_t::Container&>(e.get_ref<json::object_t&>());
            fields.reserve(3);
            fields.emplace_back("link", routing.LinkName(d));
            fields.emplace_back("bytes", static_cast<uint64_t>(std::llround(v.first)));
            fields.emplace_back("frames", static_cast<uint64_t>(std::llround(v.second)));
            list.push_back(std::move(e));
        }
    }
    return out;
}

json
FlowResultAssembler::Jobs(bool tables)
{
    std::vector<TransferTimes> times(m_scenario.transfers.Size());
    for (uint32_t i = 0; i < times.size(); ++i)
    {
        const FlowOutcome& o = m_engine.Outcome(m_engine.TransferFlow(i));
        times[i].started = o.startPs >= 0;
        times[i].startPs = o.startPs >= 0 ? Ps(o.startPs) : 0;
        times[i].completePs = o.completePs >= 0 ? Ps(o.completePs) : -1;
    }
    std::vector<json> links =
        tables ? JobLinks() : std::vector<json>(m_scenario.jobs.size(), json::array());
    json jobs =
        JobsJson(m_scenario, times, [&links](uint32_t job) { return std::move(links[job]); });
    for (uint32_t j = 0; m_streams && j < jobs.size(); ++j)
    {
        if (m_streams->Streams(j))
        {
            jobs[j] = m_streams->JobEntry(j, m_engine);
        }
    }
    return jobs;
}

} // namespace flow
} // namespace fabric
