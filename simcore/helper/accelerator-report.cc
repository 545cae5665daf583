/*
 * The result's "dci_accelerator" block (topology.accelerator, model/dci-accelerator.h): each
 * accelerated DCI edge's pseudo-ACKs, retransmissions and held bytes.
 */
#include "helper/result-reports.h"
#include "helper/network-builder.h"
#include "model/dci-accelerator.h"

namespace fabric
{

nlohmann::ordered_json
AcceleratorReport(const RunView& run)
{
    const DciAcceleratorConfig& a = run.scenario.dciAccelerator;
    nlohmann::ordered_json j;
    j["buffer_bytes"] = a.bufferBytes;
    j["retransmit_timeout_us"] = a.retransmitTimeoutUs;
    nlohmann::ordered_json edges = nlohmann::ordered_json::object();
    for (uint32_t node : a.edges)
    {
        const auto* edge = dynamic_cast<const DciAccelerator*>(run.network.Switch(node));
        if (!edge)
        {
            continue;
        }
        const DciAcceleratorStats& s = edge->Stats();
        edges[run.scenario.topo.nodes[node].id] = {
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
