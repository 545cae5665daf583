#include "helper/partitioner.h"

#include "helper/flow-dependencies.h"
#include "helper/network-builder.h"
#include "scenario/scenario-contract.h"

#include <algorithm>
#include <limits>
#include <numeric>

namespace fabric
{

// The scheduler's tie keys mix node ids below 2^15 (FastHeapScheduler::Mixed).
static_assert(kMaxNodes < (1u << 15), "node ids must stay below 2^15");

std::string
ParallelRefusal(const Scenario& scenario)
{
    if (scenario.dciAccelerator.enabled)
    {
        return "the DCI accelerator runs on one thread: use --threads 1";
    }
    return "";
}

namespace
{

uint32_t
Find(std::vector<uint32_t>& parent, uint32_t x)
{
    while (parent[x] != x)
    {
        parent[x] = parent[parent[x]];
        x = parent[x];
    }
    return x;
}

void
Join(std::vector<uint32_t>& parent, uint32_t a, uint32_t b)
{
    a = Find(parent, a);
    b = Find(parent, b);
    if (a != b)
    {
        parent[std::max(a, b)] = std::min(a, b);
    }
}

} // namespace

Partitioning
PlanPartitions(const Scenario& scenario, const NetworkBuilder& network, uint32_t threads)
{
    Partitioning out;
    const auto& nodes = scenario.topo.nodes;
    uint32_t n = static_cast<uint32_t>(network.NodeCount());
    std::vector<uint32_t> parent(n);
    std::iota(parent.begin(), parent.end(), 0);
    // Flows that wait for flows: a completion at one host starts a flow at another with no
    // propagation delay between, so the two hosts share a partition (the receiver of each input
    // and the sender of the flow waiting for it; both GPUs of an NVLink transfer). Hosts then
    // form their own units (a server's GPUs on different rails would otherwise join every rail
    // switch into one unit).
    bool deps = FlowDependencyTracker::Needed(scenario);
    if (deps)
    {
        const FlowDependencies& d = scenario.deps;
        for (std::size_t f = 0; f < scenario.flows.size(); ++f)
        {
            const FlowSpec& spec = scenario.flows[f];
            if (spec.local)
            {
                Join(parent, spec.src, spec.dst);
            }
            for (uint32_t k = d.Empty() ? 0 : d.begin[f]; !d.Empty() && k < d.begin[f + 1]; ++k)
            {
                Join(parent, scenario.flows[d.on[k]].dst, spec.src);
            }
        }
    }
    for (uint32_t u = 0; u < n; ++u)
    {
        const FabricDevice* d = network.Device(u);
        if (!d)
        {
            continue;
        }
        bool host = u < nodes.size() && nodes[u].isHost;
        for (uint32_t p = 0; p < d->GetNPorts(); ++p)
        {
            const Port& port = d->GetPort(p);
            // A single-port host stays with its switch; a link without delay cannot be cut.
            if ((host && !deps && d->GetNPorts() == 1) || port.delayPs <= 0)
            {
                Join(parent, u, port.neighbor);
            }
        }
    }
    // Units in the order of their first switch (generators number a pod's switches together).
    // A host counts as its first switch (so host units fall next to their leaves), then itself.
    std::vector<uint64_t> key(n, std::numeric_limits<uint64_t>::max());
    std::vector<uint64_t> weight(n, 0);
    for (uint32_t u = 0; u < n; ++u)
    {
        uint32_t r = Find(parent, u);
        bool sw = !(u < nodes.size() && nodes[u].isHost);
        const FabricDevice* dev = network.Device(u);
        uint32_t at = sw || !dev || dev->GetNPorts() == 0 ? u : dev->GetPort(0).neighbor;
        uint64_t k = (static_cast<uint64_t>(at) << 32) | (sw ? 0u : u + 1);
        key[r] = std::min(key[r], k);
        const FabricDevice* d = network.Device(u);
        weight[r] += 1 + (d ? d->GetNPorts() : 0);
    }
    std::vector<uint32_t> units;
    for (uint32_t u = 0; u < n; ++u)
    {
        if (Find(parent, u) == u)
        {
            units.push_back(u);
        }
    }
    std::sort(units.begin(), units.end(), [&](uint32_t a, uint32_t b) {
        return key[a] != key[b] ? key[a] < key[b] : a < b;
    });
    uint32_t parts = std::max<uint32_t>(1, std::min<uint32_t>(threads, units.size()));
    uint64_t total = 0;
    for (uint32_t u : units)
    {
        total += weight[u];
    }
    std::vector<uint16_t> partOfUnit(n, 0);
    uint64_t acc = 0;
    uint32_t current = 0;
    for (size_t i = 0; i < units.size(); ++i)
    {
        uint32_t u = units[i];
        // Move to the next partition once this one holds its share, keeping one unit for each
        // partition still to fill.
        while (current + 1 < parts && acc >= total * (current + 1) / parts &&
               units.size() - i >= parts - current - 1)
        {
            ++current;
        }
        partOfUnit[u] = static_cast<uint16_t>(current);
        acc += weight[u];
    }
    parts = current + 1;
    PartitionPlan& plan = out.plan;
    plan.parts = parts;
    plan.partOf.assign(n, 0);
    for (uint32_t u = 0; u < n; ++u)
    {
        plan.partOf[u] = partOfUnit[Find(parent, u)];
    }
    plan.inboxes.assign(parts, {});
    if (parts == 1)
    {
        return out;
    }
    std::vector<Mailbox*> pairBox(static_cast<size_t>(parts) * parts, nullptr);
    int64_t lookahead = std::numeric_limits<int64_t>::max();
    for (uint32_t u = 0; u < n; ++u)
    {
        FabricDevice* d = network.Device(u);
        if (!d)
        {
            continue;
        }
        for (uint32_t p = 0; p < d->GetNPorts(); ++p)
        {
            Port& port = d->GetPortMutable(p);
            uint16_t from = plan.partOf[u];
            uint16_t to = plan.partOf[port.neighbor];
            if (from == to || port.peer == nullptr)
            {
                continue;
            }
            Mailbox*& box = pairBox[static_cast<size_t>(from) * parts + to];
            if (!box)
            {
                out.boxes.push_back(std::make_unique<Mailbox>());
                box = out.boxes.back().get();
                plan.inboxes[to].push_back(box);
                plan.mailboxes.push_back(box);
            }
            port.mailbox = box;
            lookahead = std::min(lookahead, port.delayPs);
            if (u < port.neighbor)
            {
                ++out.cutLinks;
            }
        }
    }
    plan.lookaheadPs = lookahead;
    return out;
}

} // namespace fabric
