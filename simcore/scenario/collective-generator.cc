#include "collective-generator.h"

#include "collective-plan.h"
#include "scenario-contract.h"
#include "traffic-patterns.h"

#include <ns3/random-variable-stream.h>

#include <algorithm>
#include <cmath>
#include <map>

namespace fabric
{

using nlohmann::json;
using nlohmann::ordered_json;

namespace
{

/** NVLink per GPU and direction when the topology names none (H100: 450 GB/s each way). */
constexpr double kDefaultNvlinkGbps = 3600;

} // namespace

void
BuildPool(const Topology& topo, ServerPool& pool)
{
    if (pool.built)
    {
        return;
    }
    pool.built = true;
    std::map<std::string, std::size_t> slot;
    for (uint32_t h = 0; h < topo.nodes.size(); ++h)
    {
        const NodeSpec& n = topo.nodes[h];
        if (!n.isHost)
        {
            continue;
        }
        // a host without a server is a server of its own (its id cannot clash: "srv" ids of
        // rail_optimized and explicit servers are kept apart by the prefix below)
        std::string key = n.server.empty() ? "host:" + n.id : "server:" + n.server;
        auto [it, fresh] = slot.emplace(key, pool.hosts.size());
        if (fresh)
        {
            pool.hosts.emplace_back();
        }
        pool.hosts[it->second].push_back(h);
    }
    // each server's pod is its first host's (one pass over the links for all of them)
    std::vector<uint32_t> first;
    for (const std::vector<uint32_t>& server : pool.hosts)
    {
        first.push_back(server.front());
    }
    pool.pod = HostPods(topo, first);
    pool.taken.assign(pool.hosts.size(), false);
}

/** The server index of every host (pool order). */
std::vector<uint32_t>
ServerIndex(const Topology& topo, const ServerPool& pool)
{
    std::vector<uint32_t> of(topo.nodes.size(), UINT32_MAX);
    for (uint32_t s = 0; s < pool.hosts.size(); ++s)
    {
        for (uint32_t h : pool.hosts[s])
        {
            of[h] = s;
        }
    }
    return of;
}

/** Picks `count` free servers by the placement rule and marks them taken; ascending order. */
std::vector<uint32_t>
Place(GeneratorContext& g, ServerPool& pool, uint64_t count, const std::string& placement)
{
    std::vector<uint32_t> free;
    for (uint32_t s = 0; s < pool.hosts.size(); ++s)
    {
        if (!pool.taken[s])
        {
            free.push_back(s);
        }
    }
    if (count > free.size())
    {
        throw ScenarioError(g.Reader().FieldPath("servers"),
                            "asks for " + std::to_string(count) + " servers; " +
                                std::to_string(free.size()) + " of the fabric's " +
                                std::to_string(pool.hosts.size()) +
                                " are free (jobs placed before this one took the rest)");
    }
    std::vector<uint32_t> chosen;
    if (placement == "packed")
    {
        chosen.assign(free.begin(), free.begin() + static_cast<std::ptrdiff_t>(count));
    }
    else if (placement == "spread")
    {
        // round robin over pods (leaves or scalable units) in the order they first appear
        std::vector<std::string> pods;
        std::map<std::string, std::vector<uint32_t>> byPod;
        for (uint32_t s : free)
        {
            if (byPod.find(pool.pod[s]) == byPod.end())
            {
                pods.push_back(pool.pod[s]);
            }
            byPod[pool.pod[s]].push_back(s);
        }
        for (std::size_t round = 0; chosen.size() < count; ++round)
        {
            for (const std::string& p : pods)
            {
                if (round < byPod[p].size() && chosen.size() < count)
                {
                    chosen.push_back(byPod[p][round]);
                }
            }
        }
    }
    else
    {
        ns3::Ptr<ns3::UniformRandomVariable> rng = ns3::CreateObject<ns3::UniformRandomVariable>();
        rng->SetStream(g.Stream(0));
        for (std::size_t i = free.size() - 1; i > 0; --i)
        {
            std::size_t j = rng->GetInteger(0, static_cast<uint32_t>(i));
            std::swap(free[i], free[j]);
        }
        chosen.assign(free.begin(), free.begin() + static_cast<std::ptrdiff_t>(count));
    }
    std::sort(chosen.begin(), chosen.end());
    for (uint32_t s : chosen)
    {
        pool.taken[s] = true;
    }
    return chosen;
}

std::vector<uint32_t>
ReadJobRanks(GeneratorContext& g, ServerPool& pool, const std::string& what, std::size_t minRanks)
{
    ObjectReader& r = g.Reader();
    BuildPool(g.Topo(), pool);
    std::vector<uint32_t> ranks;
    std::string placement = r.Enum("placement", "packed", {"packed", "spread", "random"});
    if (r.Has("servers"))
    {
        if (r.Has("hosts"))
        {
            throw ScenarioError(r.FieldPath("servers"), "give hosts or servers, not both");
        }
        uint64_t count = static_cast<uint64_t>(
            r.Int("servers", 1, Range::Of(schema::kCollectiveServers)));
        for (uint32_t s : Place(g, pool, count, placement))
        {
            ranks.insert(ranks.end(), pool.hosts[s].begin(), pool.hosts[s].end());
        }
        if (ranks.size() < minRanks)
        {
            throw ScenarioError(r.FieldPath("servers"), "gives the job " + std::to_string(ranks.size()) +
                                                            " rank; " + what + " needs at least " +
                                                            std::to_string(minRanks));
        }
    }
    else
    {
        ranks = HostList(g, "hosts", false, minRanks);
    }
    if (ranks.size() > kMaxCollectiveRanks)
    {
        throw ScenarioError(r.FieldPath(r.Has("servers") ? "servers" : "hosts"),
                            "gives " + std::to_string(ranks.size()) + " ranks, more than the limit of " +
                                std::to_string(kMaxCollectiveRanks));
    }
    return ranks;
}

double
ReadNvlinkGbps(GeneratorContext& g)
{
    const Topology& topo = g.Topo();
    auto stat = topo.stats.find("nvlink_gbps");
    return g.Reader().Number("nvlink_gbps",
                             stat != topo.stats.end() ? stat->second : kDefaultNvlinkGbps,
                             Range::Of(schema::kCollectiveNvlinkGbps));
}

std::string
ReadJobName(GeneratorContext& g)
{
    ObjectReader& r = g.Reader();
    const json* nameValue = r.Raw("name");
    std::string defaultJob = nameValue && nameValue->is_string() && !nameValue->get<std::string>().empty()
                                 ? nameValue->get<std::string>()
                                 : "job" + std::to_string(g.Index());
    std::string job = r.String("job", defaultJob, kMaxJobName);
    if (job.empty())
    {
        job = defaultJob;
    }
    for (const JobSpec& other : g.Relations().jobs)
    {
        if (other.name == job)
        {
            throw ScenarioError(r.FieldPath("job"), "\"" + job + "\" is already the job of traffic[" +
                                                        std::to_string(other.generator) +
                                                        "]: give each collective its own job");
        }
    }
    return job;
}

uint32_t
EmitTransfers(GeneratorContext& g, const JobTransfers& jt)
{
    FlowRelations& rel = g.Relations();
    uint32_t base = static_cast<uint32_t>(g.Flows().size());
    for (const Transfer& t : *jt.plan)
    {
        uint32_t src = (*jt.ranks)[t.src];
        uint32_t dst = (*jt.ranks)[t.dst];
        auto port = static_cast<uint16_t>(kFirstUdpPort + (base + t.connection) % kUdpPortSpan);
        uint32_t idx = g.AddFlow(src, dst, t.bytes, port);
        JobFlow jf;
        jf.job = jt.job;
        jf.iteration = t.iteration;
        jf.step = t.step;
        jf.channel = t.channel;
        // two GPUs of one server (not a host that is a server of its own): NVLink; a rank to
        // itself (a training job's compute marker): done as it starts
        uint32_t sv = (*jt.serverOf)[t.src];
        bool local = src == dst || (sv == (*jt.serverOf)[t.dst] && jt.pool->hosts[sv].size() > 1);
        if (local)
        {
            g.Flows()[idx].local = true;
            jf.localNs = src == dst ? 0
                                    : std::max<uint64_t>(1, static_cast<uint64_t>(std::llround(
                                                                static_cast<double>(t.bytes) * 8.0 /
                                                                jt.nvlinkGbps)));
        }
        rel.SetJob(idx, jf);
        if (!t.after.empty() || t.gapNs > 0)
        {
            std::vector<uint32_t> on;
            on.reserve(t.after.size());
            for (uint32_t a : t.after)
            {
                on.push_back(base + a);
            }
            rel.SetAfter(idx, std::move(on), t.gapNs);
        }
    }
    return base;
}

void
GenerateCollective(GeneratorContext& g, ServerPool& pool)
{
    ObjectReader& r = g.Reader();
    const Topology& topo = g.Topo();
    CollectiveRequest req;
    std::vector<std::string> ops;
    std::vector<std::string> algorithms; // every op's, in the declaration's order
    for (const CollectiveOp& c : kCollectiveOps)
    {
        ops.emplace_back(c.op);
        for (const std::string& a : c.algorithms)
        {
            if (std::find(algorithms.begin(), algorithms.end(), a) == algorithms.end())
            {
                algorithms.push_back(a);
            }
        }
    }
    req.op = r.Enum("op", "", ops);
    // Unset: the op's first algorithm (ring; direct for all_to_all), as the API reads it.
    req.algorithm = r.Enum("algorithm", AlgorithmsFor(req.op).front(), algorithms);
    if (g.Qps() != 1)
    {
        throw ScenarioError(r.FieldPath("qps"),
                            "must be 1 for a collective (channels sets its parallel QPs)");
    }
    std::vector<uint32_t> ranks = ReadJobRanks(g, pool, "a collective", 2);
    req.messageBytes = static_cast<uint64_t>(
        r.RequiredInt("message_bytes", Range::Of(schema::kCollectiveMessageBytes)));
    req.channels = static_cast<uint32_t>(
        r.Int("channels", 1, Range::Of(schema::kCollectiveChannels)));
    req.chunkBytes = static_cast<uint64_t>(
        r.Int("chunk_bytes", 0, Range::Of(schema::kCollectiveChunkBytes)));
    req.iterations = static_cast<uint32_t>(
        r.Int("iterations", 1, Range::Of(schema::kCollectiveIterations)));
    double computeUs = r.Number("compute_us", 0, Range::Of(schema::kCollectiveComputeUs));
    req.computeNs = static_cast<uint64_t>(std::llround(computeUs * 1000.0));
    double nvlinkGbps = ReadNvlinkGbps(g);
    std::string job = ReadJobName(g);
    FlowRelations& rel = g.Relations();
    r.Finish();

    std::vector<uint32_t> serverOf = ServerIndex(topo, pool);
    for (uint32_t h : ranks)
    {
        req.serverOf.push_back(serverOf[h]);
    }
    uint64_t streamAbove = g.Ctx().streamRingsAbove;
    bool stream = streamAbove > 0 && Streamable(req) && PlannedTransfers(req) > static_cast<double>(streamAbove);
    // a stream per connection (channel, position), not per transfer
    g.Expect(stream ? static_cast<double>(req.channels) * ranks.size() : PlannedTransfers(req));
    std::vector<Transfer> plan;
    try
    {
        if (stream)
        {
            CheckCollective(req); // a streamed ring is never expanded (it may be billions)
        }
        else
        {
            plan = PlanCollective(req);
        }
    }
    catch (const PlanError& e)
    {
        throw ScenarioError(r.FieldPath(e.Field()), e.what());
    }

    JobSpec spec;
    spec.name = job;
    spec.generator = g.Index();
    spec.op = req.op;
    spec.algorithm = req.algorithm;
    spec.ranks = ranks;
    std::vector<uint32_t> distinct = req.serverOf;
    std::sort(distinct.begin(), distinct.end());
    spec.servers = static_cast<uint32_t>(std::unique(distinct.begin(), distinct.end()) - distinct.begin());
    spec.messageBytes = req.messageBytes;
    spec.busFactor = BusFactor(req.op, static_cast<uint32_t>(ranks.size()));
    spec.iterations = req.iterations;
    spec.channels = req.channels;
    std::map<uint32_t, uint32_t> perServer;
    for (uint32_t sv : req.serverOf)
    {
        // a host that is a server of its own has no NVLink peer: it counts as one rank alone
        if (pool.hosts[sv].size() > 1)
        {
            spec.ranksPerServer = std::max(spec.ranksPerServer, ++perServer[sv]);
        }
    }
    spec.nvlinkGbps = spec.ranksPerServer > 1 ? nvlinkGbps : 0;
    uint32_t jobIndex = static_cast<uint32_t>(rel.jobs.size());
    rel.jobs.push_back(spec);
    if (stream)
    {
        // the flow engine runs its connections as streams (flow/ring-streams.h); the flows
        // after it are numbered as if its transfers had been listed
        StreamedCollective sc;
        sc.job = jobIndex;
        sc.request = req;
        sc.ranks = ranks;
        sc.flowBase = g.FlowNumber();
        sc.nvlinkGbps = nvlinkGbps;
        sc.priority = g.Priority();
        sc.startNs = g.StartNs();
        rel.streamedTransfers += static_cast<uint64_t>(PlannedTransfers(req));
        rel.streamed.push_back(std::move(sc));
        return;
    }

    JobTransfers jt;
    jt.job = jobIndex;
    jt.ranks = &ranks;
    jt.serverOf = &req.serverOf;
    jt.pool = &pool;
    jt.plan = &plan;
    jt.nvlinkGbps = nvlinkGbps;
    EmitTransfers(g, jt);
}

} // namespace fabric
