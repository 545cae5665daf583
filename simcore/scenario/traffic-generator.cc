#include "traffic-generator.h"

#include "collective-generator.h"
#include "training-generator.h"
#include "flow-list-generator.h"
#include "generator-context.h"
#include "flow-size-cdf.h"
#include "pingmesh-scope.h"
#include "json-reader.h"
#include "scenario-contract.h"
#include "topology-queries.h"
#include "traffic-patterns.h"

#include <ns3/random-variable-stream.h>
#include <ns3/rng-seed-manager.h>

#include <algorithm>
#include <cmath>
#include <set>
#include <type_traits>

namespace fabric
{

using nlohmann::json;
using nlohmann::ordered_json;

namespace
{

/** The RNG seed of the scenario layer; the scenario seed selects the ns-3 run (substream). */
constexpr uint32_t kTrafficRngSeed = 0x5eed;


uint32_t
RequiredHost(GeneratorContext& g, const std::string& key)
{
    const json* v = g.Reader().Raw(key);
    if (!v)
    {
        throw ScenarioError(g.Reader().FieldPath(key), "field required");
    }
    uint32_t host = ResolveHost(*v, g.Reader().FieldPath(key), g.Topo());
    g.Reader().Record(key, g.Topo().nodes[host].id);
    return host;
}

/** A [a, b] pair of strings inside a list of pairs. */
std::pair<std::string, std::string>
ReadIdPair(const json& v, const std::string& path)
{
    if (!v.is_array() || v.size() != 2)
    {
        throw ScenarioError(path, "must be a list of two ids [a, b]");
    }
    return {ReadString(v[0], IndexPath(path, 0), kMaxNodeIdChars),
            ReadString(v[1], IndexPath(path, 1), kMaxNodeIdChars)};
}

void
GenerateIncast(GeneratorContext& g)
{
    std::vector<uint32_t> senders = HostList(g, "senders", true, 1);
    uint32_t receiver = RequiredHost(g, "receiver");
    if (std::find(senders.begin(), senders.end(), receiver) != senders.end())
    {
        throw ScenarioError(g.Reader().FieldPath("receiver"), "must not be one of the senders (\"" +
                                                             g.Topo().nodes[receiver].id + "\")");
    }
    uint64_t size = g.SizeBytes("size_bytes");
    g.Reader().Finish();
    g.Expect(static_cast<double>(senders.size()));
    for (uint32_t s : senders)
    {
        g.Connect(s, receiver, size);
    }
}

std::vector<uint32_t>
HostsUnder(const Topology& topo, const std::vector<uint32_t>& attachment, uint32_t sw)
{
    std::vector<uint32_t> hosts;
    for (uint32_t h = 0; h < attachment.size(); ++h)
    {
        if (attachment[h] == sw)
        {
            hosts.push_back(h);
        }
    }
    return hosts;
}

void
GeneratePairs(GeneratorContext& g)
{
    ObjectReader& r = g.Reader();
    const json* pairs = r.Raw("pairs");
    const json* torPairs = r.Raw("tor_pairs");
    if ((pairs == nullptr) == (torPairs == nullptr))
    {
        throw ScenarioError(r.FieldPath("pairs"), "give exactly one of pairs and tor_pairs");
    }
    std::vector<std::pair<uint32_t, uint32_t>> conns;
    ordered_json given = ordered_json::array();
    if (pairs)
    {
        std::string path = r.FieldPath("pairs");
        RequireArray(*pairs, path, 1, kMaxFlows);
        for (std::size_t i = 0; i < pairs->size(); ++i)
        {
            std::string itemPath = IndexPath(path, i);
            ReadIdPair((*pairs)[i], itemPath);
            uint32_t src = ResolveHost((*pairs)[i][0], IndexPath(itemPath, 0), g.Topo());
            uint32_t dst = ResolveHost((*pairs)[i][1], IndexPath(itemPath, 1), g.Topo());
            if (src == dst)
            {
                throw ScenarioError(IndexPath(itemPath, 1), "must differ from the source");
            }
            conns.emplace_back(src, dst);
            given.push_back({g.Topo().nodes[src].id, g.Topo().nodes[dst].id});
        }
        r.Record("pairs", given);
    }
    else
    {
        std::string path = r.FieldPath("tor_pairs");
        RequireArray(*torPairs, path, 1, kMaxNodes);
        std::vector<uint32_t> attachment = HostAttachments(g.Topo());
        for (std::size_t i = 0; i < torPairs->size(); ++i)
        {
            std::string itemPath = IndexPath(path, i);
            auto ids = ReadIdPair((*torPairs)[i], itemPath);
            std::vector<uint32_t> under[2];
            for (int side = 0; side < 2; ++side)
            {
                const std::string& id = side == 0 ? ids.first : ids.second;
                std::string sidePath = IndexPath(itemPath, side);
                auto it = g.Topo().index.find(id);
                if (it == g.Topo().index.end())
                {
                    throw ScenarioError(sidePath, "unknown switch \"" + id + "\"");
                }
                if (g.Topo().nodes[it->second].isHost)
                {
                    throw ScenarioError(sidePath, "\"" + id + "\" is a host, not a switch");
                }
                under[side] = HostsUnder(g.Topo(), attachment, it->second);
                if (under[side].empty())
                {
                    throw ScenarioError(sidePath, "switch \"" + id + "\" has no hosts");
                }
            }
            if (ids.first == ids.second)
            {
                throw ScenarioError(IndexPath(itemPath, 1), "must differ from the first switch");
            }
            for (std::size_t k = 0; k < std::min(under[0].size(), under[1].size()); ++k)
            {
                conns.emplace_back(under[0][k], under[1][k]);
            }
            given.push_back({ids.first, ids.second});
        }
        r.Record("tor_pairs", given);
    }
    uint64_t size = g.SizeBytes("size_bytes");
    r.Finish();
    g.Expect(static_cast<double>(conns.size()));
    for (const auto& [src, dst] : conns)
    {
        g.Connect(src, dst, size);
    }
}

void
GeneratePermutation(GeneratorContext& g)
{
    std::vector<uint32_t> hosts = HostList(g, "hosts", false, 2);
    uint64_t size = g.SizeBytes("size_bytes");
    g.Reader().Finish();
    ns3::Ptr<ns3::UniformRandomVariable> rng = ns3::CreateObject<ns3::UniformRandomVariable>();
    rng->SetStream(g.Stream(0));
    std::size_t n = hosts.size();
    std::vector<std::size_t> perm(n);
    bool deranged = false;
    while (!deranged) // a uniform derangement by rejection: about e tries on average
    {
        for (std::size_t i = 0; i < n; ++i)
        {
            perm[i] = i;
        }
        for (std::size_t i = n - 1; i > 0; --i)
        {
            std::size_t j = rng->GetInteger(0, static_cast<uint32_t>(i));
            std::swap(perm[i], perm[j]);
        }
        deranged = true;
        for (std::size_t i = 0; i < n && deranged; ++i)
        {
            deranged = perm[i] != i;
        }
    }
    double pairs = 0;
    for (std::size_t i = 0; i < n; ++i)
    {
        pairs += g.ProcessPairs(hosts[i], hosts[perm[i]]);
    }
    g.Expect(pairs);
    for (std::size_t i = 0; i < n; ++i)
    {
        g.ConnectProcesses(hosts[i], hosts[perm[i]], size);
    }
}

/** Al-Fares stride: host i of the list sends to host (i + stride) mod N. */
void
GenerateStride(GeneratorContext& g)
{
    std::vector<uint32_t> hosts = HostList(g, "hosts", false, 2);
    std::size_t n = hosts.size();
    const json* strideValue = g.Reader().Raw("stride");
    if (!strideValue)
    {
        throw ScenarioError(g.Reader().FieldPath("stride"), "field required (1 .. number of hosts - 1)");
    }
    Range strideRange = Range::Of(schema::kStrideStride);
    strideRange.max = static_cast<double>(n - 1); // and below the number of hosts
    uint64_t stride =
        static_cast<uint64_t>(ReadInt(*strideValue, g.Reader().FieldPath("stride"), strideRange));
    g.Reader().Record("stride", stride);
    uint64_t size = g.SizeBytes("size_bytes");
    g.Reader().Finish();
    g.Expect(static_cast<double>(n));
    for (const auto& [src, dst] : StridePairs(hosts, stride))
    {
        g.Connect(src, dst, size);
    }
}

/** Al-Fares random permutation restricted to other pods: nobody sends inside its own pod. */
void
GenerateInterPodPermutation(GeneratorContext& g)
{
    std::vector<uint32_t> hosts = HostList(g, "hosts", false, 2);
    uint64_t size = g.SizeBytes("size_bytes");
    g.Reader().Finish();
    std::vector<std::string> pods = HostPods(g.Topo(), hosts);
    std::size_t largest = LargestPod(pods);
    if (2 * largest > hosts.size())
    {
        throw ScenarioError(g.Reader().FieldPath("hosts"),
                            "one pod holds " + std::to_string(largest) + " of the " +
                                std::to_string(hosts.size()) +
                                " hosts: no host may send inside its own pod, so every pod must "
                                "hold at most half of them");
    }
    g.Expect(static_cast<double>(hosts.size()));
    ns3::Ptr<ns3::UniformRandomVariable> rng = ns3::CreateObject<ns3::UniformRandomVariable>();
    rng->SetStream(g.Stream(0));
    std::vector<std::size_t> dst =
        InterPodPermutation(pods, [&rng](uint32_t hi) { return rng->GetInteger(0, hi); });
    for (std::size_t i = 0; i < hosts.size(); ++i)
    {
        g.Connect(hosts[i], hosts[dst[i]], size);
    }
}

void
GenerateAllToAll(GeneratorContext& g)
{
    std::vector<uint32_t> hosts = HostList(g, "hosts", false, 2);
    if (hosts.size() > kMaxAllToAllHosts)
    {
        throw ScenarioError(g.Reader().FieldPath("hosts"),
                            "must have at most 256 hosts for all_to_all (got " +
                                std::to_string(hosts.size()) + ")");
    }
    uint64_t size = g.SizeBytes("size_bytes");
    g.Reader().Finish();
    double processes = 0;
    double selfPairs = 0; // process pairs inside one host, not generated
    for (uint32_t h : hosts)
    {
        processes += g.Processes(h);
        selfPairs += g.ProcessPairs(h, h);
    }
    g.Expect(processes * processes - selfPairs);
    for (uint32_t src : hosts)
    {
        for (uint32_t dst : hosts)
        {
            if (src != dst)
            {
                g.ConnectProcesses(src, dst, size);
            }
        }
    }
}

void
GeneratePerftest(GeneratorContext& g)
{
    ObjectReader& r = g.Reader();
    uint32_t src = RequiredHost(g, "src");
    uint32_t dst = RequiredHost(g, "dst");
    if (src == dst)
    {
        throw ScenarioError(r.FieldPath("dst"), "must differ from src");
    }
    const NicConfig& nic = g.Nic(src);
    uint64_t message =
        static_cast<uint64_t>(r.Int("message_bytes", static_cast<int64_t>(nic.messageBytes),
                                    Range::Of(schema::kPerftestMessageBytes)));
    // An absent tx_depth follows the NIC's qp_depth, "bdp" included.
    uint32_t txDepth = r.Has("tx_depth") || !nic.qpDepthBdp
                           ? static_cast<uint32_t>(
                                 r.Int("tx_depth", nic.qpDepth, Range::Of(schema::kPerftestTxDepth)))
                           : kWindowBdp;
    uint64_t iterations = static_cast<uint64_t>(r.Int("iterations", 0, Range::Of(schema::kPerftestIterations)));
    r.Finish();
    double size = static_cast<double>(message) * static_cast<double>(iterations);
    if (size > kMaxSizeBytes)
    {
        throw ScenarioError(r.FieldPath("iterations"),
                            "message_bytes x iterations must be <= 2^53 bytes");
    }
    g.Expect(1);
    g.Connect(src, dst, message * iterations, g.StartNs(), message, txDepth);
}

FlowSizeCdf
ReadCustomCdf(const json& v, const std::string& path)
{
    RequireArray(v, path, 1, kMaxCdfPoints);
    std::vector<std::pair<double, double>> points;
    for (std::size_t i = 0; i < v.size(); ++i)
    {
        std::string itemPath = IndexPath(path, i);
        if (!v[i].is_array() || v[i].size() != 2)
        {
            throw ScenarioError(itemPath, "must be a pair [size_bytes, cumulative_percent]");
        }
        double size = static_cast<double>(
            ReadInt(v[i][0], IndexPath(itemPath, 0), Range::Closed(1, kMaxSizeBytes, "bytes")));
        double pct = ReadNumber(v[i][1], IndexPath(itemPath, 1), Range::Closed(0, 100, "%"));
        if (!points.empty() && size <= points.back().first)
        {
            throw ScenarioError(IndexPath(itemPath, 0), "sizes must be strictly increasing");
        }
        if (!points.empty() && pct < points.back().second)
        {
            throw ScenarioError(IndexPath(itemPath, 1), "percents must not decrease");
        }
        points.emplace_back(size, pct);
    }
    if (points.back().second != 100)
    {
        throw ScenarioError(IndexPath(IndexPath(path, v.size() - 1), 1),
                            "the last percent must be 100");
    }
    return FlowSizeCdf(points);
}

double
HostRateGbps(const Topology& topo, const std::vector<std::vector<uint32_t>>& hostLinks, uint32_t h)
{
    return hostLinks[h].empty() ? 0.0 : topo.links[hostLinks[h][0]].rateGbps;
}

void
GenerateWorkload(GeneratorContext& g)
{
    ObjectReader& r = g.Reader();
    std::string dist = r.Enum("distribution", "", schema::kWorkloadDistribution.options);
    const json* cdfValue = r.Raw("cdf");
    FlowSizeCdf cdf(std::vector<std::pair<double, double>>{{1.0, 100.0}});
    if (dist == "custom")
    {
        if (!cdfValue)
        {
            throw ScenarioError(r.FieldPath("cdf"), "field required with distribution \"custom\"");
        }
        cdf = ReadCustomCdf(*cdfValue, r.FieldPath("cdf"));
        ordered_json pts = ordered_json::array();
        for (const auto& p : cdf.Points())
        {
            pts.push_back({p.first, p.second});
        }
        r.Record("cdf", pts);
    }
    else
    {
        if (cdfValue)
        {
            throw ScenarioError(r.FieldPath("cdf"), "only allowed with distribution \"custom\"");
        }
        cdf = FlowSizeCdf::Named(dist);
    }
    if (!r.Has("load"))
    {
        throw ScenarioError(r.FieldPath("load"), "field required (0 < load <= 1)");
    }
    double load = r.Number("load", 0, Range::Of(schema::kWorkloadLoad));
    std::vector<uint32_t> hosts = HostList(g, "hosts", false, 2);
    const json* stopValue = r.Raw("stop_us");
    double stopUs = g.Ctx().durationUs;
    if (stopValue)
    {
        stopUs = ReadNumber(*stopValue, r.FieldPath("stop_us"),
                            Range::AboveTo(g.StartUs(), g.Ctx().durationUs, "us"));
    }
    r.Record("stop_us", stopUs);
    r.Finish();

    std::vector<std::vector<uint32_t>> hostLinks(g.Topo().nodes.size());
    for (const auto& l : g.Topo().links)
    {
        hostLinks[l.a].push_back(l.id);
        hostLinks[l.b].push_back(l.id);
    }
    double mean = cdf.Mean();
    double windowNs = (stopUs - g.StartUs()) * 1000.0;
    double expected = 0;
    for (uint32_t h : hosts)
    {
        expected += load * HostRateGbps(g.Topo(), hostLinks, h) * windowNs / (8.0 * mean);
    }
    g.Expect(expected);

    ns3::Ptr<ns3::UniformRandomVariable> pick = ns3::CreateObject<ns3::UniformRandomVariable>();
    ns3::Ptr<ns3::UniformRandomVariable> sizeRng = ns3::CreateObject<ns3::UniformRandomVariable>();
    ns3::Ptr<ns3::ExponentialRandomVariable> gap =
        ns3::CreateObject<ns3::ExponentialRandomVariable>();
    pick->SetStream(g.Stream(0));
    sizeRng->SetStream(g.Stream(1));
    gap->SetStream(g.Stream(2));
    double startNs = g.StartUs() * 1000.0;
    double stopNs = stopUs * 1000.0;
    for (std::size_t i = 0; i < hosts.size(); ++i)
    {
        uint32_t src = hosts[i];
        // Poisson arrivals: mean gap = mean size / (load x host rate); Gbit/s = bits per ns.
        double meanGapNs = 8.0 * mean / (load * HostRateGbps(g.Topo(), hostLinks, src));
        double t = startNs + gap->GetValue(meanGapNs, 0);
        while (t < stopNs)
        {
            uint32_t k = pick->GetInteger(0, static_cast<uint32_t>(hosts.size() - 2));
            uint32_t dst = hosts[k >= i ? k + 1 : k];
            uint64_t size = cdf.Sample(sizeRng->GetValue(0, 1));
            g.Connect(src, dst, size, static_cast<uint64_t>(std::llround(t)),
                      g.Nic(src).messageBytes, QpWindow(g.Nic(src)));
            t += gap->GetValue(meanGapNs, 0);
        }
    }
}

/** Whether host b is a pingmesh peer of host a at scope ("tor", "podset", "fabric", "all"). */
bool
InPingmeshScope(const Topology& topo, const std::vector<uint32_t>& attach, uint32_t a, uint32_t b,
                const std::string& scope)
{
    if (scope == "all")
    {
        return true;
    }
    std::string found = PingmeshScope(topo, attach, a, b);
    return found == scope;
}

void
GeneratePingmesh(GeneratorContext& g)
{
    ObjectReader& r = g.Reader();
    std::vector<uint32_t> hosts = HostList(g, "hosts", false, 2);
    double intervalUs = r.Number("interval_us", schema::kPingmeshIntervalUs.def, Range::Of(schema::kPingmeshIntervalUs));
    uint64_t probeBytes =
        static_cast<uint64_t>(r.Int("probe_bytes", 512, Range::Of(schema::kPingmeshProbeBytes)));
    std::string scope = r.Enum("scope", schema::kPingmeshScope.def, schema::kPingmeshScope.options);
    r.Finish();
    std::size_t n = hosts.size();
    // Each host's peers at the scope, in host-list order starting after itself: with "all" host
    // i probes peer (i + 1 + r mod (n - 1)) in round r, so every pair is probed once every n - 1
    // intervals; hosts are staggered over the interval.
    std::vector<uint32_t> attach = HostAttachments(g.Topo());
    std::vector<std::vector<uint32_t>> peers(n);
    double probesPerRound = 0;
    for (std::size_t i = 0; i < n; ++i)
    {
        for (std::size_t k = 1; k < n; ++k)
        {
            uint32_t peer = hosts[(i + k) % n];
            if (InPingmeshScope(g.Topo(), attach, hosts[i], peer, scope))
            {
                peers[i].push_back(peer);
            }
        }
        probesPerRound += peers[i].empty() ? 0 : 1;
    }
    double spanUs = g.Ctx().durationUs - g.StartUs();
    g.Expect(probesPerRound * std::ceil(spanUs / intervalUs));
    for (uint64_t round = 0;; ++round)
    {
        double roundStartUs = g.StartUs() + static_cast<double>(round) * intervalUs;
        if (roundStartUs >= g.Ctx().durationUs)
        {
            break;
        }
        for (std::size_t i = 0; i < n; ++i)
        {
            double tUs =
                roundStartUs + intervalUs * static_cast<double>(i) / static_cast<double>(n);
            if (tUs >= g.Ctx().durationUs || peers[i].empty())
            {
                continue;
            }
            uint32_t peer = peers[i][round % peers[i].size()];
            g.Connect(hosts[i], peer, probeBytes,
                      static_cast<uint64_t>(std::llround(tUs * 1000.0)), probeBytes, 1, true);
        }
    }
}

/** Seeds the ns-3 RNG for the traffic generators and restores the previous seed after. */
class RngScope
{
  public:
    explicit RngScope(uint32_t seed)
        : m_seed(ns3::RngSeedManager::GetSeed()),
          m_run(ns3::RngSeedManager::GetRun())
    {
        ns3::RngSeedManager::SetSeed(kTrafficRngSeed);
        ns3::RngSeedManager::SetRun(seed);
    }

