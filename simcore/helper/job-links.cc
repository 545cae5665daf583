#include "helper/job-links.h"

#include "helper/network-builder.h"

#include "ns3/callback.h"

#include <algorithm>

namespace fabric
{

bool
JobLinkCounter::Needed(const Scenario& scenario)
{
    return !scenario.jobs.empty() && !scenario.jobFlows.empty();
}

JobLinkCounter::JobLinkCounter(const Scenario& scenario, FabricContext& ctx,
                               const NetworkBuilder& network)
    : m_scenario(scenario),
      m_ctx(ctx)
{
    uint32_t links = 0;
    for (const LinkSpec& l : scenario.topo.links)
    {
        links = std::max(links, l.id + 1);
    }
    m_linkA.assign(links, UINT32_MAX);
    for (const LinkSpec& l : scenario.topo.links)
    {
        m_linkA[l.id] = l.a;
    }
    ctx.jobLinkCount = links;
    ctx.jobLinks.assign(scenario.jobs.size() * links * 2, JobLinkLoad{});
    m_sinks.resize(network.NodeCount());
    for (uint32_t node = 0; node < network.NodeCount(); ++node)
    {
        FabricDevice* d = network.Device(node);
        if (d == nullptr)
        {
            continue;
        }
        m_sinks[node] = Sink{this, node, d};
        d->TraceConnectWithoutContext("Tx", ns3::MakeCallback(&Sink::OnTx, &m_sinks[node]));
    }
}

void
JobLinkCounter::Sink::OnTx(uint32_t port, const RocePacket& p)
{
    if (p.kind != PacketKind::DATA)
    {
        return;
    }
    const Scenario& s = owner->m_scenario;
    if (p.flow >= s.jobFlows.size())
    {
        return;
    }
    uint32_t job = s.jobFlows[p.flow].job;
    if (job >= s.jobs.size())
    {
        return;
    }
    uint32_t link = device->GetPort(port).linkId;
    FabricContext& ctx = owner->m_ctx;
    if (link >= ctx.jobLinkCount)
    {
        return;
    }
    uint32_t dir = owner->m_linkA[link] == node ? 0 : 1;
    JobLinkLoad& load = ctx.jobLinks[(static_cast<std::size_t>(job) * ctx.jobLinkCount + link) * 2 + dir];
    load.bytes += p.payload;
    ++load.frames;
}

} // namespace fabric
