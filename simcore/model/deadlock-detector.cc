#include "model/deadlock-detector.h"

#include <algorithm>
#include <functional>
#include <map>
#include <tuple>

namespace fabric
{

namespace
{

struct QueueNode
{
    uint32_t node;
    uint32_t port;
    uint8_t prio;
};

} // namespace

std::vector<DeadlockCycle>
FindPfcDeadlocks(const std::vector<FabricSwitch*>& switches, int64_t thresholdPs)
{
    int64_t now = NowPs();
    // Vertices: stuck egress queues. key (node, port, prio) -> vertex index.
    std::vector<QueueNode> vertices;
    std::map<std::tuple<uint32_t, uint32_t, uint8_t>, uint32_t> index;
    for (uint32_t s = 0; s < switches.size(); ++s)
    {
        FabricSwitch* sw = switches[s];
        if (!sw)
        {
            continue;
        }
        for (uint32_t p = 0; p < sw->GetNPorts(); ++p)
        {
            for (uint8_t prio = 0; prio < kControlPriority; ++prio)
            {
                const Port& port = sw->GetPort(p);
                if (sw->QueueBytes(p, prio) == 0 || !sw->IsPaused(p, prio) ||
                    port.pauseStart[prio] < 0 || now - port.pauseStart[prio] < thresholdPs)
                {
                    continue;
                }
                index[{s, p, prio}] = static_cast<uint32_t>(vertices.size());
                vertices.push_back({s, p, prio});
            }
        }
    }
    // Edge u -> v: u's next switch t pauses u's switch at prio, and v is a stuck queue of t.
    std::vector<std::vector<uint32_t>> next(vertices.size());
    for (uint32_t u = 0; u < vertices.size(); ++u)
    {
        const QueueNode& q = vertices[u];
        uint32_t t = switches[q.node]->GetPort(q.port).neighbor;
        if (t >= switches.size() || !switches[t])
        {
            continue;
        }
        uint32_t back = switches[t]->PortToward(q.node);
        if (back == UINT32_MAX || !switches[t]->IsPausingPrio(back, q.prio))
        {
            continue;
        }
        for (uint32_t p = 0; p < switches[t]->GetNPorts(); ++p)
        {
            auto it = index.find({t, p, q.prio});
            if (it != index.end())
            {
                next[u].push_back(it->second);
            }
        }
    }
    // Cycles by depth-first search; each reported once, rotated to start at its smallest hop.
    std::vector<DeadlockCycle> cycles;
    std::vector<int> color(vertices.size(), 0);
    std::vector<uint32_t> stack;
    std::vector<std::vector<uint32_t>> found;
    std::function<void(uint32_t)> visit = [&](uint32_t u) {
        color[u] = 1;
        stack.push_back(u);
        for (uint32_t v : next[u])
        {
            if (color[v] == 1)
            {
                auto from = std::find(stack.begin(), stack.end(), v);
                std::vector<uint32_t> cyc(from, stack.end());
                std::rotate(cyc.begin(), std::min_element(cyc.begin(), cyc.end()), cyc.end());
                if (std::find(found.begin(), found.end(), cyc) == found.end())
                {
                    found.push_back(cyc);
                }
            }
            else if (color[v] == 0)
            {
                visit(v);
            }
        }
        stack.pop_back();
        color[u] = 2;
    };
    for (uint32_t u = 0; u < vertices.size(); ++u)
    {
        if (color[u] == 0)
        {
            visit(u);
        }
    }
    for (const auto& cyc : found)
    {
        DeadlockCycle c;
        c.priority = vertices[cyc[0]].prio;
        c.detectedPs = now;
        for (uint32_t v : cyc)
        {
            const QueueNode& q = vertices[v];
            const Port& port = switches[q.node]->GetPort(q.port);
            c.hops.push_back({q.node, port.neighbor});
            c.formedPs = std::max(c.formedPs, port.pauseStart[q.prio]);
        }
        cycles.push_back(c);
    }
    return cycles;
}

} // namespace fabric
