#include "helper/partitioner.h"

#include "helper/flow-dependencies.h"
#include "helper/network-builder.h"
#include "scenario/scenario-contract.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

namespace fabric
{

// The scheduler's tie keys mix node ids below 2^15 (FastHeapScheduler::Mixed): the packet
// engine refuses larger fabrics (main/fabricsim.cc, PacketRefusal).
static_assert(kPacketMaxNodes < (1u << 15), "node ids must stay below 2^15");

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

/// An idle fabric's ports together weigh this share of the expected frames.
constexpr double kIdlePortShare = 0.05;
/// A flow's end hosts each see one direction's arrivals (the sender the ACKs, the receiver the
/// data) where a switch on its path sees both: they weigh this share of a switch's events per
/// frame. Fitted on the HPCC benchmark, Reference A and a k=16 fat tree at 2 partitions (0.5
/// and 1 balanced the first and the last worse), checked at 4 and 8 (docs/benchmarks.md,
/// "Partitions balanced by expected load").
constexpr double kHostShare = 0.7;

/**
 * Per node: the frames it is expected to send and receive in the run: each flow's packets (at
 * most what its sender's line carries in the rest of the run) and their ACKs, on the flow's
 * ECMP path. A partition's share of the events follows these.
 */
std::vector<double>
ExpectedFrames(const Scenario& scenario, const NetworkBuilder& network)
{
    std::vector<double> frames(network.NodeCount(), 0.0);
    double runNs = static_cast<double>(scenario.durationNs);
    for (const FlowSpec& f : scenario.flows)
    {
        if (f.local || f.src >= network.NodeCount() || f.startNs >= scenario.durationNs)
        {
            continue;
        }
        std::vector<uint32_t> path = network.NodePathOf(f);
        const RdmaNic* nic = network.Nic(f.src);
        if (path.size() < 2 || !nic)
        {
            continue;
        }
        // At most what the sender's line carries in the rest of the run (a long-lived flow
        // sends that much); the ACKs come back along the same nodes (ECMP is symmetric in
        // expectation).
        double lineBytes = nic->GetPort(nic->PathPort(f)).rateBps / 8.0 *
                           (runNs - static_cast<double>(f.startNs)) * 1e-9;
        double bytes = f.sizeBytes == 0 ? lineBytes
                                         : std::min(static_cast<double>(f.sizeBytes), lineBytes);
        const NicConfig* cfg = f.src < scenario.nicCfg.size() ? &scenario.nicCfg[f.src] : nullptr;
        double mtu = cfg && cfg->mtuBytes > 0 ? cfg->mtuBytes : 1000.0;
        double ackEvery = cfg && cfg->ackIntervalPackets > 0 ? cfg->ackIntervalPackets : 1.0;
        double packets = std::ceil(bytes / mtu);
        double handled = packets + std::ceil(packets / ackEvery);
        for (uint32_t node : path)
        {
            bool end = node == path.front() || node == path.back();
            frames[node] += end ? kHostShare * handled : handled;
        }
    }
    return frames;
}

} // namespace

Partitioning
PlanPartitions(const Scenario& scenario, const NetworkBuilder& network, uint32_t wanted)
{
    Partitioning out;
    const auto& nodes = scenario.topo.nodes;
    uint32_t n = static_cast<uint32_t>(network.NodeCount());
    std::vector<uint32_t> parent(n);
    std::iota(parent.begin(), parent.end(), 0);
    // Flows that wait for flows: a completion at one host that starts a flow at another with
    // no propagation delay between joins the two hosts in a partition (the receiver of an input
    // and the sender waiting for it, unless the sender learns of it through the input's ACK,
    // FlowDependencyTracker::Acknowledged: that takes at least the path's propagation; both GPUs
    // of an NVLink transfer). Hosts then form their own units (a server's GPUs on different
    // rails would otherwise join every rail switch into one unit).
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
                const FlowSpec& input = scenario.flows[d.on[k]];
                if (!FlowDependencyTracker::Acknowledged(input, spec))
                {
                    Join(parent, input.dst, spec.src);
                }
            }
        }
        // A collective's transfers: the same rule between their connections. (A ring program's
        // need nothing more: every input it is not acknowledged of completes at the waiting
        // transfer's sender, or at an NVLink peer of it, joined above.)
        const Transfers& tr = scenario.transfers;
        for (std::size_t t = 0; !tr.Empty() && t < tr.Size(); ++t)
        {
            const FlowSpec& spec = scenario.flows[tr.flow[t]];
            for (uint32_t k = tr.deps.begin[t]; k < tr.deps.begin[t + 1]; ++k)
            {
                const FlowSpec& input = scenario.flows[tr.flow[tr.deps.on[k]]];
                if (!FlowDependencyTracker::Acknowledged(input, spec))
                {
                    Join(parent, input.dst, spec.src);
                }
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
    // A unit weighs the frames its nodes are expected to handle (ExpectedFrames), plus a
    // small share per port so that idle parts of the fabric are not free.
    std::vector<double> frames = ExpectedFrames(scenario, network);
    double totalFrames = std::accumulate(frames.begin(), frames.end(), 0.0);
    double totalPorts = 0;
    for (uint32_t u = 0; u < n; ++u)
    {
        const FabricDevice* d = network.Device(u);
        totalPorts += 1 + (d ? d->GetNPorts() : 0);
    }
    double perPort = totalFrames > 0 ? kIdlePortShare * totalFrames / totalPorts : 1.0;
    std::vector<uint64_t> key(n, std::numeric_limits<uint64_t>::max());
    std::vector<double> weight(n, 0);
    for (uint32_t u = 0; u < n; ++u)
    {
        uint32_t r = Find(parent, u);
        bool sw = !(u < nodes.size() && nodes[u].isHost);
        const FabricDevice* dev = network.Device(u);
        uint32_t at = sw || !dev || dev->GetNPorts() == 0 ? u : dev->GetPort(0).neighbor;
        uint64_t k = (static_cast<uint64_t>(at) << 32) | (sw ? 0u : u + 1);
        key[r] = std::min(key[r], k);
        weight[r] += frames[u] + perPort * (1 + (dev ? dev->GetNPorts() : 0));
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
    uint32_t parts = std::max<uint32_t>(1, std::min<uint32_t>(wanted, units.size()));
    double total = 0;
    for (uint32_t u : units)
    {
        total += weight[u];
    }
    std::vector<uint16_t> partOfUnit(n, 0);
    double acc = 0;
    uint32_t current = 0;
    size_t inCurrent = 0;
    for (size_t i = 0; i < units.size(); ++i)
    {
        uint32_t u = units[i];
        // Move to the next partition once this one holds its share (a unit goes to the side
        // that holds most of it), keeping one unit for each partition still to fill.
        while (current + 1 < parts && inCurrent > 0 &&
               acc + weight[u] / 2 >= total * (current + 1) / parts &&
               units.size() - i >= parts - current - 1)
        {
            ++current;
            inCurrent = 0;
        }
        partOfUnit[u] = static_cast<uint16_t>(current);
        acc += weight[u];
        ++inCurrent;
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
