#include "flow/ring-streams.h"

#include "common/rounding.h"
#include "flow/ring-makespan.h"
#include "scenario/generator-context.h"
#include "scenario/job-summary.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <tuple>

namespace fabric
{
namespace flow
{

namespace
{

using json = nlohmann::ordered_json;

constexpr double kPsPerNs = 1000.0;

/** Timer tokens: two per job. */
constexpr uint32_t kStart = 0;
constexpr uint32_t kEnd = 1;

} // namespace

RingStreams::RingStreams(const Scenario& scenario, std::vector<StreamedCollective> jobs)
    : m_scenario(scenario)
{
    for (StreamedCollective& sc : jobs)
    {
        Job j;
        const CollectiveRequest& req = sc.request;
        auto n = static_cast<uint32_t>(sc.ranks.size());
        j.steps = RingSteps(req);
        j.block = RingBlockBytes(req);
        j.iterations.assign(req.iterations, Iteration());
        for (uint32_t c = 0; c < req.channels; ++c)
        {
            std::vector<uint32_t> order = RingOrderOf(req, c);
            std::vector<Hop> hops(n);
            for (uint32_t p = 0; p < n; ++p)
            {
                uint32_t a = order[p];
                uint32_t b = order[(p + 1) % n];
                hops[p].src = sc.ranks[a];
                hops[p].dst = sc.ranks[b];
                hops[p].local = req.serverOf[a] == req.serverOf[b];
                // the plan's connection c x n + p, numbered as the packet model's flows are
                hops[p].udpSrcPort = static_cast<uint16_t>(
                    kFirstUdpPort +
                    (sc.flowBase + static_cast<uint64_t>(c) * n + p) % kUdpPortSpan);
            }
            j.channels.push_back(std::move(hops));
        }
        j.spec = std::move(sc);
        m_jobs.push_back(std::move(j));
    }
}

bool
RingStreams::Streams(uint32_t job) const
{
    return std::any_of(m_jobs.begin(), m_jobs.end(),
                       [job](const Job& j) { return j.spec.job == job; });
}

std::vector<uint32_t>
RingStreams::Generators() const
{
    std::vector<uint32_t> out;
    for (const Job& j : m_jobs)
    {
        out.push_back(m_scenario.jobs[j.spec.job].generator);
    }
    return out;
}

void
RingStreams::Begin(FlowEngine& engine)
{
    for (uint32_t k = 0; k < m_jobs.size(); ++k)
    {
        engine.TimerAt(static_cast<double>(m_jobs[k].spec.startNs) * kPsPerNs, 2 * k + kStart);
    }
}

void
RingStreams::OnTimer(FlowEngine& engine, uint32_t token)
{
    uint32_t k = token / 2;
    if (token % 2 == kStart)
    {
        StartIteration(engine, k);
        return;
    }
    Job& j = m_jobs[k];
    j.iterations[j.current].endPs = engine.NowPs();
    int64_t ack = 0;
    for (uint32_t f : j.flows)
    {
        ack = std::max(ack, engine.AckReturnPs(f));
    }
    if (++j.current < j.iterations.size())
    {
        // a rank's next iteration waits for what it sent to be acknowledged, then compute_us
        engine.TimerAt(engine.NowPs() + static_cast<double>(ack) +
                           static_cast<double>(j.spec.request.computeNs) * kPsPerNs,
                       2 * k + kStart);
    }
}

void
RingStreams::StartIteration(FlowEngine& engine, uint32_t k)
{
    Job& j = m_jobs[k];
    j.iterations[j.current].startPs = engine.NowPs();
    j.flows.clear();
    const JobSpec& job = m_scenario.jobs[j.spec.job];
    for (const std::vector<Hop>& channel : j.channels)
    {
        for (const Hop& h : channel)
        {
            if (h.local)
            {
                continue;
            }
            const NicConfig& nic = m_scenario.nicCfg[h.src];
            FlowSpec f;
            f.src = h.src;
            f.dst = h.dst;
            f.generator = job.generator;
            f.priority = j.spec.priority;
            f.sizeBytes = static_cast<uint64_t>(j.steps) * j.block;
            f.startNs = static_cast<uint64_t>(engine.NowPs() / kPsPerNs);
            f.messageBytes = nic.messageBytes;
            f.window = QpWindow(nic);
            f.udpSrcPort = h.udpSrcPort;
            uint32_t id = engine.AddFlow(f);
            engine.StartNow(id);
            std::size_t slot = id - engine.ExtraBase();
            if (m_flowJob.size() <= slot)
            {
                m_flowJob.resize(slot + 1, UINT32_MAX);
            }
            m_flowJob[slot] = k;
            j.flows.push_back(id);
            j.allFlows.push_back(id);
        }
    }
    j.pending = static_cast<uint32_t>(j.flows.size());
    if (j.pending == 0)
    {
        FinishIteration(engine, k); // every hop over NVLink
    }
}

void
RingStreams::OnDataDone(FlowEngine& engine, uint32_t flow)
{
    std::size_t slot = flow - engine.ExtraBase();
    if (slot >= m_flowJob.size() || m_flowJob[slot] == UINT32_MAX)
    {
        return;
    }
    Job& j = m_jobs[m_flowJob[slot]];
    if (--j.pending == 0)
    {
        FinishIteration(engine, m_flowJob[slot]);
    }
}

void
RingStreams::FinishIteration(FlowEngine& engine, uint32_t k)
{
    Job& j = m_jobs[k];
    double start = j.iterations[j.current].startPs;
    double nvlinkNs = std::max<double>(
        1.0, std::llround(static_cast<double>(j.block) * 8.0 / std::max(1e-9, j.spec.nvlinkGbps)));
    double makespan = 0;
    std::size_t next = 0; // j.flows are in channel, then position order
    for (const std::vector<Hop>& channel : j.channels)
    {
        std::vector<double> d(channel.size());
        std::vector<double> s(channel.size());
        for (std::size_t p = 0; p < channel.size(); ++p)
        {
            if (channel[p].local)
            {
                d[p] = nvlinkNs * kPsPerNs;
                s[p] = 0; // NVLink transfers do not queue behind one another
                continue;
            }
            uint32_t f = j.flows[next++];
            const FlowOutcome& o = engine.Outcome(f);
            // one block's share of the stream's time at its mean rate
            s[p] = (o.dataDonePs - o.startPs) / static_cast<double>(j.steps);
            d[p] = s[p] + engine.LatencyForPs(f, j.block);
        }
        makespan = std::max(makespan, RingMakespanPs(d, s, j.steps));
    }
    engine.TimerAt(std::max(engine.NowPs(), start + makespan), 2 * k + kEnd);
}

uint64_t
RingStreams::Transfers() const
{
    uint64_t n = 0;
    for (const Job& j : m_jobs)
    {
        // the flows the packet model has: one connection per (channel, ring position)
        n += static_cast<uint64_t>(j.spec.ranks.size()) * j.channels.size();
    }
    return n;
}

uint64_t
RingStreams::TransfersCompleted() const
{
    uint64_t n = 0;
    for (const Job& j : m_jobs)
    {
        bool done = !j.iterations.empty();
        for (const Iteration& it : j.iterations)
        {
            done = done && it.endPs >= 0;
        }
        n += done ? static_cast<uint64_t>(j.spec.ranks.size()) * j.channels.size() : 0;
    }
    return n;
}

json
RingStreams::JobEntry(uint32_t job, const FlowEngine& engine) const
{
    auto it = std::find_if(m_jobs.begin(), m_jobs.end(),
                           [job](const Job& j) { return j.spec.job == job; });
    const Job& j = *it;
    const JobSpec& spec = m_scenario.jobs[job];
    json r = JobHeaderJson(m_scenario, spec);
    json its = json::array();
    double sumUs = 0;
    uint32_t done = 0;
    double first = -1;
    double last = -1;
    for (uint32_t i = 0; i < j.iterations.size(); ++i)
    {
        const Iteration& x = j.iterations[i];
        json e;
        e["index"] = i;
        e["start_us"] =
            x.startPs >= 0 ? json(RoundDecimals(std::llround(x.startPs) / 1e6, 3)) : json(nullptr);
        if (x.endPs >= 0)
        {
            double t = (std::llround(x.endPs) - std::llround(x.startPs)) / 1e6;
            e["end_us"] = RoundDecimals(std::llround(x.endPs) / 1e6, 3);
            e["time_us"] = RoundDecimals(t, 3);
            e["algbw_gbps"] = RoundDecimals(JobGbps(spec.messageBytes, t), 4);
            e["busbw_gbps"] = RoundDecimals(JobGbps(spec.messageBytes, t) * spec.busFactor, 4);
            sumUs += t;
            ++done;
            last = std::max(last, x.endPs);
        }
        else
        {
            e["end_us"] = nullptr;
            e["time_us"] = nullptr;
            e["algbw_gbps"] = nullptr;
            e["busbw_gbps"] = nullptr;
        }
        if (x.startPs >= 0 && first < 0)
        {
            first = x.startPs;
        }
        its.push_back(e);
    }
    bool complete = done == j.iterations.size();
    r["completed"] = complete;
    r["jct_us"] = complete
                      ? json(RoundDecimals((std::llround(last) - std::llround(first)) / 1e6, 3))
                      : json(nullptr);
    double meanUs = done ? sumUs / done : 0;
    r["algbw_gbps"] =
        done ? json(RoundDecimals(JobGbps(spec.messageBytes, meanUs), 4)) : json(nullptr);
    r["busbw_gbps"] =
        done ? json(RoundDecimals(JobGbps(spec.messageBytes, meanUs) * spec.busFactor, 4))
             : json(nullptr);
    r["iterations"] = its;
    uint64_t perIteration =
        static_cast<uint64_t>(j.steps) * j.spec.ranks.size() * j.channels.size();
    r["flows"] = static_cast<uint64_t>(PlannedTransfers(j.spec.request));
    r["flows_completed"] = perIteration * done;
    uint64_t network = 0;
    uint64_t nvlink = 0;
    for (const std::vector<Hop>& channel : j.channels)
    {
        for (const Hop& h : channel)
        {
            (h.local ? nvlink : network) += static_cast<uint64_t>(j.steps) * j.block;
        }
    }
    r["network_bytes"] = network * j.iterations.size();
    r["nvlink_bytes"] = nvlink * j.iterations.size();
    // streams keep no step of their own: per-step times are not listed
    r["slowest_step"] = nullptr;
    r["steps_truncated"] = true;
    r["steps"] = json::array();
    // links: the streams' payload on each direction, in link order (a -> b first)
    const FlowRouting& routing = engine.Routing();
    std::map<uint32_t, std::pair<double, double>> load;
    for (uint32_t f : j.allFlows)
    {
        const FlowRoute* route = engine.RouteOf(f);
        double bytes = engine.Sent(f, engine.EndPs());
        if (!route || bytes <= 0)
        {
            continue;
        }
        double mtu = std::max<uint32_t>(1, m_scenario.nicCfg[engine.Spec(f).src].mtuBytes);
        double frames = std::ceil(bytes / mtu);
        for (const LinkShare& ls : route->data)
        {
            load[ls.link].first += bytes * ls.share;
            load[ls.link].second += frames * ls.share;
        }
    }
    std::map<uint32_t, uint32_t> firstEnd;
    for (const LinkSpec& ls : m_scenario.topo.links)
    {
        firstEnd.emplace(ls.id, ls.a);
    }
    std::vector<std::tuple<uint32_t, int, uint32_t>> order;
    for (const auto& [d, v] : load)
    {
        const DirectedLink& l = routing.Link(d);
        auto e = firstEnd.find(l.linkId);
        order.emplace_back(l.linkId, e != firstEnd.end() && e->second == l.from ? 0 : 1, d);
    }
    std::sort(order.begin(), order.end());
    json links = json::array();
    for (const auto& [id, dir, d] : order)
    {
        links.push_back({{"link", routing.LinkName(d)},
                         {"bytes", static_cast<uint64_t>(std::llround(load[d].first))},
                         {"frames", static_cast<uint64_t>(std::llround(load[d].second))}});
    }
    r["links"] = links;
    return r;
}

} // namespace flow
} // namespace fabric
