#include "helper/network-builder.h"
#include "helper/flow-dependencies.h"
#include "model/dci-accelerator.h"
#include "scenario/headroom.h"

#include "ns3/boolean.h"

#include <algorithm>
#include <unordered_map>

namespace fabric
{

NetworkBuilder::NetworkBuilder(const Scenario& scenario, FabricContext& ctx)
    : m_scenario(scenario),
      m_ctx(ctx)
{
}

void
NetworkBuilder::Build()
{
    BuildDevices();
    AssignPlanes();
    BuildRoutes();
    AttachAccelerators();
    BuildFlows();
}

FaultTargets
NetworkBuilder::Targets()
{
    FaultTargets targets;
    targets.ctx = &m_ctx;
    for (auto& d : m_devices)
    {
        targets.devices.push_back(ns3::PeekPointer(d));
    }
    targets.switches = m_switches;
    targets.nics = m_nics;
    targets.rebuildRoutes = [this] { BuildRoutes(); };
    return targets;
}

void
NetworkBuilder::Dispose()
{
    for (auto& d : m_devices)
    {
        if (d)
        {
            d->Dispose();
        }
    }
}

void
NetworkBuilder::BuildDevices()
{
    const auto& nodes = m_scenario.topo.nodes;
    size_t n = nodes.size();
    m_devices.assign(n, nullptr);
    m_switches.assign(n, nullptr);
    m_nics.assign(n, nullptr);
    std::vector<uint32_t> hostLinks(n, 0); // a host with a link per plane gets a MultiPlaneNic
    for (const LinkSpec& l : m_scenario.topo.links)
    {
        hostLinks[std::min<size_t>(l.a, n - 1)] += l.a < n ? 1 : 0;
        hostLinks[std::min<size_t>(l.b, n - 1)] += l.b < n ? 1 : 0;
    }
    for (size_t i = 0; i < n; ++i)
    {
        if (nodes[i].isHost)
        {
            ns3::Ptr<RdmaNic> nic = hostLinks[i] > 1 ? ns3::Ptr<RdmaNic>(ns3::CreateObject<MultiPlaneNic>())
                                                     : ns3::CreateObject<RdmaNic>();
            m_nics[i] = ns3::PeekPointer(nic);
            m_devices[i] = nic;
        }
        else
        {
            ns3::Ptr<FabricSwitch> sw = IsAcceleratorEdge(static_cast<uint32_t>(i))
                                            ? ns3::Ptr<FabricSwitch>(ns3::CreateObject<DciAccelerator>())
                                            : ns3::CreateObject<FabricSwitch>();
            m_switches[i] = ns3::PeekPointer(sw);
            m_devices[i] = sw;
        }
    }
    for (const LinkSpec& l : m_scenario.topo.links)
    {
        if (l.a >= n || l.b >= n || l.a == l.b)
        {
            continue;
        }
        double rate = l.rateGbps * 1e9;
        uint32_t pa = m_devices[l.a]->AddPort(l.b, l.id, rate, l.delayUs);
        uint32_t pb = m_devices[l.b]->AddPort(l.a, l.id, rate, l.delayUs);
        FabricDevice::Connect(ns3::PeekPointer(m_devices[l.a]), pa, ns3::PeekPointer(m_devices[l.b]),
                              pb);
    }
    uint32_t maxHostMtu = 0;
    for (size_t i = 0; i < n && i < m_scenario.nicCfg.size(); ++i)
    {
        if (m_nics[i])
        {
            maxHostMtu = std::max(maxHostMtu, m_scenario.nicCfg[i].mtuBytes);
        }
    }
    for (size_t i = 0; i < n; ++i)
    {
        if (m_nics[i])
        {
            NicConfig cfg = i < m_scenario.nicCfg.size() ? m_scenario.nicCfg[i] : NicConfig();
            m_nics[i]->Configure(&m_ctx, static_cast<uint32_t>(i), cfg);
        }
        else
        {
            SwitchConfig cfg = i < m_scenario.switchCfg.size() ? m_scenario.switchCfg[i] : SwitchConfig();
            FabricSwitch* sw = m_switches[i];
            sw->SetAttribute("EcnMarkOnDequeue", ns3::BooleanValue(cfg.ecnMarkOnDequeue));
            std::vector<uint64_t> headroom(sw->GetNPorts(), 0);
            for (uint32_t p = 0; p < sw->GetNPorts(); ++p)
            {
                const Port& port = sw->GetPort(p);
                if (cfg.pfc.headroomAuto)
                {
                    // The frame size that matters is the upstream neighbor's MTU when it is a
                    // host, else the largest MTU of the hosts in the fabric.
                    uint32_t mtu = maxHostMtu;
                    if (port.neighbor < m_nics.size() && m_nics[port.neighbor] &&
                        port.neighbor < m_scenario.nicCfg.size())
                    {
                        mtu = m_scenario.nicCfg[port.neighbor].mtuBytes;
                    }
                    headroom[p] = AutoHeadroomBytes(port.rateBps / 1e9, port.delayPs / 1e6,
                                                    std::max<uint32_t>(mtu, 1), cfg.cellBytes);
                }
                else
                {
                    headroom[p] = cfg.pfc.headroomBytes;
                }
            }
            sw->Configure(&m_ctx, static_cast<uint32_t>(i), cfg, headroom, static_cast<uint32_t>(i));
        }
    }
}

void
NetworkBuilder::AssignPlanes()
{
    // A plane is a set of switches joined by switch-switch links: one for every topology but
    // multi_plane, whose planes share no switch. Hosts join planes through their ports.
    size_t n = m_devices.size();
    m_switchPlane.assign(n, UINT32_MAX);
    uint32_t planes = 0;
    std::vector<uint32_t> stack;
    for (size_t s = 0; s < n; ++s)
    {
        if (!m_switches[s] || m_switchPlane[s] != UINT32_MAX)
        {
            continue;
        }
        m_switchPlane[s] = planes;
        stack.push_back(static_cast<uint32_t>(s));
        while (!stack.empty())
        {
            const FabricSwitch* su = m_switches[stack.back()];
            stack.pop_back();
            for (uint32_t p = 0; p < su->GetNPorts(); ++p)
            {
                uint32_t v = su->GetPort(p).neighbor;
                if (v < n && m_switches[v] && m_switchPlane[v] == UINT32_MAX)
                {
                    m_switchPlane[v] = planes;
                    stack.push_back(v);
                }
            }
        }
        ++planes;
    }
    m_planes.assign(std::max<uint32_t>(planes, 1), PlaneRoutes());
    for (size_t h = 0; h < n; ++h)
    {
        if (!m_nics[h] || m_nics[h]->GetNPorts() <= 1)
        {
            continue;
        }
        std::vector<const std::vector<uint32_t>*> portAttach;
        for (uint32_t k = 0; k < m_nics[h]->GetNPorts(); ++k)
        {
            uint32_t sw = m_nics[h]->GetPort(k).neighbor;
            portAttach.push_back(sw < n && m_switches[sw] ? &m_planes[m_switchPlane[sw]].attach
                                                          : nullptr);
        }
        m_nics[h]->SetPlaneRoutes(std::move(portAttach));
    }
}

void
NetworkBuilder::BuildRoutes()
{
    size_t n = m_devices.size();
    for (PlaneRoutes& pl : m_planes)
    {
        pl.attach.assign(n, UINT32_MAX);
        pl.attachNode.assign(n, UINT32_MAX);
        pl.port.assign(n, UINT32_MAX);
    }
    std::vector<uint32_t> attachIndexOf(n, UINT32_MAX);
    std::vector<std::vector<uint32_t>> attachNodes(m_planes.size()); ///< per plane
    for (size_t h = 0; h < n; ++h)
    {
        uint32_t nPorts = m_nics[h] ? m_nics[h]->GetNPorts() : 0;
        for (uint32_t k = 0; k < nPorts; ++k)
        {
            const Port& hostPort = m_nics[h]->GetPort(k);
            uint32_t sw = hostPort.neighbor;
            if (sw >= n || !m_switches[sw])
            {
                continue; // a host wired straight to a host needs no switch route
            }
            if (nPorts > 1 && hostPort.fault != nullptr && hostPort.fault->routedAround)
            {
                continue; // a plane whose link to this host failed no longer reaches it
            }
            PlaneRoutes& pl = m_planes[m_switchPlane[sw]];
            if (pl.attach[h] != UINT32_MAX)
            {
                continue;
            }
            std::vector<uint32_t>& nodes = attachNodes[m_switchPlane[sw]];
            if (attachIndexOf[sw] == UINT32_MAX)
            {
                attachIndexOf[sw] = static_cast<uint32_t>(nodes.size());
                nodes.push_back(sw);
            }
            pl.attach[h] = attachIndexOf[sw];
            pl.attachNode[h] = sw;
            pl.port[h] = m_switches[sw]->PortToward(static_cast<uint32_t>(h));
        }
    }
    for (PlaneRoutes& pl : m_planes)
    {
        pl.hostRoutes.resize(n);
        for (size_t h = 0; h < n; ++h)
        {
            pl.hostRoutes[h] = HostRoute{pl.attach[h], pl.attachNode[h], pl.port[h]};
        }
    }
    std::vector<RouteTable> tables(n);
    for (size_t s = 0; s < n; ++s)
    {
        if (m_switches[s])
        {
            size_t nAttach = attachNodes[m_switchPlane[s]].size();
            tables[s].offset.assign(nAttach, 0);
            tables[s].count.assign(nAttach, 0);
        }
    }
    // Switch-to-switch links that carry routes, as one adjacency array (port order kept): the
    // searches below walk it instead of every port's state (a k=32 fat tree: 512 searches).
    std::vector<uint32_t> adjStart(n + 1, 0);
    std::vector<std::pair<uint16_t, uint32_t>> adj; ///< (port, neighbor switch)
    for (size_t s = 0; s < n; ++s)
    {
        adjStart[s] = static_cast<uint32_t>(adj.size());
        const FabricSwitch* sw = m_switches[s];
        if (!sw)
        {
            continue;
        }
        for (uint32_t p = 0; p < sw->GetNPorts(); ++p)
        {
            const Port& port = sw->GetPort(p);
            if (port.fault != nullptr && port.fault->routedAround)
            {
                continue; // a failed link, once routing has converged (fault-schedule.cc)
            }
            if (port.neighbor < n && m_switches[port.neighbor])
            {
                adj.emplace_back(static_cast<uint16_t>(p), port.neighbor);
            }
        }
    }
    adjStart[n] = static_cast<uint32_t>(adj.size());
    // Each switch stores a distinct next-hop set once (a ToR sends every remote leaf to the
    // same uplinks), found by a hash of the set and checked against the stored ports.
    std::vector<std::unordered_multimap<uint64_t, uint32_t>> stored(n);
    std::vector<uint16_t> hops;
    std::vector<int32_t> dist(n);
    std::vector<uint32_t> bfs;
    bfs.reserve(n);
    for (size_t plane = 0; plane < attachNodes.size(); ++plane)
    {
        for (size_t a = 0; a < attachNodes[plane].size(); ++a)
        {
            std::fill(dist.begin(), dist.end(), -1);
            bfs.clear();
            uint32_t root = attachNodes[plane][a];
            dist[root] = 0;
            bfs.push_back(root);
            for (size_t head = 0; head < bfs.size(); ++head)
            {
                uint32_t u = bfs[head];
                for (uint32_t e = adjStart[u]; e < adjStart[u + 1]; ++e)
                {
                    uint32_t v = adj[e].second;
                    if (dist[v] < 0)
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
                uint64_t h = 1469598103934665603ULL; // FNV-1a over the ports
                for (uint32_t e = adjStart[s]; e < adjStart[s + 1] && hops.size() < 255; ++e)
                {
                    if (dist[adj[e].second] == dist[s] - 1)
                    {
                        hops.push_back(adj[e].first);
                        h = (h ^ adj[e].first) * 1099511628211ULL;
                    }
                }
                RouteTable& t = tables[s];
                t.count[a] = static_cast<uint8_t>(hops.size());
                bool found = hops.empty(); // no route: count 0, offset unused
                auto range = stored[s].equal_range(h);
                for (auto it = range.first; it != range.second && !found; ++it)
                {
                    if (it->second + hops.size() <= t.ports.size() &&
                        std::equal(hops.begin(), hops.end(), t.ports.begin() + it->second))
                    {
                        t.offset[a] = it->second;
                        found = true;
                    }
                }
                if (!found)
                {
                    t.offset[a] = static_cast<uint32_t>(t.ports.size());
                    stored[s].emplace(h, t.offset[a]);
                    t.ports.insert(t.ports.end(), hops.begin(), hops.end());
                }
            }
        }
    }
    for (size_t s = 0; s < n; ++s)
    {
        if (m_switches[s])
        {
            tables[s].ports.shrink_to_fit();
            PlaneRoutes& pl = m_planes[m_switchPlane[s]];
            m_switches[s]->SetRoutes(std::move(tables[s]), &pl.hostRoutes);
        }
    }
}

std::vector<uint32_t>
NetworkBuilder::NodePathOf(const FlowSpec& f) const
{
    std::vector<uint32_t> path;
    size_t n = m_devices.size();
    if (f.src >= n || f.dst >= n || !m_nics[f.src] || !m_nics[f.dst] || f.src == f.dst ||
        m_nics[f.src]->GetNPorts() == 0)
    {
        return path;
    }
    RocePacket probe;
    probe.src = f.src;
    probe.dst = f.dst;
    probe.udpSrc = f.udpSrcPort;
    path.push_back(f.src);
    uint32_t node = m_nics[f.src]->GetPort(m_nics[f.src]->PathPort(f)).neighbor;
    for (int hop = 0; hop < 64 && node < n; ++hop)
    {
        path.push_back(node);
        if (node == f.dst)
        {
            return path;
        }
        if (!m_switches[node])
        {
            break;
        }
        uint32_t port = m_switches[node]->SelectEgress(probe);
        if (port >= m_switches[node]->GetNPorts())
        {
            break;
        }
        node = m_switches[node]->GetPort(port).neighbor;
    }
    path.clear();
    return path;
}

std::vector<std::pair<double, int64_t>>
NetworkBuilder::PathOf(const FlowSpec& f) const
{
    std::vector<std::pair<double, int64_t>> hops;
    std::vector<uint32_t> nodes = NodePathOf(f);
    for (size_t i = 0; i + 1 < nodes.size(); ++i)
    {
        const FabricDevice* d = ns3::PeekPointer(m_devices[nodes[i]]);
        uint32_t p = d->PortToward(nodes[i + 1]);
        if (p == UINT32_MAX)
        {
            return {};
        }
        hops.emplace_back(d->GetPort(p).rateBps, d->GetPort(p).delayPs);
    }
    return hops;
}

void
NetworkBuilder::BuildFlows()
{
    const auto& specs = m_scenario.flows;
    m_ctx.flows.assign(specs.size(), FlowState());
    m_ctx.flowPaths.assign(m_scenario.flowPaths ? specs.size() : 0, {});
    for (FabricSwitch* sw : m_switches)
    {
        if (sw)
        {
            sw->SetRecordPaths(m_scenario.flowPaths);
        }
    }
    const Transfers& tr = m_scenario.transfers;
    m_ctx.transferEndPkt.assign(tr.Size(), 0);
    m_ctx.transferLastPayload.assign(tr.Size(), 0);
    for (size_t i = 0; i < specs.size(); ++i)
    {
        const FlowSpec& s = specs[i];
        FlowState& f = m_ctx.flows[i];
        f.spec = &s;
        if (s.src >= m_nics.size() || !m_nics[s.src])
        {
            continue;
        }
        const NicConfig& nc = m_nics[s.src]->Config();
        f.mtu = std::max<uint32_t>(1, nc.mtuBytes);
        if (s.sizeBytes == 0)
        {
            f.totalPkts = kUnboundedPackets;
            f.lastPayload = f.mtu;
        }
        else
        {
            f.totalPkts = (s.sizeBytes + f.mtu - 1) / f.mtu;
            f.lastPayload = static_cast<uint32_t>(s.sizeBytes - (f.totalPkts - 1) * f.mtu);
        }
        auto hops = PathOf(s);
        uint32_t overhead = nc.headerBytes + nc.preambleIfgBytes;
        // A QP sprayed over the planes of a multi-plane NIC has them all: the ideal FCT and the
        // BDP count their summed rate at every hop (the path followed is plane 0's).
        auto planeHops = hops;
        if (m_nics[s.src]->SpraysPlanes())
        {
            for (auto& hop : planeHops)
            {
                hop.first *= m_nics[s.src]->GetNPorts();
            }
        }
        f.qpDepth = s.window != kWindowBdp
                        ? s.window
                        : BdpQpDepth(planeHops, f.mtu, s.messageBytes, overhead, overhead + kAethBytes);
        uint64_t windowBytes = std::max<uint64_t>(1, uint64_t(std::max<uint32_t>(1, f.qpDepth)) *
                                                         std::max<uint64_t>(1, s.messageBytes));
        f.windowPkts = std::max<uint64_t>(1, (windowBytes + f.mtu - 1) / f.mtu);
        // an NVLink step crosses no port: the dependency tracker carries it
        f.valid = !hops.empty() && !s.local;
        f.baseRttPs = static_cast<int64_t>(BaseRttPs(hops, f.mtu + overhead, overhead + kAethBytes));
        if (f.valid && s.sizeBytes > 0)
        {
            f.idealPs = IdealFctPs(s.sizeBytes, f.mtu, planeHops, nc.headerBytes + nc.preambleIfgBytes);
        }
        f.rxMarkPkt = f.totalPkts;
        f.rxEndPkt = f.totalPkts;
        f.partialFrom = f.totalPkts;
        if (tr.Lists(static_cast<uint32_t>(i)) && !s.local)
        {
            // A connection: its messages' packets follow one another on the QP, each message
            // ending in its own (possibly short) packet; nothing is posted yet.
            uint32_t first = tr.flowBegin[i];
            uint32_t count = tr.flowBegin[i + 1] - first;
            uint64_t end = 0;
            for (uint32_t k = first; k < first + count; ++k)
            {
                uint64_t pkts = std::max<uint64_t>(1, (tr.bytes[k] + f.mtu - 1) / f.mtu);
                end += pkts;
                m_ctx.transferEndPkt[k] = end;
                m_ctx.transferLastPayload[k] =
                    static_cast<uint32_t>(tr.bytes[k] - (pkts - 1) * f.mtu);
            }
            f.msgEndPkt = m_ctx.transferEndPkt.data() + first;
            f.msgLastPayload = m_ctx.transferLastPayload.data() + first;
            f.msgFirst = first;
            f.msgCount = count;
            f.totalPkts = 0;
            f.rxMarkPkt = f.msgEndPkt[0];
            f.rxEndPkt = end;
            f.partialFrom = 0;
        }
        else if (tr.InRing(static_cast<uint32_t>(i)) && !s.local && s.sizeBytes > 0)
        {
            // A ring program's connection: the same messages as every connection of its ring
            // (at this MTU), numbered from its first transfer.
            uint32_t ring = tr.ringOf[i];
            const RingProgram& rp = tr.rings[ring];
            auto& [endPkt, lastPayload] = m_ctx.ringMessages[{ring, f.mtu}];
            if (endPkt.empty())
            {
                uint64_t pkts = std::max<uint64_t>(1, (rp.blockBytes + f.mtu - 1) / f.mtu);
                auto last = static_cast<uint32_t>(rp.blockBytes - (pkts - 1) * f.mtu);
                endPkt.resize(rp.PerConnection());
                lastPayload.assign(rp.PerConnection(), last);
                for (uint64_t m = 0; m < endPkt.size(); ++m)
                {
                    endPkt[m] = (m + 1) * pkts;
                }
            }
            f.msgEndPkt = endPkt.data();
            f.msgLastPayload = lastPayload.data();
            f.msgFirst = static_cast<uint32_t>(rp.base + tr.ringConnection[i] * rp.PerConnection());
            f.msgCount = static_cast<uint32_t>(rp.PerConnection());
            f.totalPkts = 0;
            f.rxMarkPkt = f.msgEndPkt[0];
            f.rxEndPkt = endPkt.back();
            f.partialFrom = 0;
        }
    }
    m_startOrder.clear();
    m_startOrder.reserve(specs.size());
    bool held = FlowDependencyTracker::Needed(m_scenario);
    for (size_t i = 0; i < specs.size(); ++i)
    {
        if (!held || !FlowDependencyTracker::Held(m_scenario, static_cast<uint32_t>(i)))
        {
            m_startOrder.push_back(static_cast<uint32_t>(i));
        }
    }
    std::stable_sort(m_startOrder.begin(), m_startOrder.end(), [&](uint32_t a, uint32_t b) {
        if (specs[a].startNs != specs[b].startNs)
        {
            return specs[a].startNs < specs[b].startNs;
        }
        return specs[a].id < specs[b].id;
    });
}

bool
NetworkBuilder::IsAcceleratorEdge(uint32_t node) const
{
    const DciAcceleratorConfig& a = m_scenario.dciAccelerator;
    return a.enabled && (node == a.edges[0] || node == a.edges[1]);
}

void
NetworkBuilder::AttachAccelerators()
{
    const DciAcceleratorConfig& a = m_scenario.dciAccelerator;
    if (!a.enabled)
    {
        return;
    }
    int64_t rtoPs = static_cast<int64_t>(a.retransmitTimeoutUs * 1e6);
    for (int side = 0; side < 2; ++side)
    {
        auto* edge = dynamic_cast<DciAccelerator*>(m_switches.at(a.edges[side]));
        uint32_t longPort = edge ? edge->PortToward(a.edges[1 - side]) : UINT32_MAX;
        if (edge && longPort != UINT32_MAX)
        {
            edge->Attach(longPort, a.bufferBytes, rtoPs);
        }
    }
}

FabricDevice*
NetworkBuilder::Device(uint32_t node) const
{
    return node < m_devices.size() ? ns3::PeekPointer(m_devices[node]) : nullptr;
}

FabricSwitch*
NetworkBuilder::Switch(uint32_t node) const
{
    return node < m_switches.size() ? m_switches[node] : nullptr;
}

RdmaNic*
NetworkBuilder::Nic(uint32_t node) const
{
    return node < m_nics.size() ? m_nics[node] : nullptr;
}

std::string
NetworkBuilder::PortName(uint32_t node, uint32_t neighbor) const
{
    const auto& nodes = m_scenario.topo.nodes;
    std::string a = node < nodes.size() ? nodes[node].id : std::to_string(node);
    std::string b = neighbor < nodes.size() ? nodes[neighbor].id : std::to_string(neighbor);
    return a + "->" + b;
}

} // namespace fabric
