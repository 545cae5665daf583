#include "helper/run-controller.h"
#include "helper/flow-dependencies.h"
#include "helper/network-builder.h"
#include "helper/process-memory.h"
#include "helper/run-monitor.h"
#include "model/fault-schedule.h"

#include "ns3/simulator.h"


namespace fabric
{

RunController::RunController(const Scenario& scenario, FabricContext& ctx,
                             const NetworkBuilder& network, FaultSchedule& faults)
    : m_scenario(scenario),
      m_ctx(ctx),
      m_network(network),
      m_faults(faults)
{
    if (FlowDependencyTracker::Needed(scenario))
    {
        m_dependencies = std::make_unique<FlowDependencyTracker>(scenario, ctx, network.Nics());
    }
}

RunController::~RunController() = default;

void
RunController::StartDueFlows()
{
    const auto& specs = m_scenario.flows;
    int64_t now = NowPs();
    const std::vector<uint32_t>& order = m_network.StartOrder();
    const std::vector<RdmaNic*>& nics = m_network.Nics();
    while (m_nextStart < order.size())
    {
        uint32_t i = order[m_nextStart];
        int64_t at = static_cast<int64_t>(specs[i].startNs) * 1000;
        if (at > now)
        {
            ns3::Simulator::Schedule(ns3::PicoSeconds(at - now), &RunController::StartDueFlows,
                                     this);
            return;
        }
        ++m_nextStart;
        if (specs[i].src < nics.size() && nics[specs[i].src])
        {
            nics[specs[i].src]->StartFlow(i);
        }
    }
}

void
RunController::CheckLimits()
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
    ns3::Simulator::Schedule(ns3::MicroSeconds(5), &RunController::CheckLimits, this);
}

RunStatus
RunController::Run(const RunLimits& limits, const std::function<void(const Progress&)>& progress)
{
    using namespace ns3;
    if (m_finished)
    {
        return m_limitHit ? RunStatus::LIMIT : RunStatus::OK;
    }
    m_limits = limits;
    m_progress = progress;
    m_wallStart = std::chrono::steady_clock::now();

    Simulator::Schedule(Seconds(0), &RunController::StartDueFlows, this);
    if (m_dependencies)
    {
        m_dependencies->Start();
    }
    if (m_monitor)
    {
        m_monitor->Start(); // schedules the first sample, after the first StartDueFlows
    }
    Simulator::Schedule(MicroSeconds(5), &RunController::CheckLimits, this);
    if (m_ctx.warmupPs > 0)
    {
        Simulator::Schedule(PicoSeconds(m_ctx.warmupPs), &RunController::SnapshotWarmup, this);
    }
    m_faults.Start();
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
RunController::SnapshotWarmup()
{
    m_warmupSnapshotTaken = true;
    TakeWarmupSnapshot();
}

void
RunController::TakeWarmupSnapshot()
{
    int64_t now = NowPs();
    // Zero baselines without a warm-up (everything is after it). A run that ended inside the
    // warm-up takes its final counters as the baseline: nothing happened after the warm-up.
    bool zero = m_ctx.warmupPs == 0;
    m_warmup.counters = zero ? FabricCounters() : m_ctx.counters;
    m_warmup.ports.assign(m_network.NodeCount(), {});
    for (uint32_t node = 0; node < m_network.NodeCount(); ++node)
    {
        const FabricDevice* d = m_network.Device(node);
        if (!d)
        {
            continue;
        }
        std::vector<PortWarmup>& ports = m_warmup.ports[node];
        ports.assign(d->GetNPorts(), PortWarmup());
        for (uint32_t p = 0; !zero && p < d->GetNPorts(); ++p)
        {
            const Port& port = d->GetPort(p);
            for (uint8_t prio = 0; prio < kNumPriorities; ++prio)
            {
                ports[p].pausesSent[prio] = port.pausesSent[prio];
                ports[p].pausesReceived[prio] = port.pausesReceived[prio];
                ports[p].pausePs[prio] = port.PausedPsUntil(prio, now);
            }
        }
    }
}

void
RunController::Finish()
{
    m_finished = true;
    m_endPs = NowPs();
    // The warm-up snapshot is bookkeeping, not model: the event count stays what it was.
    m_events = ns3::Simulator::GetEventCount() - (m_warmupSnapshotTaken ? 1 : 0);
    if (!m_warmupSnapshotTaken)
    {
        TakeWarmupSnapshot();
    }
    m_faults.Finish();
    for (uint32_t node = 0; node < m_network.NodeCount(); ++node)
    {
        if (FabricDevice* d = m_network.Device(node))
        {
            d->ClosePauses(m_endPs);
        }
    }
    for (FabricSwitch* sw : m_network.Switches())
    {
        if (sw)
        {
            sw->FinishStats(m_endPs);
        }
    }
}

uint64_t
RunController::Events() const
{
    return m_finished ? m_events : ns3::Simulator::GetEventCount();
}

uint64_t
RunController::SimTimeNs() const
{
    return static_cast<uint64_t>((m_finished ? m_endPs : NowPs()) / 1000);
}

int64_t
RunController::EndPs() const
{
    return m_finished ? m_endPs : NowPs();
}

} // namespace fabric