    ~RngScope()
    {
        ns3::RngSeedManager::SetSeed(m_seed);
        ns3::RngSeedManager::SetRun(m_run);
    }

  private:
    uint32_t m_seed;
    uint64_t m_run;
};

} // namespace

std::vector<uint32_t>
HostList(GeneratorContext& g, const std::string& key, bool required, std::size_t minItems)
{
    const json* v = g.Reader().Raw(key);
    std::string path = g.Reader().FieldPath(key);
    std::vector<uint32_t> hosts;
    if (!v)
    {
        if (required)
        {
            throw ScenarioError(path, "field required");
        }
        hosts = HostIndices(g.Topo());
        if (hosts.size() < minItems)
        {
            throw ScenarioError(path, "needs at least " + std::to_string(minItems) +
                                          " hosts (the fabric has " + std::to_string(hosts.size()) +
                                          ")");
        }
        g.Reader().Record(key, "all");
        return hosts;
    }
    RequireArray(*v, path, minItems, kMaxNodes);
    std::set<uint32_t> seen;
    ordered_json ids = ordered_json::array();
    for (std::size_t i = 0; i < v->size(); ++i)
    {
        uint32_t h = ResolveHost((*v)[i], IndexPath(path, i), g.Topo());
        if (!seen.insert(h).second)
        {
            throw ScenarioError(IndexPath(path, i),
                                "duplicate host \"" + g.Topo().nodes[h].id + "\"");
        }
        hosts.push_back(h);
        ids.push_back(g.Topo().nodes[h].id);
    }
    g.Reader().Record(key, ids);
    return hosts;
}

namespace
{

/**
 * Carries the transfers' lists to their new numbering (newTransfer, by row), freeing each once
 * carried, so a plan of millions of transfers is held twice one list at a time.
 */
void
CarryTransfers(FlowRelations& rel,
               const std::vector<uint32_t>& newId,
               const std::vector<uint32_t>& newTransfer,
               Transfers& x)
{
    std::size_t n = newTransfer.size();
    auto carry = [&](auto& from, auto& to, auto value)
    {
        to.resize(n);
        for (std::size_t i = 0; i < n; ++i)
        {
            to[newTransfer[i]] = value(from[i]);
        }
        std::decay_t<decltype(from)>().swap(from);
    };
    carry(rel.transferFlow, x.flow, [&](uint32_t f) { return newId[f]; });
    carry(rel.transferBytes, x.bytes, [](uint64_t b) { return b; });
    carry(rel.transferJob, x.job, [](const JobFlow& j) { return j; });
    FlowDependencies& d = x.deps;
    carry(rel.transferGapNs, d.gapNs, [](uint64_t gap) { return gap; });
    std::vector<uint32_t> oldOf(n);
    for (std::size_t i = 0; i < n; ++i)
    {
        oldOf[newTransfer[i]] = static_cast<uint32_t>(i);
    }
    d.begin.reserve(n + 1);
    d.begin.push_back(0);
    d.on.reserve(rel.transferAfter.size());
    for (std::size_t k = 0; k < n; ++k)
    {
        uint32_t i = oldOf[k];
        for (uint32_t j = rel.transferAfterBegin[i]; j < rel.transferAfterBegin[i + 1]; ++j)
        {
            d.on.push_back(newTransfer[rel.transferAfter[j]]);
        }
        d.begin.push_back(static_cast<uint32_t>(d.on.size()));
    }
    std::vector<uint32_t>().swap(rel.transferAfter);
    std::vector<uint32_t>().swap(rel.transferAfterBegin);
}

/**
 * Sorts the flows by start time (stable: generation order among equals), numbers them, and
 * carries the relations over to the new ids.
 */
GeneratedTraffic
Finish(std::vector<FlowSpec> flows, FlowRelations& rel)
{
    GeneratedTraffic t;
    t.streamed = std::move(rel.streamed);
    if (rel.Empty())
    {
        std::stable_sort(flows.begin(), flows.end(), [](const FlowSpec& a, const FlowSpec& b) {
            return a.startNs < b.startNs;
        });
        for (std::size_t i = 0; i < flows.size(); ++i)
        {
            flows[i].id = static_cast<uint32_t>(i);
        }
        t.flows = std::move(flows);
        return t;
    }
    std::vector<uint32_t> order(flows.size());
    for (std::size_t i = 0; i < order.size(); ++i)
    {
        order[i] = static_cast<uint32_t>(i);
    }
    std::stable_sort(order.begin(), order.end(),
                     [&](uint32_t a, uint32_t b) { return flows[a].startNs < flows[b].startNs; });
    std::vector<uint32_t> newId(flows.size());
    for (std::size_t k = 0; k < order.size(); ++k)
    {
        newId[order[k]] = static_cast<uint32_t>(k);
    }
    t.flows.reserve(flows.size());
    for (std::size_t k = 0; k < order.size(); ++k)
    {
        t.flows.push_back(flows[order[k]]);
        t.flows.back().id = static_cast<uint32_t>(k);
    }
    if (!rel.after.empty())
    {
        FlowDependencies& d = t.deps;
        d.begin.assign(1, 0);
        d.gapNs.assign(flows.size(), 0);
        for (std::size_t k = 0; k < order.size(); ++k)
        {
            uint32_t old = order[k];
            if (old < rel.after.size())
            {
                for (uint32_t on : rel.after[old])
                {
                    d.on.push_back(newId[on]);
                }
                d.gapNs[k] = rel.gapNs[old];
            }
            d.begin.push_back(static_cast<uint32_t>(d.on.size()));
        }
    }
    if (!rel.transferFlow.empty())
    {
        // Number the transfers by connection (new flow id), in generation order on each.
        std::size_t n = rel.transferFlow.size();
        Transfers& x = t.transfers;
        x.flowBegin.assign(flows.size() + 1, 0);
        for (uint32_t f : rel.transferFlow)
        {
            ++x.flowBegin[newId[f] + 1];
        }
        for (std::size_t k = 0; k < flows.size(); ++k)
        {
            x.flowBegin[k + 1] += x.flowBegin[k];
        }
        std::vector<uint32_t> fill(x.flowBegin.begin(), x.flowBegin.end() - 1);
        std::vector<uint32_t> newTransfer(n);
        for (std::size_t i = 0; i < n; ++i)
        {
            newTransfer[i] = fill[newId[rel.transferFlow[i]]]++;
        }
        std::vector<uint32_t>().swap(fill);
        FlowDependencies& d = x.deps;
        bool numbered = true;
        for (std::size_t i = 0; i < n && numbered; ++i)
        {
            numbered = newTransfer[i] == i;
        }
        if (numbered)
        {
            // EmitPlan lists a plan's transfers in this numbering already (connection by
            // connection): with one plan, or plans whose flows kept their order, the lists move
            x.flow = std::move(rel.transferFlow);
            for (uint32_t& f : x.flow)
            {
                f = newId[f];
            }
            x.bytes = std::move(rel.transferBytes);
            x.job = std::move(rel.transferJob);
            d.gapNs = std::move(rel.transferGapNs);
            d.begin = std::move(rel.transferAfterBegin);
            d.on = std::move(rel.transferAfter);
        }
        else
        {
            CarryTransfers(rel, newId, newTransfer, x);
        }
        std::vector<uint32_t>().swap(rel.transferFlow);
        std::vector<uint32_t>().swap(rel.transferAfter);
        if (!rel.nvlinkGroups.empty())
        {
            // NVLink collectives kept as stand-ins: their stand-ins by new transfer number
            x.nvlinkTemplates = std::move(rel.nvlinkTemplates);
            x.nvlinkGroups = std::move(rel.nvlinkGroups);
            x.groupOf.assign(n, UINT32_MAX);
            for (uint32_t gi = 0; gi < x.nvlinkGroups.size(); ++gi)
            {
                for (uint32_t& p : x.nvlinkGroups[gi].proxy)
                {
                    p = newTransfer[p];
                    x.groupOf[p] = gi;
                }
            }
        }
    }
    if (!rel.rings.empty())
    {
        // Ring programs: their connections by new flow id, their transfers after the listed.
        Transfers& x = t.transfers;
        x.ringOf.assign(flows.size(), UINT32_MAX);
        x.ringConnection.assign(flows.size(), 0);
        uint64_t base = x.Size();
        for (RingProgram& rp : rel.rings)
        {
            rp.base = base;
            base += rp.Total();
            for (uint32_t q = 0; q < rp.flows.size(); ++q)
            {
                rp.flows[q] = newId[rp.flows[q]];
                x.ringOf[rp.flows[q]] = static_cast<uint32_t>(x.rings.size());
                x.ringConnection[rp.flows[q]] = q;
            }
            x.rings.push_back(std::move(rp));
        }
    }
    t.jobs = std::move(rel.jobs);
    if (!rel.jobFlows.empty())
    {
        t.jobFlows.assign(flows.size(), JobFlow());
        for (std::size_t k = 0; k < order.size(); ++k)
        {
            if (order[k] < rel.jobFlows.size())
            {
                t.jobFlows[k] = rel.jobFlows[order[k]];
            }
        }
    }
    return t;
}

} // namespace

GeneratedTraffic
GenerateTraffic(const json* traffic, const TrafficContext& ctx, ordered_json* out)
{
    std::vector<FlowSpec> flows;
    FlowRelations relations;
    ServerPool pool;
    ordered_json generatorsOut = ordered_json::array();
    if (traffic)
    {
        RequireArray(*traffic, "traffic", 0, kMaxGenerators);
        RngScope rngScope(ctx.seed);
        uint64_t expected = 0;
        for (std::size_t i = 0; i < traffic->size(); ++i)
        {
            std::string path = IndexPath("traffic", i);
            ordered_json itemOut;
            ObjectReader r((*traffic)[i], path, out ? &itemOut : nullptr);
            std::string kind = r.Enum("kind", "", kTrafficKinds);
            if (kind == "flows") // explicit list: none of the common fields below apply
            {
                GenerateFlowList(r, ctx, static_cast<uint32_t>(i), flows, expected, relations);
                generatorsOut.push_back(itemOut);
                continue;
            }
            GeneratorContext g(ctx, r, static_cast<uint32_t>(i), flows, expected, &relations);
            if (kind == "collective")
            {
                GenerateCollective(g, pool);
            }
            else if (kind == "training")
            {
                GenerateTraining(g, pool);
            }
            else if (kind == "incast")
            {
                GenerateIncast(g);
            }
            else if (kind == "pairs")
            {
                GeneratePairs(g);
            }
            else if (kind == "permutation")
            {
                GeneratePermutation(g);
            }
            else if (kind == "all_to_all")
            {
                GenerateAllToAll(g);
            }
            else if (kind == "perftest")
            {
                GeneratePerftest(g);
            }
            else if (kind == "workload")
            {
                GenerateWorkload(g);
            }
            else if (kind == "stride")
            {
                GenerateStride(g);
            }
            else if (kind == "inter_pod_permutation")
            {
                GenerateInterPodPermutation(g);
            }
            else
            {
                GeneratePingmesh(g);
            }
            generatorsOut.push_back(itemOut);
        }
    }
    if (out)
    {
        *out = generatorsOut;
    }
    return Finish(std::move(flows), relations);
}

} // namespace fabric
