/*
 * Conservation of DATA payload bytes (docs/result-format.md, "conservation"): every byte a
 * sender put on the wire either reached its receiver, was dropped (by reason), or is still in
 * the network when the run ends (on a link or in a switch queue). The in-network part is
 * counted here by walking the wires and queues, independently of the counters, so the identity
 * sent = received + dropped + in network is a check, not a definition.
 */
#include "helper/fabric-network.h"

namespace fabric
{

FabricRunnerImpl::InNetwork
FabricRunnerImpl::DataInNetwork() const
{
    InNetwork in;
    std::size_t n = m_ctx.flows.size();
    in.onWire.assign(n, 0);
    in.queued.assign(n, 0);
    for (std::size_t d = 0; d < m_devices.size(); ++d)
    {
        const FabricDevice* dev = ns3::PeekPointer(m_devices[d]);
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
        if (d < m_switches.size() && m_switches[d])
        {
            m_switches[d]->ForEachQueued(
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

nlohmann::ordered_json
FabricRunnerImpl::Conservation(const InNetwork& in) const
{
    uint64_t sent = 0;
    uint64_t retransmitted = 0;
    uint64_t received = 0;
    uint64_t delivered = 0;
    uint64_t droppedByFlows = 0;
    uint64_t onWire = 0;
    uint64_t queued = 0;
    for (std::size_t i = 0; i < m_ctx.flows.size(); ++i)
    {
        const FlowState& f = m_ctx.flows[i];
        sent += f.bytesSent;
        retransmitted += f.bytesRetransmitted;
        received += f.bytesReceived;
        delivered += f.bytesDelivered;
        droppedByFlows += f.bytesDropped;
        onWire += in.onWire[i];
        queued += in.queued[i];
    }
    const FabricCounters& c = m_ctx.counters;
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
    dropped["corrupt"] = c.dropDataBytes[DROP_CORRUPT];
    dropped["unroutable"] = c.unroutableDataBytes;
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

} // namespace fabric
