/*
 * The result's "transport" block: QP accounting per NIC (docs/result-format.md). Present only
 * when a NIC departs from the defaults (RC, one process per host, unlimited QP-context cache),
 * so earlier results stay byte-identical. Also the per-flow ERD counters (flows[].erd).
 */
#include "helper/fabric-network.h"
#include "model/rdma-nic.h"

#include <set>

namespace fabric
{

bool
FabricRunnerImpl::HasTransportReport() const
{
    for (const RdmaNic* nic : m_nics)
    {
        if (nic && (nic->Config().transport != "rc" || nic->Config().processesPerHost != 1 ||
                    nic->Config().qpCacheEntries != 0))
        {
            return true;
        }
    }
    return false;
}

nlohmann::ordered_json
FabricRunnerImpl::TransportReport() const
{
    using json = nlohmann::ordered_json;
    const auto& nodes = m_scenario.topo.nodes;
    uint64_t hosts = 0;
    for (const RdmaNic* nic : m_nics)
    {
        hosts += nic ? 1 : 0;
    }
    // The QP contexts each NIC's simulated flows touch, by the transport's context key.
    std::vector<std::set<uint64_t>> contexts(m_nics.size());
    for (const FlowSpec& f : m_scenario.flows)
    {
        if (f.src < m_nics.size() && m_nics[f.src])
        {
            const RdmaNic& nic = *m_nics[f.src];
            contexts[f.src].insert(
                nic.GetTransport().ContextKey(f, nic.Config().processesPerHost));
        }
    }
    json per = json::array();
    uint64_t misses = 0;
    uint64_t maxQps = 0;
    for (size_t i = 0; i < m_nics.size(); ++i)
    {
        const RdmaNic* nic = m_nics[i];
        if (!nic)
        {
            continue;
        }
        const NicConfig& c = nic->Config();
        uint64_t qps = nic->GetTransport().QpsPerNic(hosts, c.processesPerHost);
        maxQps = std::max(maxQps, qps);
        misses += nic->QpCacheMisses();
        json e;
        e["host"] = nodes[i].id;
        e["transport"] = c.transport;
        e["processes"] = c.processesPerHost;
        e["qps_per_nic"] = qps;
        e["qp_contexts_used"] = contexts[i].size();
        e["qp_cache_entries"] = c.qpCacheEntries;
        e["qp_cache_misses"] = nic->QpCacheMisses();
        per.push_back(e);
    }
    json t;
    t["hosts"] = hosts;
    t["max_qps_per_nic"] = maxQps;
    t["qp_cache_misses"] = misses;
    t["nics"] = per;
    return t;
}

bool
FabricRunnerImpl::IsErdFlow(const FlowSpec& s) const
{
    return s.src < m_nics.size() && m_nics[s.src] && m_nics[s.src]->Config().transport == "erd";
}

nlohmann::ordered_json
FabricRunnerImpl::ErdFlowCounters(const FlowState& f) const
{
    nlohmann::ordered_json e;
    e["nacks_sent"] = f.erd.nacksSent;
    e["packets_nacked"] = f.erd.packetsNacked;
    e["out_of_order_arrivals"] = f.erd.outOfOrder;
    e["duplicate_arrivals"] = f.erd.duplicates;
    e["max_reorder_packets"] = f.erd.maxReorderPackets;
    return e;
}

} // namespace fabric
