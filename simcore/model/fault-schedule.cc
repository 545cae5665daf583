#include "model/fault-schedule.h"

#include "ns3/simulator.h"

#include <algorithm>
#include <set>

namespace fabric
{

namespace
{

/** RNG streams of loss faults: two per fault (one per direction), after the traffic streams. */
constexpr int64_t kLossStreamBase = 900000;

int64_t
NsToPs(uint64_t ns)
{
    return static_cast<int64_t>(ns) * 1000;
}

} // namespace

FaultSchedule::FaultSchedule(const Scenario& scenario, FaultTargets targets)
    : m_scenario(scenario),
      m_t(std::move(targets))
{
    size_t n = m_scenario.faults.size();
    m_storms.resize(n);
    m_slow.resize(n);
    m_savedParams.resize(n);
    m_nicFiredSeen.assign(m_t.nics.size(), false);
}

FaultSchedule::~FaultSchedule()
{
    for (FabricDevice* d : m_t.devices)
    {
        for (uint32_t p = 0; d && p < d->GetNPorts(); ++p)
        {
            d->GetPortMutable(p).fault = nullptr;
        }
    }
    for (RdmaNic* nic : m_t.nics)
    {
        if (nic)
        {
            nic->SetRxHook(nullptr);
        }
    }
}

bool
FaultSchedule::Active() const
{
    const WatchdogConfig& w = m_scenario.watchdogs;
    return !m_scenario.faults.empty() || w.switchEnabled || w.nicEnabled;
}

void
FaultSchedule::Start()
{
    if (m_scenario.portCounters)
    {
        for (uint32_t d = 0; d < m_t.devices.size(); ++d)
        {
            for (uint32_t p = 0; m_t.devices[d] && p < m_t.devices[d]->GetNPorts(); ++p)
            {
                Port& port = m_t.devices[d]->GetPortMutable(p); // by index: parallel links too
                if (!port.fault)
                {
                    m_portFaults.emplace_back();
                    port.fault = &m_portFaults.back();
                }
                port.fault->counting = true;
            }
        }
    }
    if (!Active())
    {
        return;
    }
    const WatchdogConfig& w = m_scenario.watchdogs;
    for (RdmaNic* nic : m_t.nics)
    {
        if (nic && w.nicEnabled)
        {
            nic->SetPauseWatchdog(true, NsToPs(w.nicDetectNs));
        }
    }
    if (w.switchEnabled)
    {
        // As deployed in the paper, the switch watchdog guards the ToR ports facing servers
        // (or every port with ports "all"): each gets a PortFault so HandlePause records when
        // pauses arrive.
        for (uint32_t s = 0; s < m_t.switches.size(); ++s)
        {
            for (uint32_t p = 0; m_t.switches[s] && p < m_t.switches[s]->GetNPorts(); ++p)
            {
                uint32_t neighbor = m_t.switches[s]->GetPort(p).neighbor;
                if (w.switchAllPorts || (neighbor < m_t.nics.size() && m_t.nics[neighbor]))
                {
                    FaultOf(s, neighbor).watchdog = true;
                }
            }
        }
        ns3::Simulator::Schedule(ns3::PicoSeconds(std::max<int64_t>(1000000, NsToPs(w.switchDetectNs) / 4)),
                                 &FaultSchedule::SwitchWatchdogTick, this);
    }
    for (size_t i = 0; i < m_scenario.faults.size(); ++i)
    {
        const FaultSpec& f = m_scenario.faults[i];
        ns3::Simulator::Schedule(ns3::PicoSeconds(NsToPs(f.startNs)), &FaultSchedule::Apply, this,
                                 i, true);
        if (f.endNs > 0)
        {
            ns3::Simulator::Schedule(ns3::PicoSeconds(NsToPs(f.endNs)), &FaultSchedule::Apply,
                                     this, i, false);
        }
    }
    ns3::Simulator::Schedule(ns3::PicoSeconds(std::max<int64_t>(1000000, NsToPs(w.deadlockReportNs) / 2)),
                             &FaultSchedule::DeadlockTick, this);
}

void
FaultSchedule::Finish()
{
    RecordDeadlocks(FindPfcDeadlocks(m_t.switches, NsToPs(m_scenario.watchdogs.deadlockReportNs)));
    for (uint32_t h = 0; h < m_t.nics.size(); ++h)
    {
        if (m_t.nics[h] && m_t.nics[h]->PauseWatchdogFired() && !m_nicFiredSeen[h])
        {
            m_nicFiredSeen[h] = true;
            ++m_nicTriggers;
            FaultEvent e;
            e.ps = m_t.nics[h]->PauseWatchdogFiredPs();
            e.event = "nic_watchdog";
            e.target = Name(h);
            m_events.push_back(e);
        }
    }
    std::stable_sort(m_events.begin(), m_events.end(),
                     [](const FaultEvent& a, const FaultEvent& b) { return a.ps < b.ps; });
}

const std::vector<FaultEvent>&
FaultSchedule::Events() const
{
    return m_events;
}

const std::vector<DeadlockCycle>&
FaultSchedule::Deadlocks() const
{
    return m_deadlocks;
}

uint64_t
FaultSchedule::SwitchWatchdogTriggers() const
{
    return m_switchTriggers;
}

uint64_t
FaultSchedule::NicWatchdogTriggers() const
{
    return m_nicTriggers;
}

PortFault&
FaultSchedule::FaultOf(uint32_t node, uint32_t neighbor)
{
    FabricDevice* d = m_t.devices.at(node);
    Port& port = d->GetPortMutable(d->PortToward(neighbor));
    if (!port.fault)
    {
        m_portFaults.emplace_back();
        port.fault = &m_portFaults.back();
    }
    return *port.fault;
}

std::string
FaultSchedule::Name(uint32_t node) const
{
    const auto& nodes = m_scenario.topo.nodes;
    return node < nodes.size() ? nodes[node].id : std::to_string(node);
}

std::string
FaultSchedule::PortName(uint32_t node, uint32_t neighbor) const
{
    return Name(node) + "->" + Name(neighbor);
}

void
FaultSchedule::Log(const std::string& event, const std::string& target, int priority)
{
    FaultEvent e;
    e.ps = NowPs();
    e.event = event;
    e.target = target;
    e.priority = priority;
    m_events.push_back(e);
}

void
FaultSchedule::Apply(size_t i, bool begin)
{
    const FaultSpec& f = m_scenario.faults[i];
    switch (f.kind)
    {
    case FaultKind::LOSS:
        SetLoss(f, i, begin);
        break;
    case FaultKind::LINK_DOWN:
        SetLinkDown(f, begin);
        break;
    case FaultKind::LINK_UP:
        SetLinkDown(f, false);
        break;
    case FaultKind::PFC_STORM:
        if (begin)
        {
            RdmaNic* nic = m_t.nics.at(f.host);
            int64_t interval = f.intervalNs > 0
                                   ? NsToPs(f.intervalNs)
                                   : static_cast<int64_t>(65535 * 64.0 * nic->GetPort(0).psPerByte / 2);
            m_storms[i] = std::make_unique<PfcStorm>(nic, f.priority, interval);
            m_storms[i]->Start();
            Log("pfc_storm_start", Name(f.host), f.priority);
        }
        else if (m_storms[i])
        {
            m_storms[i]->Stop();
            Log("pfc_storm_end", Name(f.host), f.priority);
        }
        break;
    case FaultKind::SLOW_RECEIVER:
        if (begin)
        {
            m_slow[i] = std::make_unique<SlowReceiver>(m_t.nics.at(f.host), m_t.ctx,
                                                       f.drainGbps * 1e9, f.bufferBytes);
            m_slow[i]->Start();
            Log("slow_receiver_start", Name(f.host));
        }
        else if (m_slow[i])
        {
            m_slow[i]->Stop();
            Log("slow_receiver_end", Name(f.host));
        }
        break;
    case FaultKind::SET:
        SetParam(f, begin, i);
        break;
    }
}

void
FaultSchedule::SetLoss(const FaultSpec& f, size_t i, bool on)
{
    for (int dir = 0; dir < (f.bothDirections ? 2 : 1); ++dir)
    {
        uint32_t a = dir == 0 ? f.link.node : f.link.neighbor;
        uint32_t b = dir == 0 ? f.link.neighbor : f.link.node;
        PortFault& pf = FaultOf(a, b);
        pf.lossActive = on;
        if (on)
        {
            pf.lossDataOnly = f.dataOnly;
            pf.lossRate = f.lossRate;
            pf.everyN = f.everyN;
            pf.lossSeen = 0;
            pf.rng = ns3::CreateObject<ns3::UniformRandomVariable>();
            pf.rng->SetStream(kLossStreamBase + static_cast<int64_t>(i) * 2 + dir);
        }
        Log(on ? "loss_start" : "loss_end", PortName(a, b));
    }
}

void
FaultSchedule::SetLinkDown(const FaultSpec& f, bool down)
{
    uint32_t ends[2][2] = {{f.link.node, f.link.neighbor}, {f.link.neighbor, f.link.node}};
    for (auto& e : ends)
    {
        PortFault& pf = FaultOf(e[0], e[1]);
        pf.down = down;
        if (down)
        {
            pf.lastDownPs = NowPs();
            // Nobody will resume a pause across a dead link.
            FabricDevice* d = m_t.devices[e[0]];
            uint32_t port = d->PortToward(e[1]);
            for (uint8_t prio = 0; prio < kNumPriorities; ++prio)
            {
                d->ClearPause(port, prio);
            }
        }
    }
    Log(down ? "link_down" : "link_up", PortName(f.link.node, f.link.neighbor));
    if (f.convergenceNs == 0)
    {
        Converge(f, down);
    }
    else
    {
        ns3::Simulator::Schedule(ns3::PicoSeconds(NsToPs(f.convergenceNs)),
                                 &FaultSchedule::Converge, this, f, down);
    }
    for (auto& e : ends)
    {
        FabricDevice* d = m_t.devices[e[0]];
        d->TryTransmit(d->PortToward(e[1])); // a switch drops what waits; a NIC resumes
    }
}

void
FaultSchedule::Converge(const FaultSpec& f, bool routedAround)
{
    uint32_t ends[2][2] = {{f.link.node, f.link.neighbor}, {f.link.neighbor, f.link.node}};
    for (auto& e : ends)
    {
        FaultOf(e[0], e[1]).routedAround = routedAround;
    }
    m_t.rebuildRoutes();
    Log(routedAround ? "routes_converged_without" : "routes_converged_with",
        PortName(f.link.node, f.link.neighbor));
    if (!routedAround)
    {
        return;
    }
    for (auto& e : ends)
    {
        FabricSwitch* sw = m_t.switches[e[0]];
        if (sw && FaultOf(e[0], e[1]).down)
        {
            sw->RerouteQueued(sw->PortToward(e[1]));
        }
    }
}

void
FaultSchedule::SetParam(const FaultSpec& f, bool begin, size_t i)
{
    std::vector<double>& saved = m_savedParams[i];
    bool ecn = f.param == SetParamKind::ECN_KMIN || f.param == SetParamKind::ECN_KMAX ||
               f.param == SetParamKind::ECN_PMAX;
    size_t k = 0;
    for (uint32_t node : f.nodes)
    {
        FabricSwitch* sw = node < m_t.switches.size() ? m_t.switches[node] : nullptr;
        RdmaNic* nic = node < m_t.nics.size() ? m_t.nics[node] : nullptr;
        if (f.param == SetParamKind::PFC_ALPHA && sw)
        {
            if (begin)
            {
                saved.push_back(sw->Config().pfc.alpha);
            }
            sw->SetAlpha(begin ? f.value : saved.at(k++));
        }
        else if (ecn && sw)
        {
            auto cfg = sw->Config().ecn;
            for (EcnConfig& e : cfg)
            {
                double old = f.param == SetParamKind::ECN_KMIN   ? double(e.kminBytes)
                             : f.param == SetParamKind::ECN_KMAX ? double(e.kmaxBytes)
                                                                 : e.pmax;
                if (begin)
                {
                    saved.push_back(old);
                }
                double v = begin ? f.value : saved.at(k++);
                if (f.param == SetParamKind::ECN_KMIN)
                {
                    e.kminBytes = static_cast<uint64_t>(v);
                }
                else if (f.param == SetParamKind::ECN_KMAX)
                {
                    e.kmaxBytes = static_cast<uint64_t>(v);
                }
                else
                {
                    e.pmax = v;
                }
            }
            sw->SetEcn(cfg);
        }
        else if (f.param == SetParamKind::RTO_US && nic)
        {
            if (begin)
            {
                saved.push_back(nic->Config().rtoUs);
            }
            nic->SetRtoUs(begin ? f.value : saved.at(k++));
        }
        else if (f.param == SetParamKind::CNP_INTERVAL_US && nic)
        {
            if (begin)
            {
                saved.push_back(nic->Config().cnpIntervalUs);
            }
            nic->SetCnpIntervalUs(begin ? f.value : saved.at(k++));
        }
    }
    std::string target = f.nodes.size() == 1 ? Name(f.nodes[0])
                                             : std::to_string(f.nodes.size()) + " nodes";
    Log(std::string(begin ? "set " : "restore ") + f.paramName, target);
}

void
FaultSchedule::SwitchWatchdogTick()
{
    const WatchdogConfig& w = m_scenario.watchdogs;
    int64_t now = NowPs();
    int64_t detect = NsToPs(w.switchDetectNs);
    int64_t restore = NsToPs(w.switchRestoreNs);
    for (uint32_t s = 0; s < m_t.switches.size(); ++s)
    {
        FabricSwitch* sw = m_t.switches[s];
        for (uint32_t p = 0; sw && p < sw->GetNPorts(); ++p)
        {
            Port& port = sw->GetPortMutable(p);
            if (port.fault == nullptr || !port.fault->watchdog)
            {
                continue;
            }
            PortFault& pf = *port.fault;
            for (uint8_t prio = 0; prio < kControlPriority; ++prio)
            {
                uint8_t bit = static_cast<uint8_t>(1u << prio);
                if (pf.dropMask & bit)
                {
                    if (now - pf.lastPauseRxPs[prio] >= restore)
                    {
                        pf.dropMask &= static_cast<uint8_t>(~bit);
                        Log("switch_watchdog_restore", PortName(s, port.neighbor), prio);
                    }
                    continue;
                }
                if (sw->IsPaused(p, prio) && port.pauseStart[prio] >= 0 &&
                    now - port.pauseStart[prio] >= detect)
                {
                    pf.dropMask |= bit;
                    pf.lastPauseRxPs[prio] = now;
                    sw->ClearPause(p, prio);
                    ++m_switchTriggers;
                    Log("switch_watchdog", PortName(s, port.neighbor), prio);
                    sw->TryTransmit(p); // drops what waits at prio, sends the rest
                }
            }
        }
    }
    ns3::Simulator::Schedule(ns3::PicoSeconds(std::max<int64_t>(1000000, detect / 4)),
                             &FaultSchedule::SwitchWatchdogTick, this);
}

void
FaultSchedule::DeadlockTick()
{
    int64_t threshold = NsToPs(m_scenario.watchdogs.deadlockReportNs);
    RecordDeadlocks(FindPfcDeadlocks(m_t.switches, threshold));
    ns3::Simulator::Schedule(ns3::PicoSeconds(std::max<int64_t>(1000000, threshold / 2)),
                             &FaultSchedule::DeadlockTick, this);
}

void
FaultSchedule::RecordDeadlocks(const std::vector<DeadlockCycle>& now)
{
    for (const DeadlockCycle& c : now)
    {
        bool known = false;
        for (const DeadlockCycle& k : m_deadlocks)
        {
            bool same = k.priority == c.priority && k.formedPs == c.formedPs &&
                        k.hops.size() == c.hops.size();
            for (size_t i = 0; same && i < c.hops.size(); ++i)
            {
                same = k.hops[i].node == c.hops[i].node && k.hops[i].neighbor == c.hops[i].neighbor;
            }
            known = known || same;
        }
        if (!known)
        {
            m_deadlocks.push_back(c);
        }
    }
}

} // namespace fabric
