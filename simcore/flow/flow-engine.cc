#include "flow/flow-engine.h"

#include "scenario/dependency-rules.h"
#include "scenario/path-timing.h"
#include "scenario/process-memory.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace fabric
{
namespace flow
{

namespace
{

constexpr double kPsPerNs = 1000.0;

/** Wall time between progress reports, and between memory checks (as the packet runner). */
constexpr double kProgressEveryS = 0.5;
constexpr double kMemoryEveryS = 0.2;

/** Bits a finished fluid may still owe to rounding (its completion is then exact enough). */
constexpr double kDoneToleranceBits = 1e-3;

/** A NIC's transport, as the rates ask it (FlowEngine::m_transport). */
enum NicTransport : uint8_t
{
    TRANSPORT_OTHER,
    TRANSPORT_ERD,
    TRANSPORT_SPRAYED
};

} // namespace

FlowEngine::FlowEngine(const Scenario& scenario, FlowRouting& routing)
    : m_scenario(scenario),
      m_routing(routing)
{
    std::vector<double> capacity(routing.LinkCount());
    for (uint32_t d = 0; d < routing.LinkCount(); ++d)
    {
        capacity[d] = routing.Link(d).rateBps;
    }
    m_solver = std::make_unique<MaxMinSolver>(std::move(capacity),
                                              static_cast<double>(scenario.warmupNs) * kPsPerNs);
    // each node's NIC as the rates read it at every transfer (its transport named once here)
    m_transport.resize(scenario.nicCfg.size());
    m_frameOverhead.resize(scenario.nicCfg.size());
    for (std::size_t n = 0; n < scenario.nicCfg.size(); ++n)
    {
        const NicConfig& nic = scenario.nicCfg[n];
        m_transport[n] = nic.transport == "erd"       ? TRANSPORT_ERD
                         : nic.transport == "sprayed" ? TRANSPORT_SPRAYED
                                                      : TRANSPORT_OTHER;
        m_frameOverhead[n] = nic.headerBytes + nic.preambleIfgBytes +
                             (m_transport[n] == TRANSPORT_ERD ? kErdExtraHeaderBytes : 0);
    }
    const Transfers& tr = scenario.transfers;
    m_out.reserve(scenario.flows.size() + tr.Size());
    m_out.assign(scenario.flows.size(), FlowOutcome());
    m_transferBase = static_cast<uint32_t>(scenario.flows.size());
    // a transfer: its connection's endpoints, port and QP (Spec), its own bytes (Bytes)
    m_out.resize(scenario.flows.size() + tr.Size());
    BuildDependents();
}

void
FlowEngine::BuildDependents()
{
    const Transfers& tr = m_scenario.transfers;
    std::size_t n = m_scenario.flows.size() + tr.Size();
    if (tr.Empty())
    {
        DependentsIndex index = InvertDependencies(m_scenario.deps, n);
        m_pending = std::move(index.pending);
        m_depBegin = std::move(index.begin);
        m_dependents = std::move(index.dependents);
        m_readyPs.assign(n, 0);
        return;
    }
    // the scenario's rows, then the transfers' (shifted past the scenario's flows), inverted
    // in place: InvertDependencies over a copy of both would hold every input twice
    const FlowDependencies& d = m_scenario.deps;
    auto inputs = [&](uint32_t i, auto&& take)
    {
        if (i < m_transferBase)
        {
            for (uint32_t k = d.Empty() ? 0 : d.begin[i]; !d.Empty() && k < d.begin[i + 1]; ++k)
            {
                take(d.on[k]);
            }
            return;
        }
        uint32_t t = i - m_transferBase;
        for (uint32_t k = tr.deps.begin[t]; k < tr.deps.begin[t + 1]; ++k)
        {
            take(m_transferBase + tr.deps.on[k]);
        }
    };
    m_pending.assign(n, 0);
    m_depBegin.assign(n + 1, 0);
    for (uint32_t i = 0; i < n; ++i)
    {
        inputs(i,
               [&](uint32_t on)
               {
                   ++m_pending[i];
                   ++m_depBegin[on + 1];
               });
    }
    for (std::size_t i = 0; i < n; ++i)
    {
        m_depBegin[i + 1] += m_depBegin[i];
    }
    m_dependents.resize(m_depBegin[n]);
    {
        std::vector<uint32_t> fill(m_depBegin.begin(), m_depBegin.end() - 1);
        for (uint32_t i = 0; i < n; ++i)
        {
            inputs(i, [&](uint32_t on) { m_dependents[fill[on]++] = i; });
        }
    }
    m_readyPs.assign(n, 0);
    m_transferState.assign(tr.Size(), 0);
    for (std::size_t t = 0; t < tr.Size(); ++t)
    {
        if (m_scenario.flows[tr.flow[t]].local)
        {
            m_transferState[t] = kTransferLocal;
        }
        if (tr.GroupOf(t) != UINT32_MAX)
        {
            m_transferState[t] |= kTransferStandIn;
        }
    }
    m_groupReady.assign(tr.nvlinkGroups.size(), 0);
    if (!tr.nvlinkGroups.empty())
    {
        m_standInLastPostPs.assign(tr.Size(), 0);
    }
    m_connPost.assign(tr.flowBegin.begin(), tr.flowBegin.end() - 1);
    m_connSend = m_connPost;
    m_connBusy.assign(m_connPost.size(), 0);
    m_connPath.assign(m_connPost.size(), ConnectionPath());
    // A transfer without inputs is posted at the job's start + its gap (the packet model's
    // rule, helper/flow-dependencies.h).
    for (std::size_t t = 0; t < tr.Size(); ++t)
    {
        if (m_pending[m_transferBase + t] == 0)
        {
            m_readyPs[m_transferBase + t] =
                static_cast<double>(Spec(m_transferBase + t).startNs + tr.deps.gapNs[t]) * kPsPerNs;
        }
    }
}

void
FlowEngine::Push(double t, EventKind kind, uint32_t flow, uint32_t version)
{
    Event e{Event::TimeKey(t), m_seq++, flow, version, kind};
    std::size_t i = m_heap.size();
    m_heap.push_back(e);
    while (i > 0)
    {
        std::size_t parent = (i - 1) / 4;
        if (!e.Before(m_heap[parent]))
        {
            break;
        }
        m_heap[i] = m_heap[parent];
        i = parent;
    }
    m_heap[i] = e;
}

FlowEngine::Event
FlowEngine::Pop()
{
    Event top = m_heap[0];
    Event last = m_heap.back();
    m_heap.pop_back();
    std::size_t n = m_heap.size();
    if (n == 0)
    {
        return top;
    }
    std::size_t i = 0;
    for (;;)
    {
        std::size_t first = 4 * i + 1;
        if (first >= n)
        {
            break;
        }
        std::size_t best = first;
        std::size_t end = std::min(first + 4, n);
        for (std::size_t c = first + 1; c < end; ++c)
        {
            if (m_heap[c].Before(m_heap[best]))
            {
                best = c;
            }
        }
        if (!m_heap[best].Before(last))
        {
            break;
        }
        m_heap[i] = m_heap[best];
        i = best;
    }
    m_heap[i] = last;
    return top;
}

uint64_t
FlowEngine::LocalNs(uint32_t flow) const
{
    const Transfers& tr = m_scenario.transfers;
    if (!tr.Empty())
    {
        return flow >= m_transferBase && flow < ExtraBase() ? tr.job[flow - m_transferBase].localNs
                                                            : 0;
    }
    return flow < m_scenario.jobFlows.size() ? m_scenario.jobFlows[flow].localNs : 0;
}

double
FlowEngine::WireBits(uint32_t flow) const
{
    uint64_t bytes = Bytes(flow);
    uint32_t mtu = std::max<uint32_t>(1, m_scenario.nicCfg[Spec(flow).src].mtuBytes);
    uint64_t frames = std::max<uint64_t>(1, (bytes + mtu - 1) / mtu);
    return (static_cast<double>(bytes) + static_cast<double>(frames) * FrameOverhead(flow)) * 8.0;
}

double
FlowEngine::WirePerPayload(uint32_t flow) const
{
    uint64_t bytes = Bytes(flow);
    if (bytes == 0)
    {
        double mtu = std::max<uint32_t>(1, m_scenario.nicCfg[Spec(flow).src].mtuBytes);
        return (mtu + FrameOverhead(flow)) / mtu;
    }
    return WireBits(flow) / 8.0 / static_cast<double>(bytes);
}

double
FlowEngine::WireBitsOf(uint32_t flow)
{
    uint32_t c = ConnectionOf(flow);
    if (c == UINT32_MAX)
    {
        return WireBits(flow);
    }
    // a function of the size and the connection's NIC alone
    ConnectionPath& p = m_connPath[c];
    uint64_t bytes = Bytes(flow);
    if (p.wireBytes != bytes)
    {
        p.wireBytes = bytes;
        p.wireBits = WireBits(flow);
    }
    return p.wireBits;
}

int64_t
FlowEngine::AckReturnOf(uint32_t flow)
{
    uint32_t c = ConnectionOf(flow);
    uint32_t route = m_out[flow].route;
    if (c == UINT32_MAX || route == UINT32_MAX)
    {
        return AckReturnPs(flow);
    }
    // a function of the route (never changed once made) and the connection's NIC
    ConnectionPath& p = m_connPath[c];
    if (p.ackReturnRoute != route)
    {
        p.ackReturnRoute = route;
        p.ackReturnPs = AckReturnPs(flow);
    }
    return p.ackReturnPs;
}

double
FlowEngine::LatencyOf(uint32_t flow)
{
    uint32_t c = ConnectionOf(flow);
    if (c == UINT32_MAX)
    {
        return LatencyPs(flow);
    }
    // a function of the size, the route (never changed once made) and the connection's NIC
    ConnectionPath& p = m_connPath[c];
    uint64_t bytes = Bytes(flow);
    uint32_t route = m_out[flow].route;
    if (p.latencyRoute != route || p.latencyBytes != bytes || route == UINT32_MAX)
    {
        p.latencyRoute = route;
        p.latencyBytes = bytes;
        p.latencyPs = LatencyPs(flow);
    }
    return p.latencyPs;
}

double
FlowEngine::LatencyPs(uint32_t flow) const
{
    return LatencyForPs(flow, Bytes(flow));
}

double
FlowEngine::LatencyForPs(uint32_t flow, uint64_t bytes) const
{
    const FlowRoute* r = RouteOf(flow);
    if (!r || r->hops.empty())
    {
        return 0;
    }
    const FlowSpec& s = Spec(flow);
    uint32_t mtu = std::max<uint32_t>(1, m_scenario.nicCfg[s.src].mtuBytes);
    uint64_t frames = std::max<uint64_t>(1, (bytes + mtu - 1) / mtu);
    double lastWire = bytes == 0
                          ? mtu + FrameOverhead(flow)
                          : static_cast<double>(bytes - (frames - 1) * mtu) + FrameOverhead(flow);
    // as IdealFctPs: every hop's propagation, the last frame's serialization at every hop but
    // the slowest (whose time is the fluid's)
    std::size_t b = 0;
    for (std::size_t i = 1; i < r->hops.size(); ++i)
    {
        if (r->hops[i].first < r->hops[b].first)
        {
            b = i;
        }
    }
    double t = 0;
    for (std::size_t i = 0; i < r->hops.size(); ++i)
    {
        t += static_cast<double>(r->hops[i].second);
        if (i != b)
        {
            t += lastWire * 8e12 / r->hops[i].first;
        }
    }
    return t;
}

int64_t
FlowEngine::AckReturnPs(uint32_t flow) const
{
    const FlowRoute* r = RouteOf(flow);
    if (!r)
    {
        return 0;
    }
    const NicConfig& nc = m_scenario.nicCfg[Spec(flow).src];
    return static_cast<int64_t>(
        std::ceil(fabric::AckReturnPs(r->hops, nc.headerBytes + nc.preambleIfgBytes + kAethBytes)));
}

double
FlowEngine::WindowCapBps(uint32_t flow, const FlowRoute& r) const
{
    const FlowSpec& s = Spec(flow);
    const NicConfig& nc = m_scenario.nicCfg[s.src];
    uint32_t mtu = std::max<uint32_t>(1, nc.mtuBytes);
    uint32_t overhead = nc.headerBytes + nc.preambleIfgBytes;
    uint32_t depth = s.window != kWindowBdp
                         ? s.window
                         : BdpQpDepth(r.hops, mtu, s.messageBytes, overhead, overhead + kAethBytes);
    uint64_t windowBytes = std::max<uint64_t>(1, uint64_t(std::max<uint32_t>(1, depth)) *
                                                     std::max<uint64_t>(1, s.messageBytes));
    uint64_t windowPkts = std::max<uint64_t>(1, (windowBytes + mtu - 1) / mtu);
    if (m_transport[s.src] == TRANSPORT_SPRAYED)
    {
        windowPkts = std::min<uint64_t>(windowPkts, std::max<uint32_t>(1, nc.reorderWindowPackets));
    }
    double rttPs = BaseRttPs(r.hops, mtu + overhead, overhead + kAethBytes);
    if (rttPs <= 0)
    {
        return std::numeric_limits<double>::infinity();
    }
    // a window of frames per round trip (the packet model's min(line rate, window / RTT))
    return static_cast<double>(windowPkts) * (mtu + FrameOverhead(flow)) * 8e12 / rttPs;
}

double
FlowEngine::AckShare(uint32_t flow) const
{
    const FlowSpec& s = Spec(flow);
    const NicConfig& tx = m_scenario.nicCfg[s.src];
    const NicConfig& rx = m_scenario.nicCfg[s.dst];
    double frame = (std::max<uint32_t>(1, tx.mtuBytes) + FrameOverhead(flow));
    double ack = rx.headerBytes + rx.preambleIfgBytes + kAethBytes;
    double framesPerAck = std::max<uint32_t>(1, rx.ackIntervalPackets);
    if (m_transport[s.src] == TRANSPORT_SPRAYED)
    {
        framesPerAck = std::max<uint32_t>(1, rx.sackIntervalPackets);
    }
    else if (m_transport[s.src] == TRANSPORT_ERD)
    {
        // one ACK per delivered message
        uint32_t mtu = std::max<uint32_t>(1, tx.mtuBytes);
        framesPerAck = static_cast<double>(std::max<uint64_t>(1, (s.messageBytes + mtu - 1) / mtu));
    }
    return ack / (framesPerAck * frame);
}

const FlowRoute*
FlowEngine::RouteOf(uint32_t flow) const
{
    uint32_t r = m_out[flow].route;
    return r == UINT32_MAX || !m_routes[r].valid ? nullptr : &m_routes[r];
}

const FlowRoute*
FlowEngine::RouteFor(uint32_t flow)
{
    const FlowSpec& s = Spec(flow);
    if (s.local)
    {
        return nullptr;
    }
    if (m_out[flow].route == UINT32_MAX)
    {
        // a transfer's key is its connection's: looked up once per connection
        uint32_t c = ConnectionOf(flow);
        if (c != UINT32_MAX && m_connPath[c].route != UINT32_MAX)
        {
            m_out[flow].route = m_connPath[c].route;
            return RouteOf(flow);
        }
        uint64_t key = (static_cast<uint64_t>(s.src) << 40) | (static_cast<uint64_t>(s.dst) << 16) |
                       s.udpSrcPort;
        auto [it, fresh] = m_routeIndex.emplace(key, static_cast<uint32_t>(m_routes.size()));
        if (fresh)
        {
            m_routes.push_back(m_routing.Route(s));
        }
        m_out[flow].route = it->second;
        if (c != UINT32_MAX)
        {
            m_connPath[c].route = it->second;
        }
    }
    return RouteOf(flow);
}

double
FlowEngine::Sent(uint32_t flow, double atPs) const
{
    const FlowOutcome& o = m_out[flow];
    auto size = static_cast<double>(Bytes(flow));
    if (o.startPs < 0 || atPs <= o.startPs)
    {
        return 0;
    }
    if (o.dataDonePs >= 0 && atPs >= o.dataDonePs)
    {
        return size;
    }
    if (o.handle == UINT32_MAX)
    {
        return 0;
    }
    double bytes = m_solver->SentBits(o.handle, atPs) / 8.0 / WirePerPayload(flow);
    return size > 0 ? std::min(bytes, size) : bytes;
}

double
FlowEngine::Delivered(uint32_t flow, double atPs) const
{
    const FlowOutcome& o = m_out[flow];
    const FlowSpec& s = Spec(flow);
    if (o.completePs >= 0 && atPs >= o.completePs)
    {
        return static_cast<double>(Bytes(flow));
    }
    if (s.local || o.startPs < 0)
    {
        return 0;
    }
    // what is still on its way: the payload rate over the rest of the path's latency
    double latency = LatencyPs(flow);
    double wireRate =
        o.dataDonePs >= 0 ? o.lastRateBps : (o.handle != UINT32_MAX ? m_solver->Rate(o.handle) : 0);
    double payloadRate = wireRate / 8.0 / WirePerPayload(flow);
    double onTheWayPs = o.dataDonePs >= 0 ? std::max(0.0, o.dataDonePs + latency - atPs) : latency;
    double inFlight = payloadRate * onTheWayPs * 1e-12;
    return std::max(0.0, Sent(flow, atPs) - inFlight);
}

void
FlowEngine::Release(uint32_t flow)
{
    double at = std::max(static_cast<double>(Spec(flow).startNs) * kPsPerNs, m_readyPs[flow]);
    Push(std::max(at, m_nowPs), EventKind::START, flow);
}

void
FlowEngine::Start(uint32_t flow)
{
    if (flow >= m_transferBase && flow < ExtraBase())
    {
        ReadyTransfer(flow - m_transferBase);
        return;
    }
    const FlowSpec& s = Spec(flow);
    FlowOutcome& o = m_out[flow];
    if (s.local)
    {
        o.startPs = m_nowPs;
        uint64_t ns = LocalNs(flow);
        Push(m_nowPs + static_cast<double>(ns) * kPsPerNs, EventKind::COMPLETE, flow);
        return;
    }
    if (RouteFor(flow)) // unroutable: never starts, as in the packet model
    {
        m_out[flow].startPs = m_nowPs;
    }
    StartFluid(flow);
}

void
FlowEngine::ReadyTransfer(uint32_t t)
{
    const Transfers& tr = m_scenario.transfers;
    uint32_t c = tr.flow[t];
    if (m_scenario.flows[c].local)
    {
        ReadyLocal(t, m_nowPs);
        PostLocal();
        return;
    }
    m_transferState[t] |= kTransferReady;
    while (m_connPost[c] < tr.flowBegin[c + 1] && (m_transferState[m_connPost[c]] & kTransferReady))
    {
        m_out[TransferFlow(m_connPost[c]++)].startPs = m_nowPs; // posted
    }
    SendNext(c);
}

bool
FlowEngine::IsLocalTransfer(uint32_t flow) const
{
    return flow >= m_transferBase && flow < ExtraBase() &&
           (m_transferState[flow - m_transferBase] & kTransferLocal) != 0;
}

void
FlowEngine::ReadyLocal(uint32_t t, double atPs)
{
    // An NVLink connection's times are known the moment its inputs' are: a transfer is posted
    // at max(its ready time, the post of the one before it on the connection) and completes its
    // duration later. They are set here at once, without events (the same times the events
    // would give: nothing on NVLink shares a link); what follows them on the fabric still
    // starts by an event at its time. Run's end forgets what lies past it.
    m_transferState[t] |= kTransferReady;
    m_readyPs[TransferFlow(t)] = atPs;
    if ((m_transferState[t] & kTransferStandIn) != 0)
    {
        uint32_t g = m_scenario.transfers.GroupOf(t);
        if (++m_groupReady[g] == m_scenario.transfers.nvlinkGroups[g].proxy.size())
        {
            SolveGroup(g);
        }
        return;
    }
    PostOn(m_scenario.transfers.flow[t]);
}

double
FlowEngine::PostOf(uint32_t t) const
{
    return (m_transferState[t] & kTransferStandIn) != 0 ? m_standInLastPostPs[t]
                                                        : m_out[TransferFlow(t)].startPs;
}

void
FlowEngine::PostOn(uint32_t c)
{
    const Transfers& tr = m_scenario.transfers;
    while (m_connPost[c] < tr.flowBegin[c + 1] && (m_transferState[m_connPost[c]] & kTransferReady))
    {
        uint32_t u = m_connPost[c];
        if ((m_transferState[u] & kTransferStandIn) != 0)
        {
            if ((m_transferState[u] & kTransferSolved) == 0)
            {
                return; // posted with its group (SolveGroup)
            }
            ++m_connPost[c];
            continue;
        }
        ++m_connPost[c];
        uint32_t flow = TransferFlow(u);
        double post = m_readyPs[flow];
        if (u > tr.flowBegin[c])
        {
            post = std::max(post, PostOf(u - 1));
        }
        m_out[flow].startPs = post;
        Finish(flow, post + static_cast<double>(tr.job[u].localNs) * kPsPerNs);
    }
}

void
FlowEngine::SolveGroup(uint32_t g)
{
    // Every stand-in's sender's entry is known: the group's transfers take their times by the
    // plan's rules, in plan order (its inputs come before it): posted at max(its sender's entry,
    // its inputs' completions, the post of the one before it on its connection), done its
    // NVLink time later. Each stand-in then starts with its connection's first post and
    // completes with its last transfer.
    const Transfers& tr = m_scenario.transfers;
    const NvlinkGroup& group = tr.nvlinkGroups[g];
    const NvlinkTemplate& x = tr.nvlinkTemplates[group.tmpl];
    std::size_t n = x.connection.size();
    m_groupDone.assign(n, 0);
    m_groupPost.assign(x.connections, -1);
    m_groupFirst.assign(x.connections, -1);
    m_groupLast.assign(x.connections, 0);
    for (uint32_t k = 0; k < x.connections; ++k)
    {
        uint32_t u = group.proxy[k];
        uint32_t c = tr.flow[u];
        if (m_connPost[c] != u)
        {
            throw std::logic_error("NVLink group: a stand-in's connection has not posted what "
                                   "comes before it");
        }
        if (u > tr.flowBegin[c])
        {
            m_groupPost[k] = PostOf(u - 1);
        }
    }
    for (std::size_t i = 0; i < n; ++i)
    {
        // its sender's entry is its stand-in's ready time (ReadyLocal: the job's start included)
        uint32_t k = x.connection[i];
        double ready = m_readyPs[TransferFlow(group.proxy[k])];
        for (uint32_t j = x.inputBegin[i]; j < x.inputBegin[i + 1]; ++j)
        {
            ready = std::max(ready, m_groupDone[x.inputs[j]]);
        }
        double post = std::max(ready, m_groupPost[k]);
        m_groupPost[k] = post;
        if (m_groupFirst[k] < 0)
        {
            m_groupFirst[k] = post;
        }
        m_groupDone[i] = post + static_cast<double>(x.localNs[i]) * kPsPerNs;
        m_groupLast[k] = m_groupDone[i]; // plan order: the connection's last so far
    }
    for (uint32_t k = 0; k < x.connections; ++k)
    {
        uint32_t u = group.proxy[k];
        m_transferState[u] |= kTransferSolved;
        m_standInLastPostPs[u] = m_groupPost[k];
        m_out[TransferFlow(u)].startPs = m_groupFirst[k];
        ++m_connPost[tr.flow[u]];
    }
    for (uint32_t k = 0; k < x.connections; ++k)
    {
        Finish(TransferFlow(group.proxy[k]), m_groupLast[k]);
    }
    for (uint32_t k = 0; k < x.connections; ++k)
    {
        PostOn(tr.flow[group.proxy[k]]);
    }
}

void
FlowEngine::PostLocal()
{
    while (!m_localReady.empty())
    {
        uint32_t flow = m_localReady.back();
        m_localReady.pop_back();
        ReadyLocal(flow - m_transferBase,
                   std::max(static_cast<double>(Spec(flow).startNs) * kPsPerNs, m_readyPs[flow]));
    }
}

void
FlowEngine::SendNext(uint32_t connection)
{
    if (m_connBusy[connection] || m_connSend[connection] >= m_connPost[connection])
    {
        return;
    }
    m_connBusy[connection] = 1;
    StartFluid(TransferFlow(m_connSend[connection]));
}

void
FlowEngine::StartFluid(uint32_t flow)
{
    FlowOutcome& o = m_out[flow];
    const FlowRoute* r = RouteFor(flow);
    if (!r)
    {
        return; // unroutable: never starts, as in the packet model
    }
    uint32_t c = ConnectionOf(flow);
    if (c == UINT32_MAX)
    {
        o.handle = m_solver->Add(m_nowPs, r->data, r->acks, AckShare(flow), WindowCapBps(flow, *r));
    }
    else
    {
        // every transfer of a connection on one route has its ACK share and window cap
        ConnectionPath& p = m_connPath[c];
        if (p.capRoute != o.route)
        {
            p.capRoute = o.route;
            p.ackShare = AckShare(flow);
            p.windowCapBps = WindowCapBps(flow, *r);
        }
        o.handle = m_solver->Add(m_nowPs, r->data, r->acks, p.ackShare, p.windowCapBps);
    }
    if (m_handleFlow.size() <= o.handle)
    {
        m_handleFlow.resize(o.handle + 1, UINT32_MAX);
    }
    m_handleFlow[o.handle] = flow;
}

void
FlowEngine::DataDone(uint32_t flow, uint32_t version)
{
    FlowOutcome& o = m_out[flow];
    if (o.handle == UINT32_MAX || version != o.version)
    {
        return; // stale: the rate changed since this was scheduled
    }
    double left = WireBitsOf(flow) - m_solver->SentBits(o.handle, m_nowPs);
    double rate = m_solver->Rate(o.handle);
    if (left > kDoneToleranceBits && rate > 0)
    {
        Push(m_nowPs + left / rate * 1e12, EventKind::DATA_DONE, flow, o.version);
        return;
    }
    o.lastRateBps = rate;
    o.dataDonePs = m_nowPs;
    m_solver->Remove(m_nowPs, o.handle);
    m_handleFlow[o.handle] = UINT32_MAX;
    o.handle = UINT32_MAX;
    Push(m_nowPs + LatencyOf(flow), EventKind::COMPLETE, flow);
    if (flow >= m_transferBase && flow < ExtraBase())
    {
        // the connection's next transfer follows this one's last bit onto the wire
        uint32_t c = m_scenario.transfers.flow[flow - m_transferBase];
        m_connBusy[c] = 0;
        ++m_connSend[c];
        SendNext(c);
    }
    if (m_driver && flow >= ExtraBase())
    {
        m_driver->OnDataDone(*this, flow);
    }
}

uint32_t
FlowEngine::AddFlow(FlowSpec spec)
{
    auto id = static_cast<uint32_t>(m_out.size());
    spec.id = id;
    m_extra.push_back(spec);
    m_out.emplace_back();
    return id;
}

void
FlowEngine::Complete(uint32_t flow)
{
    Finish(flow, m_nowPs);
    PostLocal();
}

void
FlowEngine::Finish(uint32_t flow, double atPs)
{
    m_out[flow].completePs = atPs;
    if (m_depBegin.size() <= flow + 1)
    {
        return;
    }
    uint32_t end = m_depBegin[flow + 1];
    if (m_depBegin[flow] == end)
    {
        return;
    }
    const FlowSpec& input = Spec(flow);
    double byAck = -1; // when the input's sender knows by its ACK (computed once, if asked)
    for (uint32_t k = m_depBegin[flow]; k < end; ++k)
    {
        uint32_t d = m_dependents[k];
        double known = atPs;
        // (an NVLink input teaches no one by ACK: its dependents' specs are not needed)
        if (!input.local && LearnsByAck(input, Spec(d)))
        {
            if (byAck < 0)
            {
                byAck = atPs + static_cast<double>(AckReturnOf(flow));
            }
            known = byAck;
        }
        // the latest input's time; its gap is added once, when the last input is known
        // (max(a + g, b + g) is max(a, b) + g, to the bit: rounding is monotonic, times >= 0)
        m_readyPs[d] = std::max(m_readyPs[d], known);
        if (--m_pending[d] == 0)
        {
            m_readyPs[d] += static_cast<double>(GapNs(d)) * kPsPerNs;
            if (IsLocalTransfer(d))
            {
                m_localReady.push_back(d);
            }
            else
            {
                Release(d);
            }
        }
    }
}

void
FlowEngine::TakeWarmup()
{
    m_deliveredAtWarmup.assign(m_out.size(), 0.0);
    for (uint32_t i = 0; i < m_out.size(); ++i)
    {
        m_deliveredAtWarmup[i] = Delivered(i, m_nowPs);
    }
}

void
FlowEngine::Handle(const Event& e)
{
    ++m_events;
    switch (e.kind)
    {
    case EventKind::START:
        Start(e.flow);
        break;
    case EventKind::DATA_DONE:
        DataDone(e.flow, e.version);
        break;
    case EventKind::COMPLETE:
        Complete(e.flow);
        break;
    case EventKind::WARMUP:
        TakeWarmup();
        break;
    case EventKind::TIMER:
        m_driver->OnTimer(*this, e.flow);
        break;
    case EventKind::LINK:
        ApplyLinkStep(m_linkSteps[e.flow]);
        break;
    }
}

void
FlowEngine::Reschedule(const std::vector<uint32_t>& changed)
{
    for (uint32_t h : changed)
    {
        uint32_t flow = m_handleFlow[h];
        if (flow == UINT32_MAX)
        {
            continue;
        }
        FlowOutcome& o = m_out[flow];
        ++o.version;
        double rate = m_solver->Rate(h);
        if (Bytes(flow) == 0 || rate <= 0)
        {
            continue; // long-lived, or stalled until a rate frees up
        }
        double left = std::max(0.0, WireBitsOf(flow) - m_solver->SentBits(h, m_nowPs));
        Push(m_nowPs + left / rate * 1e12, EventKind::DATA_DONE, flow, o.version);
    }
}

void
FlowEngine::ScheduleLinkFaults()
{
    // As the packet model's FaultSchedule: a link_down (until its end_us) and a link_up stop
    // or restore both directions at once; routing converges convergence_us later.
    auto add = [this](uint64_t ns, LinkStep step)
    {
        m_linkSteps.push_back(step);
        Push(static_cast<double>(ns) * kPsPerNs, EventKind::LINK,
             static_cast<uint32_t>(m_linkSteps.size() - 1));
    };
    for (const FaultSpec& f : m_scenario.faults)
    {
        if (f.kind != FaultKind::LINK_DOWN && f.kind != FaultKind::LINK_UP)
        {
            continue;
        }
        auto change = [&](uint64_t ns, bool down)
        {
            add(ns, {down ? LinkStep::DOWN : LinkStep::UP, f.link.node, f.link.neighbor});
            add(ns + f.convergenceNs,
                {down ? LinkStep::CONVERGED_WITHOUT : LinkStep::CONVERGED_WITH, f.link.node,
                 f.link.neighbor});
        };
        change(f.startNs, f.kind == FaultKind::LINK_DOWN);
        if (f.kind == FaultKind::LINK_DOWN && f.endNs > 0)
        {
            change(f.endNs, false);
        }
    }
}

void
FlowEngine::ApplyLinkStep(const LinkStep& step)
{
    for (auto [a, b] : {std::pair{step.node, step.neighbor}, std::pair{step.neighbor, step.node}})
    {
        uint32_t d = m_routing.LinkToward(a, b);
        if (d == UINT32_MAX)
        {
            continue;
        }
        switch (step.kind)
        {
        case LinkStep::DOWN:
        case LinkStep::UP:
            // nothing crosses a dead link; the frames on it when it failed are lost in the
            // packet model and resent (not modelled here: the caveat says so)
            m_routing.SetDown(d, step.kind == LinkStep::DOWN);
            m_solver->SetCapacity(m_nowPs, d,
                                  step.kind == LinkStep::DOWN ? 0.0 : m_routing.Link(d).rateBps);
            break;
        case LinkStep::CONVERGED_WITHOUT:
        case LinkStep::CONVERGED_WITH:
            m_routing.SetRoutedAround(d, step.kind == LinkStep::CONVERGED_WITHOUT);
            break;
        }
    }
    if (step.kind == LinkStep::CONVERGED_WITHOUT || step.kind == LinkStep::CONVERGED_WITH)
    {
        m_routing.Rebuild();
    }
    // a NIC moves a pinned QP off its own dead port at once; switches only once routes converge
    Reroute();
}

void
FlowEngine::Reroute()
{
    m_routeIndex.clear(); // routes computed from now on are the new tables'
    for (ConnectionPath& p : m_connPath)
    {
        p.route = UINT32_MAX;
    }
    std::vector<uint32_t> moving = m_stalled;
    m_stalled.clear();
    for (uint32_t h = 0; h < m_handleFlow.size(); ++h)
    {
        if (m_handleFlow[h] != UINT32_MAX)
        {
            moving.push_back(m_handleFlow[h]);
        }
    }
    std::sort(moving.begin(), moving.end());
    for (uint32_t flow : moving)
    {
        FlowOutcome& o = m_out[flow];
        uint32_t old = o.route;
        o.route = UINT32_MAX;
        const FlowRoute* r = RouteFor(flow);
        if (r && old != UINT32_MAX && m_routes[old].data.size() == r->data.size() &&
            std::equal(r->data.begin(), r->data.end(), m_routes[old].data.begin(),
                       [](const LinkShare& x, const LinkShare& y)
                       { return x.link == y.link && x.share == y.share; }) &&
            o.handle != UINT32_MAX)
        {
            o.route = old; // the same links: nothing moves
            continue;
        }
        double sent = 0;
        if (o.handle != UINT32_MAX)
        {
            sent = m_solver->SentBits(o.handle, m_nowPs);
            m_solver->Remove(m_nowPs, o.handle);
            m_handleFlow[o.handle] = UINT32_MAX;
            o.handle = UINT32_MAX;
            ++o.version; // its data-done event is stale
        }
        else
        {
            auto it = m_stalledBits.find(flow);
            sent = it != m_stalledBits.end() ? it->second : 0.0;
        }
        if (!r)
        {
            o.route = old; // no route for now: it waits for the next convergence
            m_stalledBits[flow] = sent;
            m_stalled.push_back(flow);
            continue;
        }
        o.handle =
            m_solver->Add(m_nowPs, r->data, r->acks, AckShare(flow), WindowCapBps(flow, *r), sent);
        if (m_handleFlow.size() <= o.handle)
        {
            m_handleFlow.resize(o.handle + 1, UINT32_MAX);
        }
        m_handleFlow[o.handle] = flow;
    }
}

void
FlowEngine::ForgetLocalPast(bool atDuration)
{
    // ReadyLocal set NVLink transfers' times ahead of the clock: what the run's events never
    // reached (at or past the duration; past the time a limit stopped it) did not happen.
    auto past = [&](double ps)
    {
        return atDuration ? ps >= m_endPs : ps > m_endPs;
    };
    for (uint32_t f = m_transferBase; f < ExtraBase(); ++f)
    {
        FlowOutcome& o = m_out[f];
        if (o.completePs >= 0 && past(o.completePs))
        {
            o.completePs = -1;
        }
        if (o.startPs >= 0 && past(o.startPs))
        {
            o.startPs = -1;
        }
    }
}

RunStatus
FlowEngine::Run(const RunLimits& limits, const std::function<void(const Progress&)>& progress)
{
    auto wallStart = std::chrono::steady_clock::now();
    double durationPs = static_cast<double>(m_scenario.durationNs) * kPsPerNs;
    const auto& flows = m_scenario.flows;
    bool held = !m_scenario.deps.Empty();
    const Transfers& tr = m_scenario.transfers;
    for (uint32_t i = 0; i < flows.size(); ++i)
    {
        bool waits = held && m_scenario.deps.Waits(i);
        if (!waits && !tr.Carries(i))
        {
            // flows that wait for nothing start at their time (an NVLink step at once); a
            // connection never starts itself: its transfers do
            Push(static_cast<double>(flows[i].startNs) * kPsPerNs, EventKind::START, i);
        }
    }
    for (uint32_t t = 0; t < tr.Size(); ++t)
    {
        if (m_pending[TransferFlow(t)] == 0)
        {
            Push(m_readyPs[TransferFlow(t)], EventKind::START, TransferFlow(t));
        }
    }
    if (m_scenario.warmupNs > 0)
    {
        Push(static_cast<double>(m_scenario.warmupNs) * kPsPerNs, EventKind::WARMUP, 0);
    }
    ScheduleLinkFaults();
    if (m_driver)
    {
        m_driver->Begin(*this);
    }
    RunStatus status = RunStatus::OK;
    double lastProgress = 0;
    double lastMemory = 0;
    uint64_t batches = 0;
    while (!m_heap.empty() && m_heap[0].T() < durationPs)
    {
        m_nowPs = m_heap[0].T();
        while (!m_heap.empty() && m_heap[0].T() == m_nowPs)
        {
            Event e = Pop();
            Handle(e);
        }
        m_solver->Solve(m_nowPs, m_changed);
        Reschedule(m_changed);
        if ((++batches & 255) != 0)
        {
            continue;
        }
        double wall =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - wallStart).count();
        if (progress && wall - lastProgress >= kProgressEveryS)
        {
            lastProgress = wall;
            progress(Progress{static_cast<uint64_t>(m_nowPs / kPsPerNs), m_scenario.durationNs,
                              m_events, wall});
        }
        bool over = (limits.maxEvents > 0 && m_events >= limits.maxEvents) ||
                    (limits.maxWallS > 0 && wall >= limits.maxWallS);
        if (!over && limits.maxMemoryMb > 0 && wall - lastMemory >= kMemoryEveryS)
        {
            lastMemory = wall;
            over = PeakRssMb() > static_cast<double>(limits.maxMemoryMb);
        }
        if (over)
        {
            status = RunStatus::LIMIT;
            break;
        }
    }
    m_endPs = status == RunStatus::OK ? durationPs : m_nowPs;
    ForgetLocalPast(status == RunStatus::OK);
    if (status == RunStatus::OK && m_scenario.warmupNs > 0 &&
        static_cast<double>(m_scenario.warmupNs) * kPsPerNs >= durationPs)
    {
        m_nowPs = m_endPs;
        TakeWarmup();
    }
    return status;
}

} // namespace flow
} // namespace fabric
