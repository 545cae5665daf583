/*
 * The result's "transport" block: QP accounting per NIC (docs/result-format.md). Present only
 * when a NIC departs from the defaults (RC, one process per host, unlimited QP-context cache),
 * so earlier results stay byte-identical. Also the per-flow ERD counters (flows[].erd).
 */
#include "helper/result-reports.h"
#include "helper/network-builder.h"
#include "model/rdma-nic.h"

#include <set>

namespace fabric
{

bool
HasTransportReport(const RunView& run)
{
    const std::vector<RdmaNic*>& nics = run.network.Nics();
    for (const RdmaNic* nic : nics)
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
TransportReport(const RunView& run)
{
    const std::vector<RdmaNic*>& nics = run.network.Nics();
    using json = nlohmann::ordered_json;
    const auto& nodes = run.scenario.topo.nodes;
    uint64_t hosts = 0;
    for (const RdmaNic* nic : nics)
    {
        hosts += nic ? 1 : 0;
    }
    // The QP contexts each NIC's simulated flows touch, by the transport's context key.
    std::vector<std::set<uint64_t>> contexts(nics.size());
    for (const FlowSpec& f : run.scenario.flows)
    {
        if (f.src < nics.size() && nics[f.src])
        {
            const RdmaNic& nic = *nics[f.src];
            contexts[f.src].insert(
                nic.GetTransport().ContextKey(f, nic.Config().processesPerHost));
        }
    }
    json per = json::array();
    uint64_t misses = 0;
    uint64_t maxQps = 0;
    for (size_t i = 0; i < nics.size(); ++i)
    {
        const RdmaNic* nic = nics[i];
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
IsErdFlow(const RunView& run, const FlowSpec& s)
{
    const std::vector<RdmaNic*>& nics = run.network.Nics();
    return s.src < nics.size() && nics[s.src] && nics[s.src]->Config().transport == "erd";
}

nlohmann::ordered_json
ErdFlowCounters(const FlowState& f)
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
