#include "training-summary.h"

#include "common/rounding.h"

#include <algorithm>
#include <array>
#include <limits>

namespace fabric
{

namespace
{

using json = nlohmann::ordered_json;

/** Communication kinds in the order exposed time is charged when several are in flight: those
 *  that block compute on every layer first, the gradient sync last. */
constexpr std::array<TrainingKind, 4> kCommKinds = {TrainingKind::TP, TrainingKind::EP,
                                                    TrainingKind::PP, TrainingKind::DP};

std::size_t
Lane(TrainingKind k)
{
    return static_cast<std::size_t>(k); // 0 compute, 1 tp, 2 pp, 3 dp, 4 ep
}

struct Interval
{
    int64_t a = 0;
    int64_t b = 0;
};

struct Segment
{
    TrainingKind kind;
    int64_t a;
    int64_t b;
    bool exposed;
};

double
Us(int64_t ps)
{
    return RoundDecimals(static_cast<double>(ps) / 1e6, 3);
}

/** Compute time inside [from, x) of merged, sorted compute intervals with prefix sums. */
struct Covered
{
    std::vector<Interval> merged;
    std::vector<int64_t> before; ///< compute before merged[i]

    int64_t Upto(int64_t x) const
    {
        auto it = std::upper_bound(merged.begin(), merged.end(), x,
                                   [](int64_t v, const Interval& i) { return v < i.a; });
        if (it == merged.begin())
        {
            return 0;
        }
        std::size_t i = static_cast<std::size_t>(it - merged.begin()) - 1;
        return before[i] + std::min(x, merged[i].b) - merged[i].a;
    }
};

} // namespace

TrainingJob
TrainingJob::Of(TrainingPlan&& plan,
                const std::string& model,
                const TrainingParallelSpec& parallel,
                uint32_t iterations)
{
    TrainingJob j;
    j.model = model;
    j.parallel = parallel;
    j.tokensPerIteration = plan.tokensPerIteration;
    j.iterations = iterations;
    j.ranks = parallel.tp * parallel.pp * parallel.dp;
    j.kind = std::move(plan.kind);
    j.collective = std::move(plan.collective);
    j.collectives = std::move(plan.collectives);
    j.iterationEnd = std::move(plan.iterationEnd);
    std::size_t n = plan.transfers.size();
    j.src.reserve(n);
    j.dst.reserve(n);
    j.gapNs.reserve(n);
    j.iteration.reserve(n);
    for (const Transfer& t : plan.transfers)
    {
        j.src.push_back(t.src);
        j.dst.push_back(t.dst);
        j.gapNs.push_back(t.gapNs);
        j.iteration.push_back(t.iteration);
    }
    return j;
}

json
TrainingJson(const TrainingJob& job, const PlanTimes& times)
{
    const TrainingParallelSpec& p = job.parallel;
    json out;
    out["model"] = job.model;
    out["tp"] = p.tp;
    out["pp"] = p.pp;
    out["dp"] = p.dp;
    out["ep"] = p.ep;
    out["micro_batches"] = p.microBatches;
    out["micro_batch_size"] = p.microBatchSize;
    out["tokens_per_iteration"] = job.tokensPerIteration;

    // the start markers are the plan's first transfers, one per rank
    int64_t startPs = std::numeric_limits<int64_t>::max();
    for (uint32_t r = 0; r < job.ranks && r < times.size(); ++r)
    {
        if (times[r].completePs >= 0)
        {
            startPs = std::min(startPs, times[r].startPs);
        }
    }
    std::vector<int64_t> endPs;
    for (uint32_t k = 0; k < job.iterationEnd.size(); ++k)
    {
        int64_t end = -1;
        bool all = true;
        for (uint32_t m : job.iterationEnd[k])
        {
            all = all && times[m].completePs >= 0;
            end = std::max(end, times[m].completePs);
        }
        if (!all)
        {
            break;
        }
        endPs.push_back(end);
    }
    json its = json::array();
    double sumUs = 0;
    int64_t prev = startPs;
    for (int64_t e : endPs)
    {
        its.push_back(Us(e - prev));
        sumUs += static_cast<double>(e - prev) / 1e6;
        prev = e;
    }
    out["iteration_us"] = its;
    bool any = !endPs.empty();
    double mean = any ? sumUs / static_cast<double>(endPs.size()) : 0;
    out["mean_iteration_us"] = any ? json(RoundDecimals(mean, 3)) : json(nullptr);
    out["tokens_per_s"] =
        any && mean > 0
            ? json(RoundDecimals(static_cast<double>(job.tokensPerIteration) / mean * 1e6, 1))
            : json(nullptr);
    if (!any)
    {
        out["critical_rank"] = nullptr;
        out["compute_us"] = nullptr;
        out["bubble_us"] = nullptr;
        out["exposed_us"] = nullptr;
        out["critical_collective"] = nullptr;
        out["timeline"] = json::array();
        out["timeline_truncated"] = false;
        return out;
    }

    // the critical rank: the last to end the first iteration (lowest rank on a tie)
    uint32_t c = 0;
    for (uint32_t r = 0; r < job.ranks; ++r)
    {
        if (times[job.iterationEnd[0][r]].completePs > times[job.iterationEnd[0][c]].completePs)
        {
            c = r;
        }
    }
    int64_t from = startPs;
    int64_t to = times[job.iterationEnd[0][c]].completePs;
    std::vector<Interval> compute;
    std::vector<Interval> span(job.collectives.size(), {std::numeric_limits<int64_t>::max(), -1});
    std::vector<uint32_t> mine; // collectives the rank takes part in (first iteration)
    for (std::size_t i = 0; i < job.kind.size(); ++i)
    {
        if (job.iteration[i] != 0 || (job.src[i] != c && job.dst[i] != c) ||
            times[i].completePs < 0)
        {
            continue;
        }
        if (job.kind[i] == TrainingKind::COMPUTE)
        {
            if (job.gapNs[i] > 0)
            {
                int64_t end = times[i].startPs;
                compute.push_back({end - static_cast<int64_t>(job.gapNs[i]) * 1000, end});
            }
            continue;
        }
        Interval& s = span[job.collective[i]];
        if (s.b < 0)
        {
            mine.push_back(job.collective[i]);
        }
        s.a = std::min(s.a, times[i].startPs);
        s.b = std::max(s.b, times[i].completePs);
    }

    // elementary intervals between every boundary, each computing or not and with the kinds in
    // flight
    std::vector<int64_t> cuts = {from, to};
    auto clip = [&](Interval v)
    {
        return Interval{std::clamp(v.a, from, to), std::clamp(v.b, from, to)};
    };
    for (const Interval& v : compute)
    {
        cuts.push_back(clip(v).a);
        cuts.push_back(clip(v).b);
    }
    for (uint32_t k : mine)
    {
        cuts.push_back(clip(span[k]).a);
        cuts.push_back(clip(span[k]).b);
    }
    std::sort(cuts.begin(), cuts.end());
    cuts.erase(std::unique(cuts.begin(), cuts.end()), cuts.end());
    auto at = [&](int64_t x)
    {
        return std::lower_bound(cuts.begin(), cuts.end(), x) - cuts.begin();
    };
    std::vector<std::array<int32_t, 5>> diff(cuts.size() + 1, std::array<int32_t, 5>{});
    auto mark = [&](Interval v, std::size_t lane)
    {
        v = clip(v);
        if (v.b > v.a)
        {
            ++diff[at(v.a)][lane];
            --diff[at(v.b)][lane];
        }
    };
    for (const Interval& v : compute)
    {
        mark(v, 0);
    }
    for (uint32_t k : mine)
    {
        mark(span[k], Lane(job.collectives[k].kind));
    }
    std::array<int64_t, 5> exposed{};
    int64_t computePs = 0;
    int64_t idlePs = 0;
    std::array<int32_t, 5> active{};
    std::vector<Segment> segments;
    std::array<int64_t, 5> lastSeg;
    lastSeg.fill(-1);
    Covered covered;
    auto add = [&](TrainingKind kind, int64_t a, int64_t b, bool isExposed)
    {
        int64_t& last = lastSeg[Lane(kind)];
        if (last >= 0 && segments[last].b == a && segments[last].exposed == isExposed)
        {
            segments[last].b = b;
            return;
        }
        last = static_cast<int64_t>(segments.size());
        segments.push_back({kind, a, b, isExposed});
    };
    for (std::size_t j = 0; j + 1 < cuts.size(); ++j)
    {
        for (std::size_t l = 0; l < 5; ++l)
        {
            active[l] += diff[j][l];
        }
        int64_t a = cuts[j];
        int64_t b = cuts[j + 1];
        if (active[0] > 0)
        {
            computePs += b - a;
            add(TrainingKind::COMPUTE, a, b, false);
            if (!covered.merged.empty() && covered.merged.back().b == a)
            {
                covered.merged.back().b = b;
            }
            else
            {
                covered.before.push_back(covered.merged.empty()
                                             ? 0
                                             : covered.before.back() + covered.merged.back().b -
                                                   covered.merged.back().a);
                covered.merged.push_back({a, b});
            }
        }
        bool charged = active[0] > 0;
        for (TrainingKind k : kCommKinds)
        {
            if (active[Lane(k)] <= 0)
            {
                continue;
            }
            add(k, a, b, active[0] <= 0);
            if (!charged)
            {
                exposed[Lane(k)] += b - a;
                charged = true;
            }
        }
        if (!charged)
        {
            idlePs += b - a;
        }
    }
    out["critical_rank"] = c;
    out["compute_us"] = Us(computePs);
    out["bubble_us"] = Us(idlePs);
    json ex;
    for (TrainingKind k : {TrainingKind::TP, TrainingKind::PP, TrainingKind::DP, TrainingKind::EP})
    {
        ex[TrainingKindName(k)] = Us(exposed[Lane(k)]);
    }
    out["exposed_us"] = ex;

    // the collective with the most time not hidden behind the rank's compute
    json critical = nullptr;
    int64_t worst = -1;
    for (uint32_t k : mine)
    {
        Interval v = clip(span[k]);
        int64_t open = (v.b - v.a) - (covered.Upto(v.b) - covered.Upto(v.a));
        if (open > worst)
        {
            worst = open;
            const TrainingCollective& tc = job.collectives[k];
            critical = {{"kind", TrainingKindName(tc.kind)},
                        {"op", tc.op},
                        {"ranks", tc.ranks},
                        {"bytes", tc.bytes},
                        {"us", Us(span[k].b - span[k].a)},
                        {"exposed_us", Us(open)}};
        }
    }
    out["critical_collective"] = critical;
    std::stable_sort(segments.begin(), segments.end(),
                     [](const Segment& x, const Segment& y) { return x.a < y.a; });
    json timeline = json::array();
    for (std::size_t i = 0; i < segments.size() && i < kMaxTimelineSegments; ++i)
    {
        const Segment& s = segments[i];
        timeline.push_back({{"kind", TrainingKindName(s.kind)},
                            {"start_us", Us(s.a - from)},
                            {"end_us", Us(s.b - from)},
                            {"exposed", s.exposed}});
    }
    out["timeline"] = timeline;
    out["timeline_truncated"] = segments.size() > kMaxTimelineSegments;
    return out;
}

} // namespace fabric
