/*
 * "jobs" (docs/result-format.md) of a packet-level run: each transfer's start and completion
 * from the model's flow state, handed to the shared job summary (scenario/job-summary.h), and
 * each job's links from the devices' transmit counts.
 */
#include "helper/network-builder.h"
#include "helper/result-reports.h"
#include "scenario/job-summary.h"

#include <algorithm>

namespace fabric
{

namespace
{

/** The links (one direction each) the job's DATA frames crossed, in link order, a -> b first. */
nlohmann::ordered_json
LinkList(const RunView& run, uint32_t job)
{
    nlohmann::ordered_json out = nlohmann::ordered_json::array();
    const FabricContext& ctx = run.ctx;
    if (ctx.jobLinks.empty())
    {
        return out;
    }
    std::vector<const LinkSpec*> byId(ctx.jobLinkCount, nullptr);
    for (const LinkSpec& l : run.scenario.topo.links)
    {
        if (l.id < byId.size())
        {
            byId[l.id] = &l;
        }
    }
    for (uint32_t id = 0; id < ctx.jobLinkCount; ++id)
    {
        for (uint32_t dir = 0; dir < 2 && byId[id]; ++dir)
        {
            const JobLinkLoad& load = ctx.jobLinks[(static_cast<std::size_t>(job) * ctx.jobLinkCount + id) * 2 + dir];
            if (load.frames == 0)
            {
                continue;
            }
            uint32_t from = dir == 0 ? byId[id]->a : byId[id]->b;
            uint32_t to = dir == 0 ? byId[id]->b : byId[id]->a;
            out.push_back({{"link", run.network.PortName(from, to)}, {"bytes", load.bytes}, {"frames", load.frames}});
        }
    }
    return out;
}

} // namespace

nlohmann::ordered_json
JobReport(const RunView& run)
{
    std::vector<TransferTimes> times(run.ctx.transferStartPs.size());
    for (std::size_t i = 0; i < times.size(); ++i)
    {
        int64_t start = run.ctx.transferStartPs[i];
        times[i] = {std::max<int64_t>(0, start), run.ctx.transferCompletePs[i], start >= 0};
    }
    // ring programs: what each thread saw of a step, added up
    std::vector<RingStepTimes> rings;
    for (const std::vector<RingStepTimes>& slot : run.ctx.ringSteps)
    {
        rings.resize(slot.size());
        for (std::size_t i = 0; i < slot.size(); ++i)
        {
            RingStepTimes& a = rings[i];
            const RingStepTimes& b = slot[i];
            a.posted += b.posted;
            a.completed += b.completed;
            a.firstStartPs = std::min(a.firstStartPs, b.firstStartPs);
            a.lastCompletePs = std::max(a.lastCompletePs, b.lastCompletePs);
            if (b.slowestPs > a.slowestPs || (b.slowestPs == a.slowestPs && b.slowestPs >= 0 &&
                                              b.slowestIndex < a.slowestIndex))
            {
                a.slowestPs = b.slowestPs;
                a.slowestIndex = b.slowestIndex;
                a.slowestFlow = b.slowestFlow;
            }
        }
    }
    return JobsJson(run.scenario, times, [&run](uint32_t job) { return LinkList(run, job); }, rings);
}

} // namespace fabric
