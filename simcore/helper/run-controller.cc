#include "helper/run-controller.h"
#include "helper/flow-dependencies.h"
#include "helper/network-builder.h"
#include "helper/partitioner.h"
#include "scenario/process-memory.h"
#include "scenario/path-timing.h"
#include "helper/run-monitor.h"
#include "model/fault-schedule.h"
#include "model/rdma-nic.h"
#include "common/wire.h"

#include <algorithm>

#include "model/fabric-simulator-impl.h"

#include "ns3/simulator.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <stdexcept>


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
        // The ACK's way back of every flow a dependency learns of through its acknowledgement.
        const auto& specs = scenario.flows;
        const FlowDependencies& d = scenario.deps;
        std::vector<int64_t> ackReturnPs(specs.size(), 0);
        for (std::size_t w = 0; !d.Empty() && w < specs.size(); ++w)
        {
            for (uint32_t k = d.begin[w]; k < d.begin[w + 1]; ++k)
            {
                uint32_t in = d.on[k];
                const RdmaNic* nic = specs[in].src < network.Nics().size()
                                         ? network.Nics()[specs[in].src]
                                         : nullptr;
                if (ackReturnPs[in] > 0 || !nic ||
                    !FlowDependencyTracker::Acknowledged(specs[in], specs[w]))
                {
                    continue;
                }
                const NicConfig& nc = nic->Config();
                ackReturnPs[in] = static_cast<int64_t>(std::ceil(AckReturnPs(
                    network.PathOf(specs[in]), nc.headerBytes + nc.preambleIfgBytes + kAethBytes)));
            }
        }
        const Transfers& tr = scenario.transfers;
        for (std::size_t w = 0; !tr.Empty() && w < tr.Size(); ++w)
        {
            for (uint32_t k = tr.deps.begin[w]; k < tr.deps.begin[w + 1]; ++k)
            {
                uint32_t in = tr.flow[tr.deps.on[k]];
                const RdmaNic* nic = specs[in].src < network.Nics().size()
                                         ? network.Nics()[specs[in].src]
                                         : nullptr;
                if (ackReturnPs[in] > 0 || !nic ||
                    !FlowDependencyTracker::Acknowledged(specs[in], specs[tr.flow[w]]))
                {
                    continue;
                }
                const NicConfig& nc = nic->Config();
                ackReturnPs[in] = static_cast<int64_t>(std::ceil(AckReturnPs(
                    network.PathOf(specs[in]), nc.headerBytes + nc.preambleIfgBytes + kAethBytes)));
            }
        }
        // A ring program's connections: their window and a later iteration's first transfers
        // wait for what the same sender sent (acknowledged), on any of them.
        for (std::size_t in = 0; in < tr.ringOf.size(); ++in)
        {
            const RdmaNic* nic = specs[in].src < network.Nics().size() ? network.Nics()[specs[in].src]
                                                                       : nullptr;
            if (!tr.InRing(static_cast<uint32_t>(in)) || specs[in].local || !nic ||
                ackReturnPs[in] > 0)
            {
                continue;
            }
            const NicConfig& nc = nic->Config();
            ackReturnPs[in] = static_cast<int64_t>(std::ceil(AckReturnPs(
                network.PathOf(specs[in]), nc.headerBytes + nc.preambleIfgBytes + kAethBytes)));
        }
        m_dependencies = std::make_unique<FlowDependencyTracker>(scenario, ctx, network.Nics(),
                                                                 std::move(ackReturnPs));
    }
}

RunController::~RunController() = default;

void
RunController::ScheduleFlowStarts()
{
    // Each sending NIC starts its own flows, in start order, with events of its own: a flow's
    // start touches only its sender, so a partition runs it without stopping the others.
    const auto& specs = m_scenario.flows;
    const std::vector<RdmaNic*>& nics = m_network.Nics();
    m_nicStarts.assign(nics.size(), {});
    m_nicCursor.assign(nics.size(), 0);
    for (uint32_t i : m_network.StartOrder())
    {
        if (specs[i].src < nics.size() && nics[specs[i].src])
        {
            m_nicStarts[specs[i].src].push_back(i);
        }
    }
    for (uint32_t node = 0; node < m_nicStarts.size(); ++node)
    {
        if (!m_nicStarts[node].empty())
        {
            int64_t at = static_cast<int64_t>(specs[m_nicStarts[node][0]].startNs) * 1000;
            ns3::Simulator::ScheduleWithContext(node, ns3::PicoSeconds(at),
                                                &RunController::StartNicFlows, this, node);
        }
    }
}

void
RunController::StartNicFlows(uint32_t node)
{
    const auto& specs = m_scenario.flows;
    int64_t now = NowPs();
    const std::vector<uint32_t>& mine = m_nicStarts[node];
    uint32_t& cursor = m_nicCursor[node];
    while (cursor < mine.size())
    {
        uint32_t i = mine[cursor];
        int64_t at = static_cast<int64_t>(specs[i].startNs) * 1000;
        if (at > now)
        {
            ns3::Simulator::Schedule(ns3::PicoSeconds(at - now), &RunController::StartNicFlows,
                                     this, node);
            return;
        }
        ++cursor;
        m_network.Nics()[node]->StartFlow(i);
    }
}

