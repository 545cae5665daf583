/*
 * Conservation of DATA payload bytes (docs/result-format.md, "conservation"): every byte a
 * sender put on the wire either reached its receiver, was dropped (by reason), or is still in
 * the network when the run ends (on a link or in a switch queue). The in-network part is
 * counted here by walking the wires and queues, independently of the counters, so the identity
 * sent = received + dropped + in network is a check, not a definition.
 */
#include "helper/result-reports.h"
#include "helper/network-builder.h"
#include "helper/run-controller.h"

#include <algorithm>
#include <cmath>
#include <tuple>

namespace fabric
{

InNetwork
DataInNetwork(const RunView& run)
{
    InNetwork in;
    std::size_t n = run.ctx.flows.size();
    in.onWire.assign(n, 0);
    in.queued.assign(n, 0);
    const std::vector<FabricSwitch*>& switches = run.network.Switches();
    for (std::size_t d = 0; d < run.network.NodeCount(); ++d)
    {
        const FabricDevice* dev = run.network.Device(static_cast<uint32_t>(d));
        if (!dev)
        {
            continue;
        }
        for (uint32_t p = 0; p < dev->GetNPorts(); ++p)
        {
            dev->GetPort(p).inFlight.ForEach(
                [&in, n](const InFlight& f)
                {
                    if (f.pkt.kind == PacketKind::DATA && f.pkt.flow < n)
                    {
                        in.onWire[f.pkt.flow] += f.pkt.payload;
                    }
                });
        }
        if (d < switches.size() && switches[d])
        {
            switches[d]->ForEachQueued(
                [&in, n](const RocePacket& pkt)
                {
                    if (pkt.kind == PacketKind::DATA && pkt.flow < n)
                    {
                        in.queued[pkt.flow] += pkt.payload;
                    }
                });
        }
    }
    return in;
}

bool
TrimmingEnabled(const Scenario& scenario)
{
    for (std::size_t i = 0; i < scenario.switchCfg.size(); ++i)
    {
        if (!scenario.topo.nodes[i].isHost && scenario.switchCfg[i].trimming)
        {
            return true;
        }
    }
    return false;
}

nlohmann::ordered_json
ConservationReport(const RunView& run, const InNetwork& in)
{
    uint64_t sent = 0;
    uint64_t retransmitted = 0;
    uint64_t received = 0;
    uint64_t delivered = 0;
    uint64_t droppedByFlows = 0;
    uint64_t onWire = 0;
    uint64_t queued = 0;
    for (std::size_t i = 0; i < run.ctx.flows.size(); ++i)
    {
        const FlowState& f = run.ctx.flows[i];
        sent += f.bytesSent;
        retransmitted += f.bytesRetransmitted;
        received += f.bytesReceived;
        delivered += f.bytesDelivered;
        droppedByFlows += f.bytesDropped;
        onWire += in.onWire[i];
        queued += in.queued[i];
    }
    const FabricCounters& c = run.ctx.counters;
    nlohmann::ordered_json dropped;
    uint64_t droppedTotal = c.unroutableDataBytes;
    for (uint64_t b : c.dropDataBytes)
    {
        droppedTotal += b;
    }
    dropped["total"] = droppedTotal;
    dropped["headroom_overflow"] = c.dropDataBytes[DROP_HEADROOM_OVERFLOW];
    dropped["buffer_overflow"] = c.dropDataBytes[DROP_BUFFER_OVERFLOW];
    dropped["tail_drop"] = c.dropDataBytes[DROP_TAIL];
    dropped["unroutable"] = c.unroutableDataBytes;
    if (TrimmingEnabled(run.scenario)) // present only when some switch trims
    {
        dropped["trimmed"] = c.trimmedDataBytes;
        droppedTotal += c.trimmedDataBytes;
        dropped["total"] = droppedTotal;
    }
    nlohmann::ordered_json j;
    j["bytes_sent"] = sent;
    j["bytes_retransmitted"] = retransmitted;
    j["bytes_received"] = received;
    j["bytes_delivered"] = delivered;
    j["bytes_dropped"] = dropped;
    j["bytes_in_flight"] = onWire;
    j["bytes_queued"] = queued;
    // Both sides counted independently: the flows' drop counters must agree with the reasons.
    j["balanced"] = sent == received + droppedTotal + onWire + queued && droppedByFlows == droppedTotal;
    return j;
}

nlohmann::ordered_json
CounterBlock(const RunView& run, bool afterWarmup)
{
    // The whole-run counters less, after the warm-up, their value when it ended
    // (RunController::TakeWarmupSnapshot; zero without a warm-up).
    static const char* kReasons[] = {"headroom_overflow", "buffer_overflow", "tail_drop", "link_loss",
                                     "link_down", "pfc_watchdog", "nic_rx_overflow"};
    static_assert(sizeof(kReasons) / sizeof(kReasons[0]) == DROP_REASONS, "one name per reason");
    const FabricCounters& c = run.ctx.counters;
    static const FabricCounters kZero;
    const FabricCounters& b = afterWarmup ? run.controller.Warmup().counters : kZero;
    int64_t endPs = run.controller.EndPs();
    int64_t pausePs = 0;
    for (uint32_t node = 0; node < run.network.NodeCount(); ++node)
    {
        const FabricDevice* d = run.network.Device(node);
        for (uint32_t p = 0; d && p < d->GetNPorts(); ++p)
        {
            const Port& port = d->GetPort(p);
            for (uint8_t prio = 0; prio < kNumPriorities; ++prio)
            {
                pausePs += port.PausedPsUntil(prio, endPs) -
                           (afterWarmup ? run.controller.Warmup().AtPort(node, p).pausePs[prio] : 0);
            }
        }
    }
    nlohmann::ordered_json j;
    j["ecn_marked_packets"] = c.ecnMarked - b.ecnMarked;
    j["cnps_sent"] = c.cnpsSent - b.cnpsSent;
    j["pfc_pauses_sent"] = c.pausesSent - b.pausesSent;
    j["pfc_pauses_received"] = c.pausesReceived - b.pausesReceived;
    j["pfc_pause_duration_us"] = std::round(pausePs / 1e3) / 1e3;
    j["retransmitted_packets"] = c.retransmitted - b.retransmitted;
    nlohmann::ordered_json drops;
    uint64_t total = 0;
    for (int r = 0; r < DROP_REASONS; ++r)
    {
        total += c.drops[r] - b.drops[r];
    }
    drops["total"] = total;
    for (int r = 0; r < DROP_REASONS; ++r)
    {
        drops[kReasons[r]] = c.drops[r] - b.drops[r];
    }
    j["drops"] = drops;
    return j;
}

nlohmann::ordered_json
IngressReport(const RunView& run)
{
    // Per (ingress link, priority) that ever held a byte or paused: the MMU's charge (whole
    // cells, shared plus headroom), sorted by link name then priority.
    int64_t endPs = run.controller.EndPs();
    double windowPs = static_cast<double>(std::max<int64_t>(0, endPs - run.ctx.warmupPs));
    const std::vector<FabricSwitch*>& switches = run.network.Switches();
    std::vector<std::tuple<std::string, int, nlohmann::ordered_json>> rows;
    for (uint32_t d = 0; d < switches.size(); ++d)
    {
        const FabricSwitch* sw = switches[d];
        for (uint32_t p = 0; sw && p < sw->GetNPorts(); ++p)
        {
            for (uint8_t prio = 0; prio < kControlPriority; ++prio)
            {
                const IngressStats& s = sw->Ingress(p, prio);
                if (s.maxBytesRun == 0 && s.xoffs == 0)
                {
                    continue;
                }
                nlohmann::ordered_json e;
                std::string link = run.network.PortName(sw->GetPort(p).neighbor, d);
                e["ingress"] = link;
                e["priority"] = prio;
                e["max_bytes"] = s.maxBytes;
                e["max_bytes_whole_run"] = s.maxBytesRun;
                double mean = windowPs > 0 ? s.byteTimePs / windowPs : 0.0;
                e["mean_bytes"] = std::round(mean * 10) / 10;
                e["xoff_count"] = s.xoffsAfterWarmup;
                e["xoff_count_whole_run"] = s.xoffs;
                rows.emplace_back(link, prio, std::move(e));
            }
        }
    }
    std::sort(rows.begin(), rows.end(),
              [](const auto& a, const auto& b) {
                  return std::tie(std::get<0>(a), std::get<1>(a)) <
                         std::tie(std::get<0>(b), std::get<1>(b));
              });
    nlohmann::ordered_json arr = nlohmann::ordered_json::array();
    for (auto& row : rows)
    {
        arr.push_back(std::get<2>(row));
    }
    return arr;
}

} // namespace fabric
