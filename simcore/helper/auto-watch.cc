/*
 * The automatic monitor (helper/auto-watch.h): sample every switch egress queue, every port's
 * pause state and every flow's rate while the run goes, then keep the deepest queues, the
 * longest-paused ports and the slowest flows. The per-sample cost is one read per port plus one
 * per flow still delivering, so it stays small beside the packet events.
 */
#include "helper/auto-watch.h"
#include "common/rounding.h"
#include "helper/network-builder.h"

#include <algorithm>
#include <cmath>

namespace fabric
{

namespace
{

uint8_t
PauseState(const FabricDevice& d, const FabricSwitch* sw, uint32_t p, int64_t now)
{
    const Port& port = d.GetPort(p);
    uint8_t state = 0;
    for (uint8_t prio = 0; prio < kControlPriority; ++prio)
    {
        // Same test as FabricDevice::IsPaused, without its lazy bookkeeping.
        if (((port.pausedMask >> prio) & 1) != 0 && now < port.pausedUntil[prio])
        {
            state |= 1;
        }
    }
    if (sw && sw->IsPausing(p))
    {
        state |= 2;
    }
    return state;
}

std::string
Plural(std::size_t n, const char* one, const char* many)
{
    return std::to_string(n) + " " + (n == 1 ? one : many);
}

} // namespace

AutoWatch::AutoWatch(const Scenario& scenario, const FabricContext& ctx, const NetworkBuilder& network)
    : m_scenario(scenario),
      m_ctx(ctx),
      m_network(network)
{
}

void
AutoWatch::Init(int64_t sampleIntervalPs)
{
    m_sampleIntervalPs = sampleIntervalPs;
    const std::vector<FabricSwitch*>& switches = m_network.Switches();
    const MonitorConfig& mon = m_scenario.monitor;
    uint64_t samples = m_scenario.durationNs * 1000 / static_cast<uint64_t>(m_sampleIntervalPs) + 2;
    if (mon.queuesAuto)
    {
        for (size_t n = 0; n < switches.size(); ++n)
        {
            if (!switches[n])
            {
                continue;
            }
            for (uint32_t p = 0; p < switches[n]->GetNPorts(); ++p)
            {
                m_queuePorts.push_back({static_cast<uint32_t>(n), p, switches[n]->GetPort(p).neighbor});
            }
        }
        m_queuesOn = m_queuePorts.size() * samples <= kAutoPortSampleBudget;
        m_queues.assign(m_queuesOn ? m_queuePorts.size() : 0, {});
    }
    if (mon.portsAuto)
    {
        for (size_t n = 0; n < m_network.NodeCount(); ++n)
        {
            const FabricDevice* d = m_network.Device(static_cast<uint32_t>(n));
            for (uint32_t p = 0; d && p < d->GetNPorts(); ++p)
            {
                m_pausePorts.push_back({static_cast<uint32_t>(n), p, d->GetPort(p).neighbor});
            }
        }
        // One byte per sample: four times the queue budget in the same memory.
        m_pausesOn = m_pausePorts.size() * samples <= 4 * kAutoPortSampleBudget;
        m_pauses.assign(m_pausesOn ? m_pausePorts.size() : 0, {});
    }
    if (mon.flowsAuto)
    {
        m_flowsOn = true;
        m_flowSeries.assign(m_ctx.flows.size(), {});
        m_flowState.assign(m_ctx.flows.size(), 0);
        m_flowBytesAtLastSample.assign(m_ctx.flows.size(), 0);
    }
}

void
AutoWatch::Sample(uint32_t si, std::size_t flowsStarted)
{
    int64_t now = NowPs();
    const std::vector<FabricSwitch*>& switches = m_network.Switches();
    for (size_t i = 0; i < m_queues.size(); ++i)
    {
        const AutoPort& a = m_queuePorts[i];
        uint64_t bytes = switches[a.node]->DataQueueBytes(a.port);
        m_queues[i].Push(si, static_cast<uint32_t>(std::min<uint64_t>(bytes, UINT32_MAX)));
    }
    for (size_t i = 0; i < m_pauses.size(); ++i)
    {
        const AutoPort& a = m_pausePorts[i];
        const FabricDevice* d = m_network.Device(a.node);
        m_pauses[i].Push(si, PauseState(*d, switches[a.node], a.port, now));
    }
    if (!m_flowsOn)
    {
        return;
    }
    // Admit the flows started since the last sample.
    const std::vector<uint32_t>& order = m_network.StartOrder();
    for (; m_flowCursor < flowsStarted; ++m_flowCursor)
    {
        uint32_t fi = order[m_flowCursor];
        if (fi < m_ctx.flows.size() && m_ctx.flows[fi].valid)
        {
            m_flowActive.push_back(fi);
        }
    }
    double intervalS = m_sampleIntervalPs / 1e12;
    size_t kept = 0;
    for (uint32_t fi : m_flowActive)
    {
        const FlowState& f = m_ctx.flows[fi];
        uint64_t delta = f.bytesDelivered - m_flowBytesAtLastSample[fi];
        m_flowBytesAtLastSample[fi] = f.bytesDelivered;
        if (m_flowState[fi] == 0 && !m_flowBudgetHit)
        {
            m_flowState[fi] = 1;
            m_flowSeries[fi].first = si;
        }
        if (m_flowState[fi] == 1)
        {
            if (m_flowSamples >= kAutoFlowSampleBudget)
            {
                // Out of memory budget: this flow's series would be cut short, so it is not shown.
                m_flowBudgetHit = true;
                m_flowState[fi] = 2;
                m_flowSeries[fi] = {};
            }
            else
            {
                m_flowSeries[fi].values.push_back(RoundDecimals(delta * 8.0 / intervalS / 1e9, 4));
                ++m_flowSamples;
            }
        }
        bool finished = f.completePs >= 0 && delta == 0;
        if (!finished)
        {
            m_flowActive[kept++] = fi;
        }
    }
    m_flowActive.resize(kept);
}

void
AutoWatch::QueueSeries(nlohmann::ordered_json& out, nlohmann::ordered_json& selection,
                       std::size_t nSamples) const
{
    const std::vector<FabricSwitch*>& switches = m_network.Switches();
    std::vector<Ranked> all;
    for (size_t i = 0; i < m_queuePorts.size(); ++i)
    {
        const AutoPort& a = m_queuePorts[i];
        uint64_t maxRun = 0;
        for (uint8_t prio = 0; prio < kControlPriority; ++prio)
        {
            maxRun = std::max(maxRun, switches[a.node]->MaxBytesRun(a.port, prio));
        }
        if (maxRun == 0)
        {
            continue;
        }
        double area = 0;
        for (uint32_t v : m_queues[i].values)
        {
            area += v;
        }
        all.push_back({i, static_cast<double>(maxRun), area, m_network.PortName(a.node, a.neighbor)});
    }
    std::size_t nonEmpty = all.size();
    for (std::size_t i : TopRanked(std::move(all), kAutoWatchCount))
    {
        const AutoPort& a = m_queuePorts[i];
        std::vector<uint32_t> v = m_queues[i].Expand(nSamples);
        out[m_network.PortName(a.node, a.neighbor)] = std::vector<double>(v.begin(), v.end());
    }
    selection["queues"] =
        nonEmpty == 0 ? "auto: no switch egress queue held data during the run"
                      : "auto: the " + Plural(out.size(), "deepest", "deepest") + " of " +
                            Plural(nonEmpty, "switch egress queue", "switch egress queues") +
                            " that held data, by largest depth over the whole run (warm-up "
                            "included), deepest first";
}

void
AutoWatch::PauseSeries(nlohmann::ordered_json& out, nlohmann::ordered_json& selection,
                       std::size_t nSamples) const
{
    std::vector<Ranked> all;
    for (size_t i = 0; i < m_pausePorts.size(); ++i)
    {
        const AutoPort& a = m_pausePorts[i];
        const Port& port = m_network.Device(a.node)->GetPort(a.port);
        uint64_t frames = 0;
        for (uint32_t prio = 0; prio < kNumPriorities; ++prio)
        {
            frames += port.pausesSent[prio] + port.pausesReceived[prio];
        }
        uint64_t pausedSamples = NonZeroSamples(m_pauses[i]);
        if (pausedSamples == 0 && frames == 0)
        {
            continue;
        }
        all.push_back({i, static_cast<double>(pausedSamples), static_cast<double>(frames),
                       m_network.PortName(a.node, a.neighbor)});
    }
    std::size_t active = all.size();
    for (std::size_t i : TopRanked(std::move(all), kAutoWatchCount))
    {
        const AutoPort& a = m_pausePorts[i];
        std::vector<uint8_t> v = m_pauses[i].Expand(nSamples);
        out[m_network.PortName(a.node, a.neighbor)] = std::vector<int>(v.begin(), v.end());
    }
    selection["ports"] =
        active == 0 ? "auto: no port was paused or sent a pause frame during the run"
                    : "auto: the " + std::to_string(out.size()) + " of " +
                          Plural(active, "port", "ports") +
                          " that paused or were paused, by time spent in a pause state "
                          "(sampled), then pause frames sent and received";
}

void
AutoWatch::FlowSeries(nlohmann::ordered_json& out, nlohmann::ordered_json& selection,
                      std::size_t nSamples, int64_t endPs) const
{
    std::vector<Ranked> finite;
    std::vector<Ranked> longLived;
    for (size_t i = 0; i < m_ctx.flows.size(); ++i)
    {
        const FlowState& f = m_ctx.flows[i];
        if (m_flowState[i] != 1 || !f.spec)
        {
            continue;
        }
        std::string name = std::to_string(f.spec->id);
        if (f.spec->sizeBytes == 0)
        {
            double seconds = std::max<int64_t>(1, endPs - f.startPs) / 1e12;
            double goodput = f.bytesDelivered * 8.0 / seconds;
            longLived.push_back({i, -goodput, 0, name});
            continue;
        }
        // Slowdown; a flow still running gets the lower bound (time so far / ideal FCT).
        bool done = f.completePs >= 0;
        double elapsed = static_cast<double>((done ? f.completePs : endPs) - f.startPs);
        double slowdown = f.idealPs > 0 ? elapsed / f.idealPs : 0;
        // A flow that lived through fewer than kMinVisibleSamples samples, or too small to have a
        // rate worth plotting (a 512 B pingmesh probe stuck behind a deep queue), is a spike or
        // nothing on a rate chart: such flows come after every flow that can be seen.
        bool visible = m_flowSeries[i].values.size() >= kMinVisibleSamples &&
                       f.spec->sizeBytes >= kMinVisibleFlowBytes;
        finite.push_back({i, visible ? slowdown : slowdown - 1e12, done ? 0.0 : 1.0, name});
    }
    std::size_t nFinite = finite.size();
    std::size_t nLong = longLived.size();
    std::size_t nVisible = 0;
    for (const Ranked& r : finite)
    {
        nVisible += r.score > -1e11;
    }
    // Both kinds present: half each, the other kind fills what one cannot; finite flows with
    // nothing to see on a rate chart only fill what is left after the long-lived ones.
    std::size_t wantLong = nVisible == 0 ? kAutoWatchCount : std::min(nLong, kAutoWatchCount / 2);
    wantLong = std::min(nLong, wantLong);
    std::size_t wantFinite = std::min(nFinite, kAutoWatchCount - wantLong);
    wantLong = std::min(nLong, kAutoWatchCount - wantFinite);
    std::vector<std::size_t> chosen = TopRanked(std::move(finite), wantFinite);
    for (std::size_t i : TopRanked(std::move(longLived), wantLong))
    {
        chosen.push_back(i);
    }
    for (std::size_t i : chosen)
    {
        out[std::to_string(m_ctx.flows[i].spec->id)] = m_flowSeries[i].Expand(nSamples);
    }
    std::string text = "auto: ";
    if (chosen.empty())
    {
        text += "no flow started";
    }
    else
    {
        std::vector<std::string> parts;
        if (wantFinite > 0)
        {
            parts.push_back("the " + Plural(wantFinite, "slowest", "slowest") + " of " +
                            Plural(nFinite, "finite flow", "finite flows") +
                            " by slowdown (running flows by time so far / ideal FCT; flows "
                            "under 10 KB or 3 samples last)");
        }
        if (wantLong > 0)
        {
            parts.push_back("the " + std::to_string(wantLong) + " of " +
                            Plural(nLong, "long-lived flow", "long-lived flows") +
                            " with the lowest goodput");
        }
        text += parts[0] + (parts.size() > 1 ? "; " + parts[1] : "");
    }
    if (m_flowBudgetHit)
    {
        text += " (flows past the sampling memory budget were not candidates)";
    }
    selection["flows"] = text;
}

} // namespace fabric
