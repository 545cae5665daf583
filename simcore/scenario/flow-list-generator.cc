#include "flow-list-generator.h"

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

} // namespace

void
GenerateFlowList(ObjectReader& r,
                 const TrafficContext& ctx,
                 uint32_t generatorIndex,
                 std::vector<FlowSpec>& flows,
                 uint64_t& expected)
{
    r.String("name", "", 200);
    uint8_t defaultPriority =
        static_cast<uint8_t>(r.Int("priority", ctx.dataPriority, Range::Closed(0, 6)));
    Range startRange = Range::Closed(0, ctx.durationUs, "us");
    startRange.maxOpen = true;
    double offsetUs = r.Number("start_us", 0, Range::AtLeast(0, "us"));
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
            item.RequiredInt("size_bytes", Range::Closed(0, kMaxSizeBytes, "bytes")));
        if (!item.Has("start_us"))
        {
            throw ScenarioError(item.FieldPath("start_us"), "field required");
        }
        double startUs = item.Number("start_us", 0, Range::AtLeast(0, "us"));
        if (!startRange.Contains(offsetUs + startUs))
        {
            throw ScenarioError(item.FieldPath("start_us"),
                                "plus the generator's start_us " + Describe(ctx.durationUs));
        }
        f.priority = static_cast<uint8_t>(item.Int("priority", defaultPriority, Range::Closed(0, 6)));
        f.generator = generatorIndex;
        f.startNs = static_cast<uint64_t>(std::llround((offsetUs + startUs) * 1000.0));
        const NicConfig& nic = (*ctx.nicCfg)[f.src];
        f.messageBytes = nic.messageBytes;
        f.window = QpWindow(nic);
        f.udpSrcPort = static_cast<uint16_t>(
            item.Int("udp_src_port", kFirstUdpPort + (flows.size() % kUdpPortSpan),
                     Range::Closed(1, 65535)));
        item.Finish();
        flows.push_back(f);
        if (r.Out())
        {
            listOut.push_back(std::move(itemOut));
        }
    }
    r.Record("flows", listOut);
    r.Finish();
}

} // namespace fabric
