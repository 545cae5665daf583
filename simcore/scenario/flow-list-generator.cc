#include "flow-list-generator.h"

#include "common/rounding.h"
#include "generator-context.h"
#include "scenario-contract.h"

#include <cmath>

namespace fabric
{

using nlohmann::json;
using nlohmann::ordered_json;

namespace
{

std::string
Describe(double durationUs)
{
    return "must be >= 0 and < duration_us (" + FormatNumber(durationUs) + ")";
}

/** The lowest index of a flow on a cycle of `after` (Kahn's algorithm), or -1. */
int64_t
FirstOnCycle(const std::vector<std::vector<uint32_t>>& after)
{
    std::size_t n = after.size();
    std::vector<uint32_t> waiting(n, 0);
    std::vector<std::vector<uint32_t>> dependents(n);
    for (std::size_t i = 0; i < n; ++i)
    {
        for (uint32_t d : after[i])
        {
            ++waiting[i];
            dependents[d].push_back(static_cast<uint32_t>(i));
        }
    }
    std::vector<uint32_t> ready;
    for (std::size_t i = 0; i < n; ++i)
    {
        if (waiting[i] == 0)
        {
            ready.push_back(static_cast<uint32_t>(i));
        }
    }
    while (!ready.empty())
    {
        uint32_t i = ready.back();
        ready.pop_back();
        for (uint32_t j : dependents[i])
        {
            if (--waiting[j] == 0)
            {
                ready.push_back(j);
            }
        }
    }
    // a flow left waiting waits on a cycle or on a flow that does: walk back to the cycle
    std::vector<bool> seen(n, false);
    for (std::size_t i = 0; i < n; ++i)
    {
        if (waiting[i] == 0)
        {
            continue;
        }
        std::size_t k = i;
        while (!seen[k])
        {
            seen[k] = true;
            for (uint32_t d : after[k])
            {
                if (waiting[d] > 0)
                {
                    k = d;
                    break;
                }
            }
        }
        // k is on the cycle: its lowest member
        std::size_t low = k;
        std::size_t m = k;
        do
        {
            for (uint32_t d : after[m])
            {
                if (waiting[d] > 0)
                {
                    m = d;
                    break;
                }
            }
            low = std::min(low, m);
        } while (m != k);
        return static_cast<int64_t>(low);
    }
    return -1;
}

} // namespace

void
GenerateFlowList(ObjectReader& r,
                 const TrafficContext& ctx,
                 uint32_t generatorIndex,
                 std::vector<FlowSpec>& flows,
                 uint64_t& expected,
                 FlowRelations& relations)
{
    r.String("name", "", kMaxNameChars);
    uint8_t defaultPriority = static_cast<uint8_t>(
        r.Int("priority", ctx.dataPriority, Range::Of(schema::kFlowListPriority)));
    Range startRange = Range::Of(schema::kFlowListStartUs);
    startRange.max = ctx.durationUs;
    startRange.maxOpen = true;
    double offsetUs = r.Number("start_us", 0, Range::Of(schema::kFlowListStartUs));
    if (!startRange.Contains(offsetUs))
    {
        throw ScenarioError(r.FieldPath("start_us"), Describe(ctx.durationUs));
    }
    const json* list = r.Raw("flows");
    std::string listPath = r.FieldPath("flows");
    if (!list)
    {
        throw ScenarioError(listPath, "field required");
    }
    RequireArray(*list, listPath, 1, kMaxFlowList);
    if (expected + list->size() > kMaxFlows)
    {
        throw ScenarioError(listPath, "brings the number of flows (QPs) to " +
                                          std::to_string(expected + list->size()) +
                                          ", more than the limit of " + std::to_string(kMaxFlows));
    }
    expected += list->size();
    const Topology& topo = *ctx.topo;
    ordered_json listOut = ordered_json::array();
    std::size_t base = flows.size();
    std::vector<std::vector<uint32_t>> after(list->size());
    std::vector<uint64_t> gapNs(list->size(), 0);
    bool waits = false;
    for (std::size_t i = 0; i < list->size(); ++i)
    {
        std::string path = IndexPath(listPath, i);
        ordered_json itemOut;
        ObjectReader item((*list)[i], path, r.Out() ? &itemOut : nullptr);
        const json* srcValue = item.Raw("src");
        const json* dstValue = item.Raw("dst");
        if (!srcValue || !dstValue)
        {
            throw ScenarioError(item.FieldPath(srcValue ? "dst" : "src"), "field required");
        }
        FlowSpec f;
        f.src = ResolveHost(*srcValue, item.FieldPath("src"), topo);
        f.dst = ResolveHost(*dstValue, item.FieldPath("dst"), topo);
        if (f.src == f.dst)
        {
            throw ScenarioError(item.FieldPath("dst"), "must differ from src");
        }
        item.Record("src", topo.nodes[f.src].id);
        item.Record("dst", topo.nodes[f.dst].id);
        if (!item.Has("size_bytes"))
        {
            throw ScenarioError(item.FieldPath("size_bytes"), "field required");
        }
        f.sizeBytes = static_cast<uint64_t>(
            item.RequiredInt("size_bytes", Range::Of(schema::kListedFlowSizeBytes)));
        if (!item.Has("start_us"))
        {
            throw ScenarioError(item.FieldPath("start_us"), "field required");
        }
        double startUs = item.Number("start_us", 0, Range::Of(schema::kListedFlowStartUs));
        if (!startRange.Contains(offsetUs + startUs))
        {
            throw ScenarioError(item.FieldPath("start_us"),
                                "plus the generator's start_us " + Describe(ctx.durationUs));
        }
        f.priority = static_cast<uint8_t>(
            item.Int("priority", defaultPriority, Range::Of(schema::kListedFlowPriority)));
        f.generator = generatorIndex;
        f.startNs = UsToNs(offsetUs + startUs);
        const NicConfig& nic = (*ctx.nicCfg)[f.src];
        f.messageBytes = nic.messageBytes;
        f.window = QpWindow(nic);
        f.udpSrcPort = static_cast<uint16_t>(
            item.Int("udp_src_port",
                     kFirstUdpPort + ((flows.size() + relations.streamedTransfers) % kUdpPortSpan),
                     Range::Of(schema::kListedFlowUdpSrcPort)));
        if (const json* on = item.Raw("after"))
        {
            std::string afterPath = item.FieldPath("after");
            RequireArray(*on, afterPath, 0, kMaxFlowAfter);
            ordered_json ids = ordered_json::array();
            for (std::size_t k = 0; k < on->size(); ++k)
            {
                const json& a = (*on)[k];
                if (!a.is_number_integer() || a.get<int64_t>() < 0 ||
                    a.get<int64_t>() >= static_cast<int64_t>(list->size()) ||
                    a.get<int64_t>() == static_cast<int64_t>(i))
                {
                    throw ScenarioError(IndexPath(afterPath, k),
                                        "must name another flow of this list (0 .. " +
                                            std::to_string(list->size() - 1) + ")");
                }
                after[i].push_back(static_cast<uint32_t>(a.get<int64_t>()));
                ids.push_back(a.get<int64_t>());
            }
            item.Record("after", ids);
        }
        if (item.Has("gap_us")) // read only when given: older lists normalize as before
        {
            double gapUs = item.Number("gap_us", 0, Range::Of(schema::kListedFlowGapUs));
            gapNs[i] = UsToNs(gapUs);
        }
        waits = waits || !after[i].empty();
        item.Finish();
        flows.push_back(f);
        if (r.Out())
        {
            listOut.push_back(std::move(itemOut));
        }
    }
    if (waits)
    {
        int64_t cycle = FirstOnCycle(after);
        if (cycle >= 0)
        {
            throw ScenarioError(IndexPath(listPath, static_cast<std::size_t>(cycle)) + ".after",
                                "is part of a dependency cycle (flow " + std::to_string(cycle) +
                                    " waits, through `after`, for itself)");
        }
        for (std::size_t i = 0; i < after.size(); ++i)
        {
            if (!after[i].empty()) // a gap without `after` waits for nothing
            {
                std::vector<uint32_t> on;
                for (uint32_t a : after[i])
                {
                    on.push_back(static_cast<uint32_t>(base + a));
                }
                relations.SetAfter(base + i, std::move(on), gapNs[i]);
            }
        }
    }
    r.Record("flows", listOut);
    r.Finish();
}

} // namespace fabric