std::size_t
RunController::FlowsStarted() const
{
    // The entries of the start order due by now (the monitor admits them when it samples; a
    // flow due at this very instant may not have sent yet, and shows zero bytes until it does).
    const auto& specs = m_scenario.flows;
    const std::vector<uint32_t>& order = m_network.StartOrder();
    int64_t now = NowPs();
    while (m_nextStart < order.size() &&
           static_cast<int64_t>(specs[order[m_nextStart]].startNs) * 1000 <= now)
    {
        ++m_nextStart;
    }
    return m_nextStart;
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

namespace
{

/**
 * Runs where one thread's share of the fabric has at least this many ports (link ends) fetch the
 * next event's lines while the current one runs (FabricSimulatorImpl::Prefetch::NEXT), and from
 * kPrefetchAheadFromPorts several events ahead in stages (Prefetch::AHEAD). Measured
 * (docs/benchmarks.md, "Cost per event and fabric size"): the one-event form gains from a k=16
 * fat tree (6,144 ports) up, also k=16 on 2 threads (3,072 a partition) on the 2-core machine,
 * not on Reference A and the HPCC benchmark (960), nor, it seems, k=16 on 16 threads (384 a
 * partition, whose share fits a core's caches); the stages lose to it at k=16 and k=24 (20,736)
 * and win at k=32 (49,152). A parallel run counts its ports per partition.
 */
constexpr size_t kPrefetchFromPorts = 2048;
constexpr size_t kPrefetchAheadFromPorts = 32768;

/**
 * A fabric of at least kSplitFromPorts ports runs in partitions of about kPortsPerPartition
 * ports even on one thread, each thread taking its partitions in turn, one window at a time: a
 * partition's state then stays in the caches through its window, where the whole fabric's would
 * not (the cost per event that grew with the fabric, docs/benchmarks.md). At most
 * kMaxPartitions; none where the scenario cannot run partitioned (ParallelRefusal).
 */
constexpr size_t kSplitFromPorts = 2048;
constexpr size_t kPortsPerPartition = 384;
constexpr uint32_t kMaxPartitions = 256;

uint32_t
PartitionsFor(size_t ports, uint32_t threads)
{
    if (ports < kSplitFromPorts)
    {
        return threads;
    }
    size_t bySize = std::min<size_t>(kMaxPartitions, ports / kPortsPerPartition);
    return std::max(threads, static_cast<uint32_t>(bySize));
}

size_t
PortCount(const NetworkBuilder& network)
{
    size_t n = 0;
    for (uint32_t node = 0; node < network.NodeCount(); ++node)
    {
        if (const FabricDevice* d = network.Device(node))
        {
            n += d->GetNPorts();
        }
    }
    return n;
}

} // namespace

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

    uint32_t parts = limits.partitions;
    if (parts == 0)
    {
        // FABRICSIM_PARTITIONS=N overrides the size rule (bench/: both sides on one fabric).
        const char* force = std::getenv("FABRICSIM_PARTITIONS");
        parts = force ? static_cast<uint32_t>(std::strtoul(force, nullptr, 10)) : 0;
    }
    if (parts == 0)
    {
        parts = PartitionsFor(PortCount(m_network), limits.threads);
    }
    // What cannot run partitioned runs whole: --threads N > 1 was refused before it (fabricsim,
    // one line), so this is one thread taking the fabric whole, as without partitions.
    parts = ParallelRefusal(m_scenario).empty() ? std::max(parts, limits.threads) : limits.threads;
    auto sim = ns3::DynamicCast<FabricSimulatorImpl>(ns3::Simulator::GetImplementation());
    bool canSplit = sim && sim->CanPartition();
    if (parts > 1 && (canSplit || limits.threads > 1))
    {
        m_partitions = std::make_unique<Partitioning>(PlanPartitions(m_scenario, m_network, parts));
        if (m_partitions->plan.parts > 1)
        {
            m_ctx.partitionCounters.assign(m_partitions->plan.parts, FabricCounters());
            if (!canSplit)
            {
                throw std::runtime_error("--threads needs the fabric engine and its scheduler "
                                         "(FABRICSIM_SIMULATOR or FABRICSIM_SCHEDULER names "
                                         "another)");
            }
            PartitionPlan plan = m_partitions->plan;
            plan.threads = limits.threads;
            FabricContext* ctx = &m_ctx;
            plan.onEnterPartition = [ctx](uint32_t part)
            {
                t_partitionCounters =
                    part == PartitionPlan::kNoPartition ? nullptr : &ctx->partitionCounters[part];
            };
            sim->SetPartitions(plan);
        }
    }
    if (auto impl = ns3::DynamicCast<FabricSimulatorImpl>(ns3::Simulator::GetImplementation()))
    {
        size_t parts = m_partitions ? std::max<size_t>(1, m_partitions->plan.parts) : 1;
        size_t share = PortCount(m_network) / parts;
        using Prefetch = FabricSimulatorImpl::Prefetch;
        Prefetch mode = share >= kPrefetchAheadFromPorts ? Prefetch::AHEAD
                        : share >= kPrefetchFromPorts    ? Prefetch::NEXT
                                                         : Prefetch::NONE;
        // FABRICSIM_PREFETCH=none, next or ahead overrides the rule (bench/: both sides measured
        // on one fabric). Results are the same bytes whichever runs.
        if (const char* force = std::getenv("FABRICSIM_PREFETCH"))
        {
            std::string f(force);
            mode = f == "ahead" ? Prefetch::AHEAD : f == "next" ? Prefetch::NEXT : Prefetch::NONE;
        }
        impl->SetPrefetch(mode);
    }
    ScheduleFlowStarts();
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
    m_warmup.counters = zero ? FabricCounters() : TotalCounters(m_ctx);
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
    // Partitions' counters into the fabric's (a parallel run).
    m_ctx.counters = TotalCounters(m_ctx);
    m_ctx.partitionCounters.clear();
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
