#include "flow/flow-caveats.h"

#include "scenario/scenario-error.h"

#include <algorithm>
#include <map>
#include <set>

namespace fabric
{
namespace flow
{

namespace
{

bool
AnySwitch(const Scenario& s, bool (*test)(const SwitchConfig&))
{
    for (uint32_t i = 0; i < s.topo.nodes.size() && i < s.switchCfg.size(); ++i)
    {
        if (!s.topo.nodes[i].isHost && test(s.switchCfg[i]))
        {
            return true;
        }
    }
    return false;
}

bool
AnyNic(const Scenario& s, bool (*test)(const NicConfig&))
{
    for (uint32_t i = 0; i < s.topo.nodes.size() && i < s.nicCfg.size(); ++i)
    {
        if (s.topo.nodes[i].isHost && test(s.nicCfg[i]))
        {
            return true;
        }
    }
    return false;
}

std::string
FaultPath(std::size_t i)
{
    return "faults[" + std::to_string(i) + "]";
}

/**
 * A cycle in the graph of switch-to-switch egress queues where an edge a -> b says a flow's
 * frames leave queue a into queue b: with PFC, b full pauses a (the packet model's deadlock
 * detector looks for exactly such cycles of paused queues). Returns the cycle's links, or empty.
 */
std::vector<uint32_t>
FindCycle(const std::map<uint32_t, std::set<uint32_t>>& next)
{
    // iterative depth-first search; a queue met again while on the stack closes a cycle
    std::map<uint32_t, int> state; // 1 on the stack, 2 done
    std::vector<uint32_t> stack;
    std::vector<std::vector<uint32_t>> todo; // per stack entry: successors left to visit
    auto successors = [&next](uint32_t u)
    {
        auto it = next.find(u);
        return it == next.end() ? std::vector<uint32_t>()
                                : std::vector<uint32_t>(it->second.rbegin(), it->second.rend());
    };
    for (const auto& entry : next)
    {
        if (state[entry.first] != 0)
        {
            continue;
        }
        state[entry.first] = 1;
        stack.push_back(entry.first);
        todo.push_back(successors(entry.first));
        while (!stack.empty())
        {
            if (todo.back().empty())
            {
                state[stack.back()] = 2;
                stack.pop_back();
                todo.pop_back();
                continue;
            }
            uint32_t v = todo.back().back();
            todo.back().pop_back();
            if (state[v] == 1)
            {
                return std::vector<uint32_t>(std::find(stack.begin(), stack.end(), v), stack.end());
            }
            if (state[v] == 0)
            {
                state[v] = 1;
                stack.push_back(v);
                todo.push_back(successors(v));
            }
        }
    }
    return {};
}

} // namespace

void
CheckModelable(const Scenario& scenario, const FlowRouting& routing)
{
    for (std::size_t i = 0; i < scenario.faults.size(); ++i)
    {
        if (scenario.faults[i].kind == FaultKind::PFC_STORM)
        {
            throw ScenarioError(FaultPath(i) + ".kind",
                                "a PFC storm pauses the fabric, which the flow engine does not "
                                "model (it keeps no queues and sends no pauses); run this "
                                "scenario with --engine packet");
        }
    }
    // Cyclic buffer dependencies between switches with PFC on: a deadlock waiting to form.
    std::map<uint32_t, std::set<uint32_t>> next;
    std::map<uint32_t, uint32_t> generatorOf; // first queue -> a generator whose flows use it
    const auto& nodes = scenario.topo.nodes;
    for (const FlowSpec& f : scenario.flows)
    {
        if (f.local)
        {
            continue;
        }
        FlowRoute r = routing.Route(f);
        uint32_t prev = UINT32_MAX;
        for (std::size_t k = 0; k + 1 < r.nodes.size(); ++k)
        {
            uint32_t a = r.nodes[k];
            uint32_t b = r.nodes[k + 1];
            bool switches = !nodes[a].isHost && !nodes[b].isHost &&
                            scenario.switchCfg[a].pfc.enabled && scenario.switchCfg[b].pfc.enabled;
            uint32_t d = switches ? routing.LinkToward(a, b) : UINT32_MAX;
            if (d != UINT32_MAX && prev != UINT32_MAX)
            {
                next[prev].insert(d);
                generatorOf.emplace(prev, f.generator);
            }
            prev = d;
        }
    }
    std::vector<uint32_t> cycle = FindCycle(next);
    if (!cycle.empty())
    {
        std::string names;
        for (uint32_t d : cycle)
        {
            names += (names.empty() ? "" : ", ") + routing.LinkName(d);
        }
        uint32_t gen = generatorOf.count(cycle[0]) ? generatorOf[cycle[0]] : 0;
        throw ScenarioError("traffic[" + std::to_string(gen) + "]",
                            "its flows' paths form a cyclic buffer dependency under PFC (" + names +
                                "): a deadlock the flow engine cannot model (it keeps no queues "
                                "and sends no pauses); run this scenario with --engine packet");
    }
}

std::vector<Caveat>
FlowCaveats(const Scenario& s)
{
    std::vector<Caveat> out;
    out.push_back({"queues", "switch.buffer_bytes",
                   "no queues: flows share links at their max-min fair rates with no queueing "
                   "delay; queue depths (summary.queues, max_queue_bytes, series) are not "
                   "modelled and reported as 0"});
    if (AnySwitch(s, [](const SwitchConfig& c) { return c.pfc.enabled; }))
    {
        out.push_back({"pfc", "switch.pfc.enabled",
                       "PFC pauses are not modelled (no pause is ever sent): pfc_pauses_* and "
                       "summary.pfc are 0; head-of-line blocking and pause spreading are absent"});
    }
    if (AnyNic(s, [](const NicConfig& c) { return c.cc.algorithm != "none"; }))
    {
        out.push_back({"congestion_control", "nic.cc.algorithm",
                       "DCQCN's dynamics are not modelled: flows get their max-min fair rates at "
                       "once, as an ideal congestion control would converge to; ECN marks and "
                       "CNPs are 0"});
    }
    else if (AnySwitch(s,
                       [](const SwitchConfig& c)
                       {
                           for (const EcnConfig& e : c.ecn)
                           {
                               if (e.enabled)
                               {
                                   return true;
                               }
                           }
                           return false;
                       }))
    {
        out.push_back(
            {"ecn", "switch.ecn", "ECN marking is not modelled: ecn_marked_packets is 0"});
    }
    if (AnySwitch(s, [](const SwitchConfig& c) { return !c.pfc.enabled; }))
    {
        out.push_back({"loss", "switch.pfc.enabled",
                       "a lossy fabric (PFC off) drops and retransmits under congestion in the "
                       "packet model; the flow engine loses nothing (drops and retransmissions "
                       "are 0), so FCTs are those of a lossless fabric"});
    }
    if (AnySwitch(s, [](const SwitchConfig& c) { return c.trimming; }))
    {
        out.push_back({"trimming", "switch.trimming",
                       "packet trimming acts only on frames a full buffer refuses; without queues "
                       "the flow engine never trims"});
    }
    if (s.dciAccelerator.enabled)
    {
        out.push_back({"dci_accelerator", "topology.accelerator.enabled",
                       "the DCI accelerator's pseudo-ACKs are not modelled: a QP window is "
                       "limited by the end-to-end RTT, as without the accelerator"});
    }
    for (std::size_t i = 0; i < s.faults.size(); ++i)
    {
        const FaultSpec& f = s.faults[i];
        switch (f.kind)
        {
        case FaultKind::LOSS:
            out.push_back({"fault", FaultPath(i),
                           "loss is not replayed: no frame is lost and nothing retransmitted"});
            break;
        case FaultKind::LINK_DOWN:
        case FaultKind::LINK_UP:
            out.push_back({"fault", FaultPath(i),
                           "the link's failure is replayed (nothing crosses it; flows move to the "
                           "routes that converge convergence_us later), but not the frames lost "
                           "on it and their recovery (go-back-N, or nic.rto_us when a transfer's "
                           "last frames were lost)"});
            break;
        case FaultKind::SLOW_RECEIVER:
            out.push_back({"fault", FaultPath(i),
                           "a slow receiver is not replayed: the host receives at its line rate"});
            break;
        case FaultKind::SET:
            out.push_back(
                {"fault", FaultPath(i),
                 "the parameter it sets (" + f.paramName + ") has no effect in the flow engine"});
            break;
        case FaultKind::PFC_STORM:
            break; // refused (CheckModelable)
        }
    }
    if (s.watchdogs.switchEnabled || s.watchdogs.nicEnabled)
    {
        out.push_back({"watchdogs", "watchdogs",
                       "PFC watchdogs act on pauses, which the flow engine does not model"});
    }
    if (AnyNic(s, [](const NicConfig& c) { return c.qpCacheEntries > 0; }))
    {
        out.push_back({"qp_cache", "nic.qp_cache_entries",
                       "QP-context cache misses are not modelled: no transmit stalls"});
    }
    bool probes =
        std::any_of(s.flows.begin(), s.flows.end(), [](const FlowSpec& f) { return f.probe; });
    if (probes)
    {
        out.push_back({"pingmesh", "traffic",
                       "Pingmesh probes run as flows, but their RTTs (the result's pingmesh "
                       "block) need queues: not reported"});
    }
    return out;
}

nlohmann::ordered_json
CaveatsJson(const std::vector<Caveat>& caveats)
{
    nlohmann::ordered_json out = nlohmann::ordered_json::array();
    for (const Caveat& c : caveats)
    {
        out.push_back({{"feature", c.feature}, {"field", c.field}, {"message", c.message}});
    }
    return out;
}

} // namespace flow
} // namespace fabric
