#include "flow/flow-routing.h"

#include "common/ecmp-hash.h"

#include <algorithm>
#include <map>
#include <unordered_map>

namespace fabric
{
namespace flow
{

namespace
{

/** A walker whose frames carry many source ports (a sprayed QP): spread over every choice. */
constexpr uint32_t kAnyPort = UINT32_MAX;

/** Equal-cost next hops a switch keeps per destination (the packet model's limit). */
constexpr std::size_t kMaxNextHops = 255;

/** Most hops a path may take before it is taken for a loop (the packet model's NodePathOf). */
constexpr int kMaxHops = 64;

/** Adds share to link in a list kept sorted by link. */
void
AddShare(std::vector<LinkShare>& list, uint32_t link, double share)
{
    auto it = std::lower_bound(list.begin(), list.end(), link,
                               [](const LinkShare& s, uint32_t l) { return s.link < l; });
    if (it != list.end() && it->link == link)
    {
        it->share += share;
    }
    else
    {
        list.insert(it, LinkShare{link, share});
    }
}

} // namespace

FlowRouting::FlowRouting(const Scenario& scenario)
    : m_scenario(scenario)
{
    BuildPorts();
    m_down.assign(m_links.size(), 0);
    m_routedAround.assign(m_links.size(), 0);
    BuildPlanes();
    BuildRoutes();
}

void
FlowRouting::SetDown(uint32_t link, bool down)
{
    m_down[link] = down ? 1 : 0;
}

void
FlowRouting::SetRoutedAround(uint32_t link, bool routedAround)
{
    m_routedAround[link] = routedAround ? 1 : 0;
}

void
FlowRouting::BuildPorts()
{
    const auto& nodes = m_scenario.topo.nodes;
    std::size_t n = nodes.size();
    std::vector<uint32_t> count(n + 1, 0);
    auto usable = [n](const LinkSpec& l)
    {
        return l.a < n && l.b < n && l.a != l.b;
    };
    for (const LinkSpec& l : m_scenario.topo.links)
    {
        if (usable(l))
        {
            ++count[l.a];
            ++count[l.b];
        }
    }
    m_portBegin.assign(n + 1, 0);
    for (std::size_t i = 0; i < n; ++i)
    {
        m_portBegin[i + 1] = m_portBegin[i] + count[i];
    }
    m_links.resize(m_portBegin[n]);
    std::vector<uint32_t> fill(m_portBegin.begin(), m_portBegin.end() - 1);
    // Ports in link order at each node, as the packet model's devices add them (AddPort).
    for (const LinkSpec& l : m_scenario.topo.links)
    {
        if (!usable(l))
        {
            continue;
        }
        double rate = l.rateGbps > 0 ? l.rateGbps * 1e9 : 1e9;
        auto delay = static_cast<int64_t>(std::max(0.0, l.delayUs) * 1e6 + 0.5);
        m_links[fill[l.a]++] = DirectedLink{l.a, l.b, l.id, rate, delay};
        m_links[fill[l.b]++] = DirectedLink{l.b, l.a, l.id, rate, delay};
    }
}

void
FlowRouting::BuildPlanes()
{
    // A plane is a set of switches joined by switch-switch links (network-builder.cc's
    // AssignPlanes): one for every topology but multi_plane.
    std::size_t n = m_scenario.topo.nodes.size();
    m_switchPlane.assign(n, UINT32_MAX);
    uint32_t planes = 0;
    std::vector<uint32_t> stack;
    for (uint32_t s = 0; s < n; ++s)
    {
        if (!IsSwitch(s) || m_switchPlane[s] != UINT32_MAX)
        {
            continue;
        }
        m_switchPlane[s] = planes;
        stack.push_back(s);
        while (!stack.empty())
        {
            uint32_t u = stack.back();
            stack.pop_back();
            for (uint32_t d = m_portBegin[u]; d < m_portBegin[u + 1]; ++d)
            {
                uint32_t v = m_links[d].to;
                if (IsSwitch(v) && m_switchPlane[v] == UINT32_MAX)
                {
                    m_switchPlane[v] = planes;
                    stack.push_back(v);
                }
            }
        }
        ++planes;
    }
    m_attach.assign(std::max<uint32_t>(planes, 1), {});
}

void
FlowRouting::BuildRoutes()
{
    std::size_t n = m_scenario.topo.nodes.size();
    std::size_t planes = m_attach.size();
    m_attach.assign(planes, std::vector<uint32_t>(n, UINT32_MAX));
    m_attachNode.assign(planes, std::vector<uint32_t>(n, UINT32_MAX));
    std::vector<uint32_t> attachIndexOf(n, UINT32_MAX);
    std::vector<std::vector<uint32_t>> attachNodes(planes);
    for (uint32_t h = 0; h < n; ++h)
    {
        if (IsSwitch(h))
        {
            continue;
        }
        for (uint32_t d = m_portBegin[h]; d < m_portBegin[h + 1]; ++d)
        {
            uint32_t sw = m_links[d].to;
            if (!IsSwitch(sw))
            {
                continue; // a host wired straight to a host needs no switch route
            }
            if (PortCount(h) > 1 && m_routedAround[d])
            {
                continue; // a plane whose link to this host failed no longer reaches it
            }
            uint32_t plane = m_switchPlane[sw];
            if (m_attach[plane][h] != UINT32_MAX)
            {
                continue;
            }
            if (attachIndexOf[sw] == UINT32_MAX)
            {
                attachIndexOf[sw] = static_cast<uint32_t>(attachNodes[plane].size());
                attachNodes[plane].push_back(sw);
            }
            m_attach[plane][h] = attachIndexOf[sw];
            m_attachNode[plane][h] = sw;
        }
    }
    m_entries.assign(n, {});
    m_hopPorts.assign(n, {});
    for (uint32_t s = 0; s < n; ++s)
    {
        if (IsSwitch(s))
        {
            m_entries[s].assign(attachNodes[m_switchPlane[s]].size(), 0);
        }
    }
    // Breadth-first from every attachment switch over switch-switch links; a switch's next hops
    // toward it are its ports (in port order) to a neighbor one hop closer. Each switch stores
    // a distinct next-hop set once.
    std::vector<std::map<std::vector<uint16_t>, uint32_t>> stored(n);
    std::vector<int32_t> dist(n, -1);
    std::vector<uint32_t> bfs;
    std::vector<uint16_t> hops;
    for (std::size_t plane = 0; plane < planes; ++plane)
    {
        for (std::size_t a = 0; a < attachNodes[plane].size(); ++a)
        {
            for (uint32_t v : bfs)
            {
                dist[v] = -1;
            }
            bfs.clear();
            uint32_t root = attachNodes[plane][a];
            dist[root] = 0;
            bfs.push_back(root);
            for (std::size_t head = 0; head < bfs.size(); ++head)
            {
                uint32_t u = bfs[head];
                for (uint32_t d = m_portBegin[u]; d < m_portBegin[u + 1]; ++d)
                {
                    uint32_t v = m_links[d].to;
                    if (IsSwitch(v) && dist[v] < 0 && !m_routedAround[d])
                    {
                        dist[v] = dist[u] + 1;
                        bfs.push_back(v);
                    }
                }
            }
            for (uint32_t s : bfs)
            {
                if (s == root)
                {
                    continue;
                }
                hops.clear();
                for (uint32_t d = m_portBegin[s];
                     d < m_portBegin[s + 1] && hops.size() < kMaxNextHops; ++d)
                {
                    uint32_t v = m_links[d].to;
                    if (IsSwitch(v) && dist[v] == dist[s] - 1 && !m_routedAround[d])
                    {
                        hops.push_back(static_cast<uint16_t>(d - m_portBegin[s]));
                    }
                }
                auto [it, fresh] =
                    stored[s].emplace(hops, static_cast<uint32_t>(m_hopPorts[s].size()));
                if (fresh)
                {
                    m_hopPorts[s].insert(m_hopPorts[s].end(), hops.begin(), hops.end());
                }
                m_entries[s][a] = it->second << 8 | static_cast<uint32_t>(hops.size());
            }
        }
    }
}

std::string
FlowRouting::LinkName(uint32_t d) const
{
    const auto& nodes = m_scenario.topo.nodes;
    return nodes[m_links[d].from].id + "->" + nodes[m_links[d].to].id;
}

uint32_t
FlowRouting::LinkToward(uint32_t node, uint32_t neighbor) const
{
    for (uint32_t d = m_portBegin[node]; d < m_portBegin[node + 1]; ++d)
    {
        if (m_links[d].to == neighbor)
        {
            return d;
        }
    }
    return UINT32_MAX;
}

std::pair<const uint16_t*, uint32_t>
FlowRouting::NextHops(uint32_t s, uint32_t dst) const
{
    uint32_t plane = m_switchPlane[s];
    uint32_t a = m_attach[plane][dst];
    if (a == UINT32_MAX || a >= m_entries[s].size())
    {
        return {nullptr, 0};
    }
    uint32_t e = m_entries[s][a];
    uint32_t count = e & 0xff;
    return {count ? &m_hopPorts[s][e >> 8] : nullptr, count};
}

bool
FlowRouting::PlaneUsable(uint32_t host, uint32_t port, uint32_t dst) const
{
    if (m_down[m_portBegin[host] + port])
    {
        return false; // the NIC sees its own link fail at once
    }
    uint32_t sw = m_links[m_portBegin[host] + port].to;
    if (!IsSwitch(sw))
    {
        return true;
    }
    return m_attach[m_switchPlane[sw]][dst] != UINT32_MAX;
}

std::vector<std::pair<uint32_t, double>>
FlowRouting::HostPorts(const FlowSpec& f, PortSpread spread, uint32_t src, uint32_t dst) const
{
    uint32_t n = PortCount(src);
    if (n <= 1)
    {
        return {{0, 1.0}};
    }
    if (spread == PortSpread::ONE)
    {
        // RC/XRC: pinned to one plane by a hash of its 5-tuple, moved to the next usable one
        // (rdma-nic.cc, PathPort).
        uint32_t h = EcmpHash5Tuple(kPlaneHashSeed, f.src, f.dst, f.udpSrcPort) % n;
        for (uint32_t i = 0; i < n; ++i)
        {
            if (PlaneUsable(src, (h + i) % n, dst))
            {
                return {{(h + i) % n, 1.0}};
            }
        }
        return {{h, 1.0}};
    }
    // Sprayed and ERD QPs take whichever plane port is free: an even share of each usable one.
    std::vector<std::pair<uint32_t, double>> ports;
    for (uint32_t k = 0; k < n; ++k)
    {
        if (PlaneUsable(src, k, dst))
        {
            ports.emplace_back(k, 0.0);
        }
    }
    for (auto& p : ports)
    {
        p.second = 1.0 / static_cast<double>(ports.size());
    }
    return ports;
}

bool
FlowRouting::Walk(std::vector<Walker> from,
                  uint32_t src,
                  uint32_t dst,
                  std::vector<LinkShare>& out) const
{
    // Every equal-cost path has the same length, so walkers advance one hop at a time and
    // walkers meeting at one node with one source port merge.
    std::vector<Walker> cur;
    for (const Walker& w : from)
    {
        uint32_t d = m_portBegin[src] + w.node; // w.node: the host port
        AddShare(out, d, w.share);
        cur.push_back(Walker{m_links[d].to, w.port, w.share});
    }
    std::map<std::pair<uint32_t, uint32_t>, double> next;
    for (int hop = 0; hop < kMaxHops && !cur.empty(); ++hop)
    {
        next.clear();
        for (const Walker& w : cur)
        {
            if (w.node == dst)
            {
                continue;
            }
            if (!IsSwitch(w.node))
            {
                return false; // reached another host
            }
            const SwitchConfig& cfg = m_scenario.switchCfg[w.node];
            uint32_t plane = m_switchPlane[w.node];
            if (m_attachNode[plane][dst] == w.node)
            {
                uint32_t d = LinkToward(w.node, dst);
                if (d == UINT32_MAX)
                {
                    return false;
                }
                AddShare(out, d, w.share);
                next[{dst, w.port}] += w.share;
                continue;
            }
            auto [ports, count] = NextHops(w.node, dst);
            if (count == 0)
            {
                return false;
            }
            bool spread = w.port == kAnyPort || cfg.loadBalancing != LoadBalancing::ECMP;
            if (!spread || count == 1)
            {
                uint32_t pick = count == 1 ? 0
                                           : EcmpHash5Tuple(cfg.ecmpSeed, src, dst,
                                                            static_cast<uint16_t>(w.port)) %
                                                 count;
                uint32_t d = m_portBegin[w.node] + ports[pick];
                AddShare(out, d, w.share);
                next[{m_links[d].to, w.port}] += w.share;
                continue;
            }
            double each = w.share / static_cast<double>(count);
            for (uint32_t i = 0; i < count; ++i)
            {
                uint32_t d = m_portBegin[w.node] + ports[i];
                AddShare(out, d, each);
                next[{m_links[d].to, w.port}] += each;
            }
        }
        cur.clear();
        bool arrived = true;
        for (const auto& [key, share] : next)
        {
            cur.push_back(Walker{key.first, key.second, share});
            arrived = arrived && key.first == dst;
        }
        if (arrived)
        {
            return true;
        }
    }
    return cur.empty();
}

std::vector<uint32_t>
FlowRouting::NodePath(const FlowSpec& f, uint32_t firstPort, uint16_t udp) const
{
    std::vector<uint32_t> path{f.src};
    uint32_t node = m_links[m_portBegin[f.src] + firstPort].to;
    for (int hop = 0; hop < kMaxHops; ++hop)
    {
        path.push_back(node);
        if (node == f.dst)
        {
            return path;
        }
        if (!IsSwitch(node))
        {
            break;
        }
        uint32_t d = UINT32_MAX;
        if (m_attachNode[m_switchPlane[node]][f.dst] == node)
        {
            d = LinkToward(node, f.dst);
        }
        else
        {
            auto [ports, count] = NextHops(node, f.dst);
            if (count == 0)
            {
                break;
            }
            uint32_t pick = count == 1 ? 0
                                       : EcmpHash5Tuple(m_scenario.switchCfg[node].ecmpSeed, f.src,
                                                        f.dst, udp) %
                                             count;
            d = m_portBegin[node] + ports[pick];
        }
        if (d == UINT32_MAX)
        {
            break;
        }
        node = m_links[d].to;
    }
    return {};
}

FlowRoute
FlowRouting::Route(const FlowSpec& f) const
{
    FlowRoute r;
    std::size_t n = m_scenario.topo.nodes.size();
    if (f.src >= n || f.dst >= n || f.src == f.dst || IsSwitch(f.src) || IsSwitch(f.dst) ||
        PortCount(f.src) == 0 || f.local)
    {
        return r;
    }
    const NicConfig& nic = m_scenario.nicCfg[f.src];
    PortSpread spread = nic.transport == "sprayed" ? PortSpread::RANDOM
                        : nic.transport == "erd"   ? PortSpread::SET
                                                   : PortSpread::ONE;
    std::vector<std::pair<uint32_t, double>> hostPorts = HostPorts(f, spread, f.src, f.dst);
    std::vector<uint32_t> ports;
    if (spread == PortSpread::ONE)
    {
        ports.push_back(f.udpSrcPort);
    }
    else if (spread == PortSpread::SET)
    {
        for (uint32_t k = 0; k < std::max<uint32_t>(1, nic.erdPaths); ++k)
        {
            ports.push_back(ErdPathPort(f.udpSrcPort, k));
        }
    }
    else
    {
        ports.push_back(kAnyPort);
    }
    std::vector<Walker> start;
    for (const auto& [port, share] : hostPorts)
    {
        for (uint32_t p : ports)
        {
            start.push_back(Walker{port, p, share / static_cast<double>(ports.size())});
        }
    }
    if (!Walk(start, f.src, f.dst, r.data))
    {
        return FlowRoute{};
    }
    // ACKs: from the receiver, on the QP's own source port, by the planes the data came in on.
    std::vector<Walker> back;
    for (const auto& [port, share] : hostPorts)
    {
        uint32_t plane = m_switchPlane[m_links[m_portBegin[f.src] + port].to];
        uint32_t ackPort = 0;
        for (uint32_t k = 0; k < PortCount(f.dst); ++k)
        {
            uint32_t sw = m_links[m_portBegin[f.dst] + k].to;
            if (!IsSwitch(sw) || m_switchPlane[sw] == plane)
            {
                ackPort = k;
                break;
            }
        }
        back.push_back(Walker{ackPort, f.udpSrcPort, share});
    }
    if (PortCount(f.dst) == 0 || !Walk(back, f.dst, f.src, r.acks))
    {
        r.acks.clear();
    }
    // The path the ideal FCT and base RTT are computed on (the packet model's NodePathOf: the
    // QP's own port through its first plane), and the first frame's (PSN 0's source port,
    // what telemetry's `path` shows).
    uint32_t firstPlane = spread == PortSpread::ONE ? hostPorts[0].first : 0;
    std::vector<uint32_t> qpPath = NodePath(f, firstPlane, f.udpSrcPort);
    uint16_t firstUdp = spread == PortSpread::SET      ? ErdPathPort(f.udpSrcPort, 0)
                        : spread == PortSpread::RANDOM ? SprayedSourcePort(f.udpSrcPort, 0)
                                                       : f.udpSrcPort;
    r.nodes = firstUdp == f.udpSrcPort ? qpPath : NodePath(f, firstPlane, firstUdp);
    double planeFactor = spread != PortSpread::ONE && PortCount(f.src) > 1
                             ? static_cast<double>(PortCount(f.src))
                             : 1.0;
    for (std::size_t i = 0; i + 1 < qpPath.size(); ++i)
    {
        uint32_t d = LinkToward(qpPath[i], qpPath[i + 1]);
        r.hops.emplace_back(m_links[d].rateBps * planeFactor, m_links[d].delayPs);
    }
    r.valid = !r.data.empty() && !r.hops.empty();
    return r;
}

} // namespace flow
} // namespace fabric
