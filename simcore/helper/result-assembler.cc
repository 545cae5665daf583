/*
 * ResultAssembler (helper/result-assembler.h): the "summary" and "flows" objects of
 * docs/result-format.md, and the whole result composed from them, the monitor's series and the
 * optional blocks. Every list is sorted by name or id so output is deterministic.
 */
#include "helper/result-assembler.h"
#include "common/rounding.h"
#include "helper/network-builder.h"
#include "scenario/result-math.h"
#include "helper/result-reports.h"
#include "helper/run-controller.h"
#include "helper/run-monitor.h"
#include "model/fault-schedule.h"

#include <algorithm>
#include <cmath>
#include <tuple>

namespace fabric
{

double
LinkUtilization(const Port& port, int64_t warmupPs, int64_t endPs)
{
    if (endPs <= warmupPs)
    {
        return 0.0;
    }
    // Bits serialized inside [warm-up, end]: the busy time counted from the warm-up on, less
    // the part of the frame still on the wire at the end. Never more than the window.
    int64_t busy = port.txBusyPsWarm - std::max<int64_t>(0, port.busyUntil - endPs);
    busy = std::min<int64_t>(std::max<int64_t>(busy, 0), endPs - warmupPs);
    return static_cast<double>(busy) / static_cast<double>(endPs - warmupPs);
}

ResultAssembler::ResultAssembler(const RunView& run)
    : m_run(run)
{
}

nlohmann::ordered_json
ResultAssembler::Results() const
{
    nlohmann::ordered_json j;
    j["summary"] = Summary();
    j["flows"] = FlowRecords();
    j["series"] = m_run.monitor.Series();
    // Present only when they have something to say, so results without faults or probes stay
    // byte-identical to earlier versions.
    if (m_run.faults.Active() || !m_run.faults.Deadlocks().empty())
    {
        j["faults"] = FaultReport(m_run);
    }
    if (HasProbes(m_run.scenario))
    {
        j["pingmesh"] = PingmeshReport(m_run);
    }
    if (HasTransportReport(m_run))
    {
        j["transport"] = TransportReport(m_run);
    }
    if (m_run.scenario.portCounters)
    {
        j["port_counters"] = PortCountersReport(m_run);
    }
    if (m_run.scenario.dciAccelerator.enabled)
    {
        j["dci_accelerator"] = AcceleratorReport(m_run);
    }
    if (!m_run.scenario.jobs.empty())
    {
        j["jobs"] = JobReport(m_run);
    }
    return j;
}

nlohmann::ordered_json
ResultAssembler::Summary() const
{
    using json = nlohmann::ordered_json;
    const auto& nodes = m_run.scenario.topo.nodes;
    int64_t endPs = m_run.controller.EndPs();
    double windowS = std::max<int64_t>(0, endPs - m_run.ctx.warmupPs) / 1e12;
    json s;

    // Throughput
    uint64_t total = 0;
    std::vector<std::pair<std::string, double>> hosts;
    for (size_t i = 0; i < m_run.ctx.hostRxBytes.size() && i < nodes.size(); ++i)
    {
        total += m_run.ctx.hostRxBytes[i];
        if (m_run.ctx.hostRxBytes[i] > 0)
        {
            hosts.emplace_back(nodes[i].id,
                               windowS > 0 ? m_run.ctx.hostRxBytes[i] * 8.0 / windowS / 1e9 : 0.0);
        }
    }
    std::sort(hosts.begin(), hosts.end());
    s["throughput_gbps"] = RoundDecimals(windowS > 0 ? total * 8.0 / windowS / 1e9 : 0.0, 4);
    json hj = json::object();
    for (auto& [name, g] : hosts)
    {
        hj[name] = RoundDecimals(g, 4);
    }
    s["host_throughput_gbps"] = hj;

    // Link utilization, queues, PFC per port
    // Per directed link: utilization, ECN marks made at its egress, pauses its egress received.
    std::vector<std::tuple<std::string, double, uint64_t, uint64_t>> util;
    std::vector<std::tuple<std::string, int, uint64_t, double, double, uint64_t>> queues;
    std::vector<std::tuple<std::string, int, uint32_t, uint32_t, double, uint32_t, uint32_t, double>>
        pfc;
    uint64_t maxQueue = 0;
    uint64_t maxQueueRun = 0;
    const std::vector<FabricSwitch*>& switches = m_run.network.Switches();
    for (size_t d = 0; d < m_run.network.NodeCount(); ++d)
    {
        const FabricDevice* dev = m_run.network.Device(static_cast<uint32_t>(d));
        if (!dev)
        {
            continue;
        }
        for (uint32_t p = 0; p < dev->GetNPorts(); ++p)
        {
            const Port& port = dev->GetPort(p);
            const PortWarmup& warm = m_run.controller.Warmup().AtPort(static_cast<uint32_t>(d), p);
            std::string name = m_run.network.PortName(static_cast<uint32_t>(d), port.neighbor);
            double u = LinkUtilization(port, m_run.ctx.warmupPs, endPs);
            uint64_t pausesIn = 0;
            for (uint32_t prio = 0; prio < kNumPriorities; ++prio)
            {
                pausesIn += port.pausesReceived[prio];
            }
            if ((port.txWireBytesWarm > 0 && windowS > 0) || port.ecnMarked > 0 || pausesIn > 0)
            {
                util.emplace_back(name, u, port.ecnMarked, pausesIn);
            }
            for (uint32_t prio = 0; prio < kNumPriorities; ++prio)
            {
                if (port.pausesSent[prio] > 0 || port.pausesReceived[prio] > 0 || port.pausePs[prio] > 0)
                {
                    pfc.emplace_back(name, prio, port.pausesSent[prio], port.pausesReceived[prio],
                                     port.pausePs[prio] / 1e6,
                                     port.pausesSent[prio] - warm.pausesSent[prio],
                                     port.pausesReceived[prio] - warm.pausesReceived[prio],
                                     (port.PausedPsUntil(static_cast<uint8_t>(prio), endPs) -
                                      warm.pausePs[prio]) / 1e6);
                }
            }
            const FabricSwitch* sw = switches[d];
            if (!sw)
            {
                continue;
            }
            for (uint8_t prio = 0; prio < kControlPriority; ++prio)
            {
                const QueueStats& qs = sw->Stats(p, prio);
                if (!qs.everUsed || qs.maxBytesRun == 0)
                {
                    continue;
                }
                std::vector<double> samples(qs.zeroSamplesBefore, 0.0);
                samples.insert(samples.end(), qs.samples.begin(), qs.samples.end());
                std::sort(samples.begin(), samples.end());
                double mean = windowS > 0 ? qs.byteTimePs / (windowS * 1e12) : 0.0;
                queues.emplace_back(name, prio, qs.maxBytes, mean, Percentile(samples, 0.99),
                                    qs.maxBytesRun);
                maxQueue = std::max(maxQueue, qs.maxBytes);
                maxQueueRun = std::max(maxQueueRun, qs.maxBytesRun);
            }
        }
    }
    std::sort(util.begin(), util.end());
    std::sort(queues.begin(), queues.end());
    std::sort(pfc.begin(), pfc.end());
    json uj = json::array();
    for (auto& [name, u, marks, pausesIn] : util)
    {
        json e;
        e["link"] = name;
        e["utilization"] = RoundDecimals(u, 4);
        e["ecn_marked_packets"] = marks;
        e["pauses_received"] = pausesIn;
        uj.push_back(e);
    }
    s["link_utilization"] = uj;

    // FCT and slowdown of completed finite flows
    std::vector<double> fct;
    std::vector<double> slow;
    size_t completed = 0;
    const Transfers& transfers = m_run.scenario.transfers;
    for (const FlowState& f : m_run.ctx.flows)
    {
        // (a connection of markers alone has 0 bytes and completes with its last marker)
        bool connection = f.spec && transfers.Carries(f.spec->id);
        if (f.spec && (f.spec->sizeBytes > 0 || connection) && f.completePs >= 0)
        {
            ++completed;
            if (f.spec->probe || f.spec->local || connection)
            {
                continue; // probes: "pingmesh"; a collective's connections: "jobs"
            }
            double t = static_cast<double>(f.completePs - f.startPs);
            fct.push_back(t / 1e6);
            if (f.idealPs > 0)
            {
                slow.push_back(t / f.idealPs);
            }
        }
    }
    s["fct_us"] = DistributionJson(fct, false);
    s["slowdown"] = DistributionJson(slow, true);

    json qj = json::array();
    for (auto& [name, prio, mx, mean, p99, mxRun] : queues)
    {
        json q;
        q["queue"] = name;
        q["priority"] = prio;
        q["max_bytes"] = mx;
        q["max_bytes_whole_run"] = mxRun;
        q["mean_bytes"] = RoundDecimals(mean, 1);
        q["p99_bytes"] = RoundDecimals(p99, 1);
        qj.push_back(q);
    }
    s["queues"] = qj;
    s["max_queue_bytes"] = maxQueue;
    s["max_queue_bytes_whole_run"] = maxQueueRun;
    const FabricCounters& c = m_run.ctx.counters;
    s["ecn_marked_packets"] = c.ecnMarked;
    s["cnps_sent"] = c.cnpsSent;
    s["pfc_pauses_sent"] = c.pausesSent;
    s["pfc_pauses_received"] = c.pausesReceived;
    json pj = json::array();
    for (auto& [name, prio, sent, recv, us, sentWarm, recvWarm, usWarm] : pfc)
    {
        json e;
        e["port"] = name;
        e["priority"] = prio;
        e["pauses_sent"] = sent;
        e["pauses_received"] = recv;
        e["pause_duration_us"] = RoundDecimals(us, 3);
        e["pauses_sent_after_warmup"] = sentWarm;
        e["pauses_received_after_warmup"] = recvWarm;
        e["pause_duration_us_after_warmup"] = RoundDecimals(usWarm, 3);
        pj.push_back(e);
    }
    s["pfc"] = pj;
    json dj;
    uint64_t dropsTotal = 0;
    for (uint64_t d : c.drops)
    {
        dropsTotal += d;
    }
    dj["total"] = dropsTotal;
    dj["headroom_overflow"] = c.drops[DROP_HEADROOM_OVERFLOW];
    dj["buffer_overflow"] = c.drops[DROP_BUFFER_OVERFLOW];
    dj["tail_drop"] = c.drops[DROP_TAIL];
    if (m_run.faults.Active() || !m_run.faults.Deadlocks().empty())
    {
        // the fault reasons too, so the breakdown adds up to the total (runs without faults
        // cannot drop for them and keep the three keys they always had)
        dj["link_loss"] = c.drops[DROP_LINK_LOSS];
        dj["link_down"] = c.drops[DROP_LINK_DOWN];
        dj["pfc_watchdog"] = c.drops[DROP_PFC_WATCHDOG];
        dj["nic_rx_overflow"] = c.drops[DROP_NIC_RX_OVERFLOW];
    }
    s["drops"] = dj;
    if (TrimmingEnabled(m_run.scenario))
    {
        // frames cut to their header instead of dropped: not drops, no byte lost
        s["trimmed_packets"] = c.trimmedPackets;
    }
    s["retransmitted_packets"] = c.retransmitted;
    s["flows_total"] = m_run.ctx.flows.size();
    s["flows_completed"] = completed;
    s["conservation"] = ConservationReport(m_run, DataInNetwork(m_run));
    s["counters"] = {{"whole_run", CounterBlock(m_run, false)}, {"after_warmup", CounterBlock(m_run, true)}};
    s["ingress"] = IngressReport(m_run);
    return s;
}

nlohmann::ordered_json
ResultAssembler::FlowRecords() const
{
    using json = nlohmann::ordered_json;
    const auto& nodes = m_run.scenario.topo.nodes;
    int64_t endPs = m_run.controller.EndPs();
    std::vector<uint32_t> order(m_run.ctx.flows.size());
    for (size_t i = 0; i < order.size(); ++i)
    {
        order[i] = static_cast<uint32_t>(i);
    }
    std::sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
        return m_run.scenario.flows[a].id < m_run.scenario.flows[b].id;
    });
    auto name = [&](uint32_t n) { return n < nodes.size() ? nodes[n].id : std::to_string(n); };
    InNetwork inNet = DataInNetwork(m_run);
    json arr = json::array();
    const std::vector<JobFlow>& jobFlows = m_run.scenario.jobFlows;
    for (uint32_t i : order)
    {
        if (i < jobFlows.size() && jobFlows[i].job != UINT32_MAX)
        {
            continue; // a collective's steps are in "jobs" (there may be millions)
        }
        const FlowSpec& s = m_run.scenario.flows[i];
        const FlowState& f = m_run.ctx.flows[i];
        json r = FlowRecordHead(m_run.scenario, i, f.started, static_cast<double>(f.startPs));
        bool done = s.sizeBytes > 0 && f.completePs >= 0;
        if (done)
        {
            double fct = static_cast<double>(f.completePs - f.startPs);
            r["fct_us"] = RoundDecimals(fct / 1e6, 3);
        }
        else
        {
            r["fct_us"] = nullptr;
        }
        // Until the sender got the last ACK (the HPCC simulator's and perftest's FCT).
        r["sender_fct_us"] = done && f.senderDonePs >= 0
                                 ? json(RoundDecimals((f.senderDonePs - f.startPs) / 1e6, 3))
                                 : json(nullptr);
        if (s.sizeBytes > 0 && f.idealPs > 0)
        {
            r["ideal_fct_us"] = RoundDecimals(f.idealPs / 1e6, 3);
        }
        else
        {
            r["ideal_fct_us"] = nullptr;
        }
        if (done && f.idealPs > 0)
        {
            r["slowdown"] = RoundDecimals((f.completePs - f.startPs) / f.idealPs, 4);
        }
        else
        {
            r["slowdown"] = nullptr;
        }
        r["bytes_delivered"] = f.bytesDelivered;
        double goodput = 0;
        if (f.started)
        {
            int64_t until = done ? f.completePs : endPs;
            if (until > f.startPs)
            {
                goodput = f.bytesDelivered * 8.0 / ((until - f.startPs) / 1e12) / 1e9;
            }
        }
        r["goodput_gbps"] = RoundDecimals(goodput, 4);
        r["retransmits"] = f.retransmits;
        r["bytes_sent"] = f.bytesSent;
        r["bytes_retransmitted"] = f.bytesRetransmitted;
        r["bytes_received"] = f.bytesReceived;
        r["bytes_dropped"] = f.bytesDropped;
        r["bytes_in_network"] = inNet.onWire[i] + inNet.queued[i];
        // Goodput inside the measurement window: bytes delivered after the warm-up over the
        // part of the window the flow was active (from its start or the warm-up, whichever is
        // later, to its completion or the end of the run).
        double goodputWarm = 0;
        if (f.started)
        {
            int64_t from = std::max<int64_t>(f.startPs, m_run.ctx.warmupPs);
            int64_t until = done ? f.completePs : endPs;
            if (until > from)
            {
                goodputWarm = f.bytesDeliveredInWindow * 8.0 / ((until - from) / 1e12) / 1e9;
            }
        }
        r["goodput_after_warmup_gbps"] = RoundDecimals(goodputWarm, 4);
        if (IsErdFlow(m_run, s))
        {
            r["erd"] = ErdFlowCounters(f);
        }
        if (m_run.scenario.flowPaths)
        {
            json path = json::array();
            const std::vector<uint32_t>& hops = m_run.ctx.flowPaths[i];
            for (uint32_t n : hops)
            {
                path.push_back(name(n));
            }
            // Null until a copy of the first packet left the last switch toward the receiver.
            r["path"] = hops.empty() || hops.back() != s.dst ? json(nullptr) : path;
        }
        arr.push_back(r);
    }
    return arr;
}

} // namespace fabric
