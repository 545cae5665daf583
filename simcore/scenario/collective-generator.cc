#include "collective-generator.h"

#include "common/rounding.h"
#include "collective-plan.h"
#include "scenario-contract.h"
#include "traffic-patterns.h"

#include <ns3/random-variable-stream.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <unordered_map>

namespace fabric
{

using nlohmann::json;
using nlohmann::ordered_json;

namespace
{

/** NVLink per GPU and direction when the topology names none (H100: 450 GB/s each way). */
constexpr double kDefaultNvlinkGbps = 3600;

/** What makes a connection of EmitPlan: the plan's connection, its ranks, NVLink or not. */
struct ConnectionKey
{
    uint32_t connection = 0;
    uint32_t src = 0;
    uint32_t dst = 0;
    bool local = false;

    bool operator==(const ConnectionKey& o) const
    {
        return connection == o.connection && src == o.src && dst == o.dst && local == o.local;
    }
};

struct ConnectionKeyHash
{
    std::size_t operator()(const ConnectionKey& k) const
    {
        uint64_t a = (static_cast<uint64_t>(k.connection) << 32) | k.src;
        uint64_t b = (static_cast<uint64_t>(k.dst) << 1) | (k.local ? 1 : 0);
        uint64_t h = a * 0x9E3779B97F4A7C15ULL ^ (b + 0x632BE59BD9B4E019ULL + (a >> 29));
        return static_cast<std::size_t>(h ^ (h >> 32));
    }
};

/**
 * The connection (slot) of each key, numbered in order of first appearance. A plan's network
 * connections are numbered densely from 0 (a collective's per (channel, sender, receiver), a
 * training job's job-wide), each with one (sender, receiver): a table by connection number
 * finds them without hashing. Keys it cannot hold (markers' connections near UINT32_MAX, a
 * number seen with other ranks) go to a hash map.
 */
class ConnectionSlots
{
  public:
    /** A table for connection numbers below `transfers` (the plan's size bounds them). */
    explicit ConnectionSlots(std::size_t transfers)
        : m_tableLimit(transfers)
    {
    }

    /** The key's slot, and whether it is new (then `next` is its slot). */
    std::pair<uint32_t, bool> Find(const ConnectionKey& key,
                                   uint32_t next,
                                   const std::vector<ConnectionKey>& keys)
    {
        if (key.connection < m_tableLimit)
        {
            if (key.connection >= m_byConnection.size())
            {
                // grown as numbers appear: a table as large as the connections, not the plan
                std::size_t size = std::max<std::size_t>(key.connection + 1,
                                                         2 * m_byConnection.size());
                m_byConnection.resize(std::min(size, m_tableLimit), UINT32_MAX);
            }
            uint32_t& slot = m_byConnection[key.connection];
            if (slot == UINT32_MAX)
            {
                slot = next;
                return {next, true};
            }
            if (keys[slot] == key)
            {
                return {slot, false};
            }
        }
        auto [it, fresh] = m_other.emplace(key, next);
        return {it->second, fresh};
    }

  private:
    std::size_t m_tableLimit;
    std::vector<uint32_t> m_byConnection; ///< slot per plan connection number; UINT32_MAX: none
    std::unordered_map<ConnectionKey, uint32_t, ConnectionKeyHash> m_other;
};

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
    std::string placement =
        r.Enum("placement", schema::kCollectivePlacement.def, schema::kCollectivePlacement.options);
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
    req.computeNs = UsToNs(computeUs);
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
    uint64_t programAbove = g.Ctx().ringProgramsAbove;
    bool program = !stream && programAbove > 0 && Streamable(req) &&
                   PlannedTransfers(req) > static_cast<double>(programAbove);
    if (stream || program)
    {
        // a stream (a program's connection) per (channel, position); EmitPlan counts a plan's
        g.Expect(static_cast<double>(req.channels) * ranks.size());
    }
    if (program)
    {
        uint64_t listed = 0;
        for (const RingProgram& rp : rel.rings)
        {
            listed += rp.Total();
        }
        double total = PlannedTransfers(req) + static_cast<double>(listed) +
                       static_cast<double>(rel.transferFlow.size());
        if (total > static_cast<double>(kMaxRingProgramTransfers))
        {
            throw ScenarioError(r.GetPath(), "brings the number of collective transfers to " +
                                                 FormatNumber(total) + ", more than the limit of " +
                                                 std::to_string(kMaxRingProgramTransfers));
        }
    }
    else if (!stream && PlannedTransfers(req) > static_cast<double>(kMaxTransfers))
    {
        throw ScenarioError(r.GetPath(), "brings the number of collective transfers to " +
                                             FormatNumber(PlannedTransfers(req)) +
                                             ", more than the limit of " +
                                             std::to_string(kMaxTransfers));
    }
    TransferPlan plan;
    try
    {
        if (stream || program)
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
        // the flows its plan would have: one connection per (channel, ring position)
        rel.streamedTransfers += static_cast<uint64_t>(req.channels) * ranks.size();
        rel.streamed.push_back(std::move(sc));
        return;
    }

