#include "helper/run-monitor.h"
#include "common/rounding.h"
#include "helper/network-builder.h"
#include "helper/run-controller.h"

#include "ns3/simulator.h"

#include <algorithm>
#include <cmath>
#include <unordered_map>

namespace fabric
{

RunMonitor::RunMonitor(const Scenario& scenario, const FabricContext& ctx, const NetworkBuilder& network,
                       const RunController& controller)
    : m_scenario(scenario),
      m_ctx(ctx),
      m_network(network),
      m_controller(controller),
      m_auto(scenario, ctx, network)
{
}

void
RunMonitor::Start()
{
    const MonitorConfig& mon = m_scenario.monitor;
    m_sampleIntervalPs = std::max<int64_t>(1000, static_cast<int64_t>(mon.sampleIntervalUs * 1e6));
    std::unordered_map<uint32_t, uint32_t> byId;
    for (size_t i = 0; i < m_scenario.flows.size(); ++i)
    {
        byId.emplace(m_scenario.flows[i].id, static_cast<uint32_t>(i));
    }
    m_auto.Init(m_sampleIntervalPs);
    for (uint32_t id : mon.flows)
    {
        if (m_auto.FlowsOn())
        {
            break;
        }
        auto it = byId.find(id);
        m_watchedFlows.push_back(it == byId.end() ? UINT32_MAX : it->second);
    }
    m_queueSeries.assign(mon.queues.size(), {});
    m_flowSeries.assign(m_watchedFlows.size(), {});
    m_pauseSeries.assign(mon.ports.size(), {});
    m_flowBytesAtLastSample.assign(m_ctx.flows.size(), 0);
    ns3::Simulator::Schedule(ns3::Seconds(0), &RunMonitor::Sample, this);
}

void
RunMonitor::Sample()
{
    int64_t now = NowPs();
    m_tUs.push_back(RoundDecimals(now / 1e6, 3));
    const MonitorConfig& mon = m_scenario.monitor;
    for (size_t i = 0; i < mon.queues.size() && !m_auto.QueuesOn(); ++i)
    {
        const PortRef& r = mon.queues[i];
        double v = 0;
        if (const FabricSwitch* sw = m_network.Switch(r.node))
        {
            uint32_t p = sw->PortToward(r.neighbor);
            if (p != UINT32_MAX)
            {
                v = static_cast<double>(sw->DataQueueBytes(p));
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
            const FlowState& f = m_ctx.flows[fi];
            uint64_t delta = f.bytesDelivered - m_flowBytesAtLastSample[fi];
            m_flowBytesAtLastSample[fi] = f.bytesDelivered;
            v = RoundDecimals(delta * 8.0 / intervalS / 1e9, 4);
        }
        m_flowSeries[i].push_back(v);
    }
    for (size_t i = 0; i < mon.ports.size() && !m_auto.PausesOn(); ++i)
    {
        const PortRef& r = mon.ports[i];
        int state = 0;
        FabricDevice* d = m_network.Device(r.node); // IsPaused settles expired pauses
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
                const FabricSwitch* sw = m_network.Switch(r.node);
                if (sw && sw->IsPausing(p))
                {
                    state |= 2;
                }
            }
        }
        m_pauseSeries[i].push_back(state);
    }
    m_auto.Sample(static_cast<uint32_t>(m_tUs.size() - 1), m_controller.FlowsStarted());
    if (now >= m_ctx.warmupPs)
    {
        for (FabricSwitch* sw : m_network.Switches())
        {
            if (sw)
            {
                sw->SampleQueues();
            }
        }
    }
    ns3::Simulator::Schedule(ns3::PicoSeconds(m_sampleIntervalPs), &RunMonitor::Sample, this);
}

nlohmann::ordered_json
RunMonitor::Series() const
{
    using json = nlohmann::ordered_json;
    const MonitorConfig& mon = m_scenario.monitor;
    json s;
    s["interval_us"] = RoundDecimals(m_sampleIntervalPs / 1e6, 3);
    s["t_us"] = m_tUs;
    const std::string listed = "listed in the scenario (monitor)";
    json selection;
    json q = json::object();
    if (m_auto.QueuesOn())
    {
        m_auto.QueueSeries(q, selection, m_tUs.size());
    }
    else
    {
        for (size_t i = 0; i < mon.queues.size() && i < m_queueSeries.size(); ++i)
        {
            q[m_network.PortName(mon.queues[i].node, mon.queues[i].neighbor)] = m_queueSeries[i];
        }
        selection["queues"] = mon.queuesAuto ? "auto: the switch ports toward the receiving hosts "
                                               "(too many ports to sample them all)"
                                             : listed;
    }
    s["queues"] = q;
    json f = json::object();
    if (m_auto.FlowsOn())
    {
        m_auto.FlowSeries(f, selection, m_tUs.size(), m_controller.EndPs());
    }
    else
    {
        for (size_t i = 0; i < mon.flows.size() && i < m_flowSeries.size(); ++i)
        {
            f[std::to_string(mon.flows[i])] = m_flowSeries[i];
        }
        selection["flows"] = listed;
    }
    s["flow_rates_gbps"] = f;
    json p = json::object();
    if (m_auto.PausesOn())
    {
        m_auto.PauseSeries(p, selection, m_tUs.size());
    }
    else
    {
        for (size_t i = 0; i < mon.ports.size() && i < m_pauseSeries.size(); ++i)
        {
            p[m_network.PortName(mon.ports[i].node, mon.ports[i].neighbor)] = m_pauseSeries[i];
        }
        selection["ports"] = mon.portsAuto ? "auto: the watched queues' ports (too many ports to "
                                             "sample them all)"
                                           : listed;
    }
    s["pause"] = p;
    s["selection"] = selection;
    return s;
}

} // namespace fabric
