/*
 * The DCI edge accelerators of a run (topology.accelerator, model/dci-accelerator.h): which
 * switches they are, their wiring to the long-haul link, and their report in the results.
 */
#include "helper/fabric-network.h"
#include "model/dci-accelerator.h"

namespace fabric
{

bool
FabricRunnerImpl::IsAcceleratorEdge(uint32_t node) const
{
    const DciAcceleratorConfig& a = m_scenario.dciAccelerator;
    return a.enabled && (node == a.edges[0] || node == a.edges[1]);
}

void
FabricRunnerImpl::AttachAccelerators()
{
    const DciAcceleratorConfig& a = m_scenario.dciAccelerator;
    if (!a.enabled)
    {
        return;
    }
    int64_t rtoPs = static_cast<int64_t>(a.retransmitTimeoutUs * 1e6);
    for (int side = 0; side < 2; ++side)
    {
        auto* edge = dynamic_cast<DciAccelerator*>(m_switches.at(a.edges[side]));
        uint32_t longPort = edge ? edge->PortToward(a.edges[1 - side]) : UINT32_MAX;
        if (edge && longPort != UINT32_MAX)
        {
            edge->Attach(longPort, a.bufferBytes, rtoPs);
        }
    }
}

nlohmann::ordered_json
FabricRunnerImpl::AcceleratorReport() const
{
    const DciAcceleratorConfig& a = m_scenario.dciAccelerator;
    nlohmann::ordered_json j;
    j["buffer_bytes"] = a.bufferBytes;
    j["retransmit_timeout_us"] = a.retransmitTimeoutUs;
    nlohmann::ordered_json edges = nlohmann::ordered_json::object();
    for (uint32_t node : a.edges)
    {
        const auto* edge = dynamic_cast<const DciAccelerator*>(m_switches.at(node));
        if (!edge)
        {
            continue;
        }
        const DciAcceleratorStats& s = edge->Stats();
        edges[m_scenario.topo.nodes[node].id] = {
            {"pseudo_acks", s.pseudoAcks},
            {"absorbed_acks", s.absorbedAcks},
            {"retransmitted_packets", s.retransmitted},
            {"retransmit_timeouts", s.retransmitTimeouts},
            {"passed_unheld_packets", s.passedUnheld},
            {"max_held_bytes", s.maxHeldBytes},
            {"held_bytes_at_end", edge->HeldBytes()}};
    }
    j["edges"] = std::move(edges);
    return j;
}

} // namespace fabric