    JobRanks where;
    where.hosts = ranks;
    where.nvlinkGbps = nvlinkGbps;
    for (uint32_t sv : req.serverOf)
    {
        // two GPUs of one server (not a host that is a server of its own) talk over NVLink
        where.nvlinkServer.push_back(pool.hosts[sv].size() > 1 ? sv : UINT32_MAX);
    }
    if (program)
    {
        EmitRingProgram(g, jobIndex, where, req);
        return;
    }
    EmitPlan(g, jobIndex, where, plan);
}

void
EmitRingProgram(GeneratorContext& g, uint32_t job, const JobRanks& ranks, const CollectiveRequest& req)
{
    // The connections EmitPlan would open for the ring's plan, in the same order and with the
    // same UDP ports (plan connection c x n + p), and the ring's shape instead of its transfers.
    FlowRelations& rel = g.Relations();
    auto n = static_cast<uint32_t>(ranks.hosts.size());
    RingProgram rp;
    rp.job = job;
    rp.ranks = n;
    rp.channels = req.channels;
    rp.steps = RingSteps(req);
    rp.iterations = req.iterations;
    rp.blockBytes = RingBlockBytes(req);
    rp.gapNs = req.computeNs;
    rp.window = UniformConnectionWindow(rp.blockBytes);
    rp.nvlinkNs = ranks.nvlinkGbps > 0
                      ? std::max<uint64_t>(1, static_cast<uint64_t>(std::llround(
                                                  static_cast<double>(rp.blockBytes) * 8.0 /
                                                  ranks.nvlinkGbps)))
                      : 0;
    rp.posOf.assign(static_cast<std::size_t>(req.channels) * n, 0);
    auto base = static_cast<uint32_t>(g.Flows().size());
    for (uint32_t c = 0; c < req.channels; ++c)
    {
        std::vector<uint32_t> order = RingOrderOf(req, c);
        for (uint32_t p = 0; p < n; ++p)
        {
            uint32_t src = order[p];
            uint32_t dst = order[(p + 1) % n];
            uint32_t connection = c * n + p;
            auto port = static_cast<uint16_t>(kFirstUdpPort + (base + connection) % kUdpPortSpan);
            uint32_t flow = g.AddFlow(ranks.hosts[src], ranks.hosts[dst], 0, port);
            FlowSpec& spec = g.Flows()[flow];
            spec.local = ranks.nvlinkServer[src] != UINT32_MAX &&
                         ranks.nvlinkServer[src] == ranks.nvlinkServer[dst];
            spec.sizeBytes = rp.PerConnection() * rp.blockBytes;
            JobFlow jf;
            jf.job = job;
            rel.SetJob(flow, jf);
            rp.flows.push_back(flow);
            rp.rankAt.push_back(src);
            rp.posOf[static_cast<std::size_t>(c) * n + src] = p;
        }
    }
    rel.rings.push_back(std::move(rp));
}

uint64_t
NvlinkNs(uint64_t bytes, double nvlinkGbps)
{
    return std::max<uint64_t>(
        1, static_cast<uint64_t>(std::llround(static_cast<double>(bytes) * 8.0 / nvlinkGbps)));
}

std::vector<uint32_t>
EmitPlan(GeneratorContext& g, uint32_t job, const JobRanks& ranks, const TransferPlan& plan)
{
    FlowRelations& rel = g.Relations();
    if (static_cast<double>(rel.transferFlow.size()) + static_cast<double>(plan.size()) >
        static_cast<double>(kMaxTransfers))
    {
        throw ScenarioError(g.Reader().GetPath(),
                            "brings the number of collective transfers to " +
                                std::to_string(rel.transferFlow.size() + plan.size()) +
                                ", more than the limit of " + std::to_string(kMaxTransfers));
    }
    // One connection per (plan connection, sender, receiver, NVLink or not): the plan's
    // connection names the QP a pair of ranks uses on a channel; a marker (0 bytes, or a rank to
    // itself) and an NVLink transfer ride a connection of their own kind, never a QP.
    auto isLocal = [&](const Transfer& t) {
        return t.src == t.dst || t.bytes == 0 ||
               (ranks.nvlinkServer[t.src] != UINT32_MAX &&
                ranks.nvlinkServer[t.src] == ranks.nvlinkServer[t.dst]);
    };
    std::vector<uint32_t> connectionOf(plan.size());
    std::vector<ConnectionKey> keys;
    ConnectionSlots slots(plan.size());
    for (std::size_t i = 0; i < plan.size(); ++i)
    {
        const Transfer& t = plan[i];
        ConnectionKey key{t.connection, t.src, t.dst, isLocal(t)};
        auto [slot, fresh] = slots.Find(key, static_cast<uint32_t>(keys.size()), keys);
        if (fresh)
        {
            keys.push_back(key);
        }
        connectionOf[i] = slot;
    }
    g.Expect(static_cast<double>(keys.size()));
    uint32_t base = static_cast<uint32_t>(g.Flows().size());
    std::vector<uint32_t> flowOf(keys.size());
    for (std::size_t c = 0; c < keys.size(); ++c)
    {
        auto [connection, srcRank, dstRank, local] = keys[c];
        auto port = static_cast<uint16_t>(kFirstUdpPort + (base + connection) % kUdpPortSpan);
        flowOf[c] = g.AddFlow(ranks.hosts[srcRank], ranks.hosts[dstRank], 0, port);
        g.Flows()[flowOf[c]].local = local;
        JobFlow jf;
        jf.job = job;
        rel.SetJob(flowOf[c], jf);
    }
    uint32_t first = static_cast<uint32_t>(rel.transferFlow.size());
    if (rel.transferAfterBegin.empty())
    {
        rel.transferAfterBegin.push_back(0);
    }
    std::size_t n = plan.size();
    // The plan's transfers are listed connection by connection (its flows' order), each
    // connection's in plan order: the numbering Finish gives them (traffic-generator.cc), so a
    // job's lists need no reordering there. at[c]: the next row of connection c.
    std::vector<uint32_t> at(keys.size() + 1, 0);
    for (std::size_t i = 0; i < n; ++i)
    {
        for (uint32_t a : plan.After(i))
        {
            if (a >= i)
            {
                // transfers post in plan order on each connection: an input listed later could
                // deadlock it
                throw ScenarioError(g.Reader().GetPath(),
                                    "plan transfer " + std::to_string(i) + " waits for transfer " +
                                        std::to_string(a) + ", which is not before it");
            }
        }
        ++at[connectionOf[i] + 1];
    }
    at[0] = first;
    for (std::size_t c = 0; c < keys.size(); ++c)
    {
        at[c + 1] += at[c];
    }
    // sized once (millions of rows: growing by doubling would hold up to twice them)
    rel.transferFlow.resize(first + n);
    rel.transferBytes.resize(first + n);
    rel.transferJob.resize(first + n);
    rel.transferGapNs.resize(first + n);
    rel.transferAfterBegin.resize(first + n + 1);
    std::vector<uint32_t>& rowOf = connectionOf; // from here on: each transfer's row
    uint64_t localBytes = 0; // an NVLink transfer's bytes and duration, the last computed
    uint64_t localNs = 0;
    for (std::size_t i = 0; i < n; ++i)
    {
        const Transfer& t = plan[i];
        uint32_t flow = flowOf[connectionOf[i]];
        uint32_t row = at[connectionOf[i]]++;
        rowOf[i] = row;
        FlowSpec& spec = g.Flows()[flow];
        spec.sizeBytes += t.bytes;
        JobFlow jf;
        jf.job = job;
        jf.iteration = t.iteration;
        jf.step = t.step;
        jf.channel = t.channel;
        if (spec.local && t.src != t.dst && t.bytes > 0)
        {
            if (t.bytes != localBytes)
            {
                // a plan's NVLink steps mostly share one size: one division per size in a row
                localBytes = t.bytes;
                localNs = NvlinkNs(t.bytes, ranks.nvlinkGbps);
            }
            jf.localNs = localNs;
        }
        rel.transferFlow[row] = flow;
        rel.transferBytes[row] = t.bytes;
        rel.transferJob[row] = jf;
        rel.transferGapNs[row] = t.gapNs;
        rel.transferAfterBegin[row + 1] = static_cast<uint32_t>(plan.After(i).size());
    }
    for (std::size_t row = first; row < first + n; ++row)
    {
        rel.transferAfterBegin[row + 1] += rel.transferAfterBegin[row];
    }
    rel.transferAfter.resize(rel.transferAfterBegin[first + n]);
    for (std::size_t i = 0; i < n; ++i)
    {
        uint32_t w = rel.transferAfterBegin[rowOf[i]];
        for (uint32_t a : plan.After(i))
        {
            rel.transferAfter[w++] = rowOf[a];
        }
    }
    return std::move(rowOf);
}

} // namespace fabric
