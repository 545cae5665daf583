#include "scenario-checks.h"

#include "headroom.h"
#include "json-reader.h"
#include "common/wire.h"
#include "scenario-error.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>

namespace fabric
{

namespace
{

std::string
Bytes(uint64_t v)
{
    return std::to_string(v) + " bytes";
}

std::string
Us(double ns)
{
    return FormatNumber(std::round(ns) / 1000.0) + " us";
}

/** Neighbors of every node as (neighbor, link index). */
std::vector<std::vector<std::pair<uint32_t, uint32_t>>>
LinkAdjacency(const Topology& topo)
{
    std::vector<std::vector<std::pair<uint32_t, uint32_t>>> adj(topo.nodes.size());
    for (uint32_t i = 0; i < topo.links.size(); ++i)
    {
        const LinkSpec& l = topo.links[i];
        if (l.a < adj.size() && l.b < adj.size() && l.a != l.b)
        {
            adj[l.a].push_back({l.b, i});
            adj[l.b].push_back({l.a, i});
        }
    }
    return adj;
}

/** Round-trip cost of one hop: propagation both ways, one data frame out, one ACK back. */
double
HopRttNs(const LinkSpec& l, uint32_t dataFrameBytes)
{
    double nsPerByte = 8.0 / l.rateGbps;
    return 2.0 * l.delayUs * 1000.0 + (dataFrameBytes + kAckWireBytes) * nsPerByte;
}

/**
 * From `from`, the worst round-trip cost over the fewest-hop paths to every node, crossing
 * switches only (hosts end paths). -1 for nodes not reached.
 */
std::vector<double>
WorstShortestRtt(const Topology& topo,
                 const std::vector<std::vector<std::pair<uint32_t, uint32_t>>>& adj,
                 uint32_t from,
                 const std::vector<double>& hopRtt)
{
    std::size_t n = topo.nodes.size();
    std::vector<double> worst(n, -1);
    std::vector<uint32_t> hops(n, UINT32_MAX);
    std::vector<uint32_t> layer{from};
    worst[from] = 0;
    hops[from] = 0;
    while (!layer.empty())
    {
        std::vector<uint32_t> next;
        for (uint32_t u : layer)
        {
            if (topo.nodes[u].isHost && u != from)
            {
                continue;
            }
            for (const auto& [v, link] : adj[u])
            {
                double cost = worst[u] + hopRtt[link];
                if (hops[v] == UINT32_MAX)
                {
                    hops[v] = hops[u] + 1;
                    worst[v] = cost;
                    next.push_back(v);
                }
                else if (hops[v] == hops[u] + 1)
                {
                    worst[v] = std::max(worst[v], cost);
                }
            }
        }
        layer.swap(next);
    }
    return worst;
}

} // namespace

void
CheckSwitchBuffers(const Scenario& s, const std::vector<std::string>& bufferPath)
{
    uint32_t mtu = std::max<uint32_t>(LargestHostMtu(s.topo, s.nicCfg), 1);
    std::vector<std::vector<uint32_t>> links = LinksByNode(s.topo);
    for (uint32_t i = 0; i < s.topo.nodes.size() && i < s.switchCfg.size(); ++i)
    {
        const SwitchConfig& cfg = s.switchCfg[i];
        if (s.topo.nodes[i].isHost || !cfg.pfc.enabled)
        {
            continue;
        }
        std::vector<uint64_t> headroom = SwitchPortHeadroom(s.topo, cfg, s.nicCfg, i, mtu, links[i]);
        if (headroom.empty())
        {
            continue;
        }
        uint64_t reserved = std::accumulate(headroom.begin(), headroom.end(), uint64_t{0});
        uint64_t lo = *std::min_element(headroom.begin(), headroom.end());
        uint64_t hi = *std::max_element(headroom.begin(), headroom.end());
        std::string each = lo == hi ? Bytes(lo) : std::to_string(lo) + ".." + Bytes(hi);
        std::string path = i < bufferPath.size() ? bufferPath[i] : "switch.buffer_bytes";
        std::string where = " on switch \"" + s.topo.nodes[i].id + "\" (" +
                            std::to_string(headroom.size()) + " ports x 1 lossless priority x " +
                            each + " headroom = " + Bytes(reserved) + ")";
        if (cfg.bufferBytes <= reserved)
        {
            throw ScenarioError(path, Bytes(cfg.bufferBytes) +
                                          " cannot hold the PFC headroom reserved" + where +
                                          ": no shared buffer would be left (buffer_bytes is the "
                                          "whole buffer, headroom included)");
        }
        uint64_t pool = cfg.bufferBytes - reserved;
        uint64_t cell = std::max<uint32_t>(cfg.cellBytes, 1);
        uint64_t frame = (mtu + kDataOverheadBytes + cell - 1) / cell * cell;
        if (cfg.pfc.alpha * static_cast<double>(pool) < static_cast<double>(frame))
        {
            uint64_t need = reserved + static_cast<uint64_t>(
                                           std::ceil(static_cast<double>(frame) / cfg.pfc.alpha));
            throw ScenarioError(
                path, Bytes(cfg.bufferBytes) + " leaves a shared pool of " + Bytes(pool) +
                          " after the PFC headroom" + where + "; its pause threshold (alpha " +
                          FormatNumber(cfg.pfc.alpha) + " x pool) is below one frame (" +
                          Bytes(frame) + "), so every frame would pause its sender: need at least " +
                          Bytes(need));
        }
    }
}

std::vector<double>
FlowBaseRttNs(const Scenario& s)
{
    const Topology& topo = s.topo;
    auto adj = LinkAdjacency(topo);
    std::vector<double> rtt(s.flows.size(), 0);
    // One search per (source attachment, frame size); flows grouped so only one is alive.
    std::map<std::pair<uint32_t, uint32_t>, std::vector<std::size_t>> groups;
    for (std::size_t f = 0; f < s.flows.size(); ++f)
    {
        const FlowSpec& flow = s.flows[f];
        if (flow.src >= adj.size() || adj[flow.src].empty() || flow.src >= s.nicCfg.size())
        {
            continue;
        }
        uint32_t frame = s.nicCfg[flow.src].mtuBytes + kDataOverheadBytes;
        groups[{adj[flow.src][0].first, frame}].push_back(f);
    }
    // Each link's HopRttNs, once per frame size (a k=32 fat tree searches from 512 leaves).
    std::map<uint32_t, std::vector<double>> hopRtt;
    for (const auto& [key, members] : groups)
    {
        std::vector<double>& cost = hopRtt[key.second];
        if (cost.empty())
        {
            cost.reserve(topo.links.size());
            for (const LinkSpec& l : topo.links)
            {
                cost.push_back(HopRttNs(l, key.second));
            }
        }
        std::vector<double> worst = WorstShortestRtt(topo, adj, key.first, cost);
        for (std::size_t f : members)
        {
            const FlowSpec& flow = s.flows[f];
            const LinkSpec& first = topo.links[adj[flow.src][0].second];
            if (flow.dst < worst.size() && worst[flow.dst] >= 0)
            {
                rtt[f] = HopRttNs(first, key.second) + worst[flow.dst];
            }
        }
    }
    return rtt;
}

std::vector<ScenarioWarning>
RtoWarnings(const Scenario& s)
{
    struct Group
    {
        double rtoNs = 0;
        std::size_t flows = 0;
        double worstRttNs = 0;
        std::size_t example = 0;
    };
    std::vector<double> rtt = FlowBaseRttNs(s);
    std::map<std::string, Group> byField;
    for (std::size_t f = 0; f < s.flows.size(); ++f)
    {
        const FlowSpec& flow = s.flows[f];
        double rtoNs = s.nicCfg[flow.src].rtoUs * 1000.0;
        if (rtt[f] <= 0 || rtoNs >= rtt[f])
        {
            continue;
        }
        std::string field = s.rtoOverridden.count(flow.src)
                                ? "nic_overrides." + s.topo.nodes[flow.src].id + ".rto_us"
                                : "nic.rto_us";
        Group& g = byField[field];
        if (g.flows == 0 || rtt[f] > g.worstRttNs)
        {
            g.worstRttNs = rtt[f];
            g.example = f;
        }
        g.rtoNs = rtoNs;
        ++g.flows;
    }
    std::vector<ScenarioWarning> out;
    for (const auto& [field, g] : byField)
    {
        const FlowSpec& e = s.flows[g.example];
        out.push_back({"rto_below_base_rtt", field,
                       field + " (" + Us(g.rtoNs) + ") is below the base RTT of " +
                           std::to_string(g.flows) + " flow" + (g.flows == 1 ? "" : "s") +
                           " (up to " + Us(g.worstRttNs) + ", flow " + std::to_string(e.id) +
                           " " + s.topo.nodes[e.src].id + " -> " + s.topo.nodes[e.dst].id +
                           "): the sender times out before any ACK can return and retransmits "
                           "packets that were not lost; set it well above the base RTT"});
    }
    return out;
}

std::vector<ScenarioWarning>
ScenarioWarnings(const Scenario& s)
{
    return RtoWarnings(s);
}

nlohmann::ordered_json
WarningsJson(const std::vector<ScenarioWarning>& warnings)
{
    nlohmann::ordered_json out = nlohmann::ordered_json::array();
    for (const auto& w : warnings)
    {
        out.push_back({{"code", w.code}, {"field", w.field}, {"message", w.message}});
    }
    return out;
}

} // namespace fabric
