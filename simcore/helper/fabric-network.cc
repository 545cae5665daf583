#include "helper/fabric-network.h"
#include "common/rounding.h"
#include "helper/process-memory.h"
#include "helper/qp-depth.h"
#include "model/dci-accelerator.h"

#include "model/fast-heap-scheduler.h"

#include "ns3/core-module.h"

#include <algorithm>
#include <cstdlib>
#include <cmath>
#include <fstream>
#include <queue>
#include <sstream>
#include <unordered_map>

namespace fabric
{

namespace
{

bool g_resolutionSet = false;

} // namespace

double
IdealFctPs(uint64_t sizeBytes, uint32_t mtu, const std::vector<std::pair<double, int64_t>>& hops,
           uint32_t overheadBytes)
{
    if (hops.empty() || mtu == 0)
    {
        return 0;
    }
    uint64_t n = (sizeBytes + mtu - 1) / mtu;
    if (n == 0)
    {
        n = 1;
    }
    double totalWire = static_cast<double>(sizeBytes) + n * double(overheadBytes);
    double lastWire = static_cast<double>(sizeBytes - (n - 1) * mtu) + overheadBytes;
    size_t b = 0;
    for (size_t i = 1; i < hops.size(); ++i)
    {
        if (hops[i].first < hops[b].first)
        {
            b = i;
        }
    }
    double t = totalWire * 8e12 / hops[b].first;
    for (size_t i = 0; i < hops.size(); ++i)
    {
        t += static_cast<double>(hops[i].second);
        if (i != b)
        {
            t += lastWire * 8e12 / hops[i].first;
        }
    }
    return t;
}

double
Percentile(const std::vector<double>& sorted, double p)
{
    if (sorted.empty())
    {
        return 0;
    }
    double rank = std::ceil(p * static_cast<double>(sorted.size()));
    size_t idx = rank < 1 ? 0 : static_cast<size_t>(rank) - 1;
    return sorted[std::min(idx, sorted.size() - 1)];
}

FabricRunnerImpl::FabricRunnerImpl(const Scenario& scenario)
    : m_scenario(scenario)
{
    using namespace ns3;
    Simulator::Destroy();
    if (!g_resolutionSet)
    {
        Time::SetResolution(Time::PS);
        g_resolutionSet = true;
    }
    RngSeedManager::SetSeed(m_scenario.seed == 0 ? 1 : m_scenario.seed);
    RngSeedManager::SetRun(1);
    ObjectFactory sched;
    // Measured fastest for this model (docs/benchmarks.md); FABRICSIM_SCHEDULER overrides.
    const char* schedName = std::getenv("FABRICSIM_SCHEDULER");
    FastHeapScheduler::GetTypeId(); // registers the TypeId (static library)
    sched.SetTypeId(schedName && *schedName ? schedName : "fabric::FastHeapScheduler");
    Simulator::SetScheduler(sched);

    m_ctx.scenario = &m_scenario;
    m_ctx.warmupPs = static_cast<int64_t>(m_scenario.warmupNs) * 1000;
    m_ctx.hostRxBytes.assign(m_scenario.topo.nodes.size(), 0);
    BuildDevices();
    BuildRoutes();
    AttachAccelerators();
    BuildFlows();
    FaultTargets targets;
    targets.ctx = &m_ctx;
    for (auto& d : m_devices)
    {
        targets.devices.push_back(ns3::PeekPointer(d));
    }
    targets.switches = m_switches;
    targets.nics = m_nics;
    targets.rebuildRoutes = [this] { BuildRoutes(); };
    m_faults = std::make_unique<FaultSchedule>(m_scenario, std::move(targets));
}

FabricRunnerImpl::~FabricRunnerImpl()
{
    ns3::Simulator::Destroy();
    m_faults.reset();
    for (auto& f : m_ctx.flows)
    {
        if (f.cc)
        {
            f.cc->Dispose();
            f.cc = nullptr;
        }
    }
    for (auto& d : m_devices)
    {
        if (d)
        {
            d->Dispose();
        }
    }
}

void
FabricRunnerImpl::BuildDevices()
{
    const auto& nodes = m_scenario.topo.nodes;
    size_t n = nodes.size();
    m_devices.assign(n, nullptr);
    m_switches.assign(n, nullptr);
    m_nics.assign(n, nullptr);
    for (size_t i = 0; i < n; ++i)
    {
        if (nodes[i].isHost)
        {
            auto nic = ns3::CreateObject<RdmaNic>();
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
FabricRunnerImpl::BuildRoutes()
{
    size_t n = m_devices.size();
    m_hostAttach.assign(n, UINT32_MAX);
    m_hostAttachNode.assign(n, UINT32_MAX);
    m_hostPort.assign(n, UINT32_MAX);
    std::vector<uint32_t> attachIndexOf(n, UINT32_MAX);
    std::vector<uint32_t> attachNodes;
    for (size_t h = 0; h < n; ++h)
    {
        if (!m_nics[h] || m_nics[h]->GetNPorts() == 0)
        {
            continue;
        }
        uint32_t sw = m_nics[h]->GetPort(0).neighbor;
        if (sw >= n || !m_switches[sw])
        {
            continue; // a host wired straight to a host needs no switch route
        }
        if (attachIndexOf[sw] == UINT32_MAX)
        {
            attachIndexOf[sw] = static_cast<uint32_t>(attachNodes.size());
            attachNodes.push_back(sw);
        }
        m_hostAttach[h] = attachIndexOf[sw];
        m_hostAttachNode[h] = sw;
        m_hostPort[h] = m_switches[sw]->PortToward(static_cast<uint32_t>(h));
    }
    size_t nAttach = attachNodes.size();
    std::vector<RouteTable> tables(n);
    for (size_t s = 0; s < n; ++s)
    {
        if (m_switches[s])
        {
            tables[s].offset.assign(nAttach, 0);
            tables[s].count.assign(nAttach, 0);
        }
    }
    std::vector<int32_t> dist(n);
    std::vector<uint32_t> bfs;
    bfs.reserve(n);
    for (size_t a = 0; a < nAttach; ++a)
    {
        std::fill(dist.begin(), dist.end(), -1);
        bfs.clear();
        uint32_t root = attachNodes[a];
        dist[root] = 0;
        bfs.push_back(root);
        for (size_t head = 0; head < bfs.size(); ++head)
        {
            uint32_t u = bfs[head];
            const FabricSwitch* su = m_switches[u];
            for (uint32_t p = 0; p < su->GetNPorts(); ++p)
            {
                uint32_t v = su->GetPort(p).neighbor;
                const PortFault* pf = su->GetPort(p).fault;
                if (pf != nullptr && pf->routedAround)
                {
                    continue; // a failed link, once routing has converged (fault-schedule.cc)
                }
                if (v < n && m_switches[v] && dist[v] < 0)
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
            RouteTable& t = tables[s];
            t.offset[a] = static_cast<uint32_t>(t.ports.size());
            const FabricSwitch* ss = m_switches[s];
            uint32_t count = 0;
            for (uint32_t p = 0; p < ss->GetNPorts() && count < 255; ++p)
            {
                uint32_t v = ss->GetPort(p).neighbor;
                const PortFault* pf = ss->GetPort(p).fault;
                if (pf != nullptr && pf->routedAround)
                {
                    continue;
                }
                if (v < n && m_switches[v] && dist[v] == dist[s] - 1)
                {
                    t.ports.push_back(static_cast<uint16_t>(p));
                    ++count;
                }
            }
            t.count[a] = static_cast<uint8_t>(count);
        }
    }
    for (size_t s = 0; s < n; ++s)
    {
        if (m_switches[s])
        {
            tables[s].ports.shrink_to_fit();
            m_switches[s]->SetRoutes(std::move(tables[s]), &m_hostAttach, &m_hostAttachNode,
                                     &m_hostPort);
        }
    }
}

std::vector<uint32_t>
FabricRunnerImpl::NodePathOf(const FlowSpec& f) const
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
    uint32_t node = m_nics[f.src]->GetPort(0).neighbor;
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
FabricRunnerImpl::PathOf(const FlowSpec& f) const
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
FabricRunnerImpl::BuildFlows()
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
        f.qpDepth = s.window != kWindowBdp
                        ? s.window
                        : BdpQpDepth(hops, f.mtu, s.messageBytes, overhead, overhead + kAethBytes);
        uint64_t windowBytes = std::max<uint64_t>(1, uint64_t(std::max<uint32_t>(1, f.qpDepth)) *
                                                         std::max<uint64_t>(1, s.messageBytes));
        f.windowPkts = std::max<uint64_t>(1, (windowBytes + f.mtu - 1) / f.mtu);
        f.valid = !hops.empty();
        f.baseRttPs = static_cast<int64_t>(BaseRttPs(hops, f.mtu + overhead, overhead + kAethBytes));
        if (f.valid && s.sizeBytes > 0)
        {
            f.idealPs = IdealFctPs(s.sizeBytes, f.mtu, hops, nc.headerBytes + nc.preambleIfgBytes);
        }
    }
    m_startOrder.resize(specs.size());
    for (size_t i = 0; i < specs.size(); ++i)
    {
        m_startOrder[i] = static_cast<uint32_t>(i);
    }
    std::stable_sort(m_startOrder.begin(), m_startOrder.end(), [&](uint32_t a, uint32_t b) {
        if (specs[a].startNs != specs[b].startNs)
        {
            return specs[a].startNs < specs[b].startNs;
        }
        return specs[a].id < specs[b].id;
    });
}

void
FabricRunnerImpl::StartDueFlows()
{
    const auto& specs = m_scenario.flows;
    int64_t now = NowPs();
    while (m_nextStart < m_startOrder.size())
    {
        uint32_t i = m_startOrder[m_nextStart];
        int64_t at = static_cast<int64_t>(specs[i].startNs) * 1000;
        if (at > now)
        {
            ns3::Simulator::Schedule(ns3::PicoSeconds(at - now), &FabricRunnerImpl::StartDueFlows,
                                     this);
            return;
        }
        ++m_nextStart;
        if (specs[i].src < m_nics.size() && m_nics[specs[i].src])
        {
            m_nics[specs[i].src]->StartFlow(i);
        }
    }
}

void
FabricRunnerImpl::Sample()
{
    int64_t now = NowPs();
    m_tUs.push_back(RoundDecimals(now / 1e6, 3));
    const MonitorConfig& mon = m_scenario.monitor;
    for (size_t i = 0; i < mon.queues.size() && !m_autoQueuesOn; ++i)
    {
        const PortRef& r = mon.queues[i];
        double v = 0;
        if (r.node < m_switches.size() && m_switches[r.node])
        {
            uint32_t p = m_switches[r.node]->PortToward(r.neighbor);
            if (p != UINT32_MAX)
            {
                v = static_cast<double>(m_switches[r.node]->DataQueueBytes(p));
            }
        }
        m_queueSeries[i].push_back(v);
    }
    double intervalS = m_sampleIntervalPs / 1e12;
    for (size_t i = 0; i < m_watchedFlows.size(); ++i)
    {
        uint32_t fi = m_watchedFlows[i];
        double v = 0;
        if (fi < m_ctx.flows.size())
        {
            FlowState& f = m_ctx.flows[fi];
            uint64_t delta = f.bytesDelivered - f.bytesAtLastSample;
            f.bytesAtLastSample = f.bytesDelivered;
            v = RoundDecimals(delta * 8.0 / intervalS / 1e9, 4);
        }
        m_flowSeries[i].push_back(v);
    }
    for (size_t i = 0; i < mon.ports.size() && !m_autoPausesOn; ++i)
    {
        const PortRef& r = mon.ports[i];
        int state = 0;
        FabricDevice* d = Device(r.node);
        if (d)
        {
            uint32_t p = d->PortToward(r.neighbor);
            if (p != UINT32_MAX)
            {
                for (uint8_t prio = 0; prio < kControlPriority; ++prio)
                {
                    if (d->IsPaused(p, prio))
                    {
                        state |= 1;
                    }
                }
                if (m_switches[r.node] && m_switches[r.node]->IsPausing(p))
                {
                    state |= 2;
                }
            }
        }
        m_pauseSeries[i].push_back(state);
    }
    SampleAuto(static_cast<uint32_t>(m_tUs.size() - 1));
    if (now >= m_ctx.warmupPs)
    {
        for (FabricSwitch* sw : m_switches)
        {
            if (sw)
            {
                sw->SampleQueues();
            }
        }
    }
    ns3::Simulator::Schedule(ns3::PicoSeconds(m_sampleIntervalPs), &FabricRunnerImpl::Sample, this);
}

void
FabricRunnerImpl::CheckLimits()
{
    using namespace std::chrono;
    double wall = duration<double>(steady_clock::now() - m_wallStart).count();
    uint64_t events = ns3::Simulator::GetEventCount();
    bool stop = false;
    if (m_limits.maxWallS > 0 && wall > m_limits.maxWallS)
    {
        stop = true;
    }
    if (m_limits.maxEvents > 0 && events > m_limits.maxEvents)
    {
        stop = true;
    }
    if (m_limits.maxMemoryMb > 0 && wall - m_lastMemCheckWall >= 0.2)
    {
        m_lastMemCheckWall = wall;
        if (PeakRssMb() > static_cast<double>(m_limits.maxMemoryMb))
        {
            stop = true;
        }
    }
    if (m_progress && wall - m_lastProgressWall >= 0.5)
    {
        m_lastProgressWall = wall;
        Progress pr;
        pr.simTimeNs = static_cast<uint64_t>(NowPs() / 1000);
        pr.durationNs = m_scenario.durationNs;
        pr.events = events;
        pr.wallS = wall;
        m_progress(pr);
    }
    if (stop)
    {
        m_limitHit = true;
        ns3::Simulator::Stop();
        return;
    }
    ns3::Simulator::Schedule(ns3::MicroSeconds(5), &FabricRunnerImpl::CheckLimits, this);
}

RunStatus
FabricRunnerImpl::Run(const RunLimits& limits, const std::function<void(const Progress&)>& progress)
{
    using namespace ns3;
    if (m_finished)
    {
        return m_limitHit ? RunStatus::LIMIT : RunStatus::OK;
    }
    m_limits = limits;
    m_progress = progress;
    m_wallStart = std::chrono::steady_clock::now();

    const MonitorConfig& mon = m_scenario.monitor;
    m_sampleIntervalPs = std::max<int64_t>(1000, static_cast<int64_t>(mon.sampleIntervalUs * 1e6));
    std::unordered_map<uint32_t, uint32_t> byId;
    for (size_t i = 0; i < m_scenario.flows.size(); ++i)
    {
        byId.emplace(m_scenario.flows[i].id, static_cast<uint32_t>(i));
    }
    InitAutoWatch();
    for (uint32_t id : mon.flows)
    {
        if (m_autoFlowsOn)
        {
            break;
        }
        auto it = byId.find(id);
        m_watchedFlows.push_back(it == byId.end() ? UINT32_MAX : it->second);
    }
    m_queueSeries.assign(mon.queues.size(), {});
    m_flowSeries.assign(m_watchedFlows.size(), {});
    m_pauseSeries.assign(mon.ports.size(), {});

    Simulator::Schedule(Seconds(0), &FabricRunnerImpl::StartDueFlows, this);
    Simulator::Schedule(Seconds(0), &FabricRunnerImpl::Sample, this);
    Simulator::Schedule(MicroSeconds(5), &FabricRunnerImpl::CheckLimits, this);
    if (m_ctx.warmupPs > 0)
    {
        Simulator::Schedule(PicoSeconds(m_ctx.warmupPs), &FabricRunnerImpl::SnapshotWarmup, this);
    }
    m_faults->Start();
    Simulator::Stop(PicoSeconds(static_cast<int64_t>(m_scenario.durationNs) * 1000));
    Simulator::Run();
    Finish();
    if (m_progress)
    {
        Progress pr;
        pr.simTimeNs = SimTimeNs();
        pr.durationNs = m_scenario.durationNs;
        pr.events = m_events;
        pr.wallS = std::chrono::duration<double>(std::chrono::steady_clock::now() - m_wallStart)
                       .count();
        m_progress(pr);
    }
    return m_limitHit ? RunStatus::LIMIT : RunStatus::OK;
}

void
FabricRunnerImpl::SnapshotWarmup()
{
    m_warmupSnapshotTaken = true;
    TakeWarmupSnapshot();
}

void
FabricRunnerImpl::TakeWarmupSnapshot()
{
    int64_t now = NowPs();
    // Zero baselines without a warm-up (everything is after it). A run that ended inside the
    // warm-up takes its final counters as the baseline: nothing happened after the warm-up.
    bool zero = m_ctx.warmupPs == 0;
    m_ctx.countersAtWarmup = zero ? FabricCounters() : m_ctx.counters;
    for (auto& d : m_devices)
    {
        for (uint32_t p = 0; d && p < d->GetNPorts(); ++p)
        {
            Port& port = d->GetPortMutable(p);
            for (uint8_t prio = 0; prio < kNumPriorities; ++prio)
            {
                port.pausesSentAtWarmup[prio] = zero ? 0 : port.pausesSent[prio];
                port.pausesReceivedAtWarmup[prio] = zero ? 0 : port.pausesReceived[prio];
                port.pausePsAtWarmup[prio] = zero ? 0 : port.PausedPsUntil(prio, now);
            }
        }
    }
}

void
FabricRunnerImpl::Finish()
{
    m_finished = true;
    m_endPs = NowPs();
    // The warm-up snapshot is bookkeeping, not model: the event count stays what it was.
    m_events = ns3::Simulator::GetEventCount() - (m_warmupSnapshotTaken ? 1 : 0);
    if (!m_warmupSnapshotTaken)
    {
        TakeWarmupSnapshot();
    }
    m_faults->Finish();
    for (auto& d : m_devices)
    {
        if (d)
        {
            d->ClosePauses(m_endPs);
        }
    }
    for (FabricSwitch* sw : m_switches)
    {
        if (sw)
        {
            sw->FinishStats(m_endPs);
        }
    }
}

uint64_t
FabricRunnerImpl::Events() const
{
    return m_finished ? m_events : ns3::Simulator::GetEventCount();
}

uint64_t
FabricRunnerImpl::PacketsTx() const
{
    return m_ctx.counters.packetsTx;
}

uint64_t
FabricRunnerImpl::SimTimeNs() const
{
    return static_cast<uint64_t>((m_finished ? m_endPs : NowPs()) / 1000);
}

const Scenario&
FabricRunnerImpl::GetScenario() const
{
    return m_scenario;
}

FabricContext&
FabricRunnerImpl::Context()
{
    return m_ctx;
}

const FaultSchedule&
FabricRunnerImpl::Faults() const
{
    return *m_faults;
}

FabricDevice*
FabricRunnerImpl::Device(uint32_t node) const
{
    return node < m_devices.size() ? ns3::PeekPointer(m_devices[node]) : nullptr;
}

FabricSwitch*
FabricRunnerImpl::Switch(uint32_t node) const
{
    return node < m_switches.size() ? m_switches[node] : nullptr;
}

RdmaNic*
FabricRunnerImpl::Nic(uint32_t node) const
{
    return node < m_nics.size() ? m_nics[node] : nullptr;
}

std::string
FabricRunnerImpl::PortName(uint32_t node, uint32_t neighbor) const
{
    const auto& nodes = m_scenario.topo.nodes;
    std::string a = node < nodes.size() ? nodes[node].id : std::to_string(node);
    std::string b = neighbor < nodes.size() ? nodes[neighbor].id : std::to_string(neighbor);
    return a + "->" + b;
}

} // namespace fabric
