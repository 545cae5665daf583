/*
 * The "jobs" block of a result (docs/result-format.md): per collective job its iterations, job
 * completion time and NCCL-tests' bandwidths (algbw = size / time, busbw = algbw x the op's
 * factor), and per step (iteration, channel, step) its span and slowest transfer, for the
 * timeline; and the job's ideal bus bandwidth (docs/model.md, "The ideal bus bandwidth").
 * Computed from each transfer's start and completion, whichever engine ran them: the packet
 * model (helper/job-report.cc) and the flow engine (flow/flow-result.cc) both call it.
 */
#include "job-summary.h"

#include "collective-ideal.h"
#include "common/rounding.h"
#include "training-summary.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <tuple>
#include <utility>

namespace fabric
{

namespace
{

struct Span
{
    int64_t startPs = std::numeric_limits<int64_t>::max();
    int64_t endPs = -1;
    bool complete = true;
    bool any = false;

    void Add(const TransferTimes& f)
    {
        bool started = f.startPs > 0 || f.completePs >= 0 || f.started;
        if (started)
        {
            startPs = std::min(startPs, f.startPs);
            any = true;
        }
        if (f.completePs < 0)
        {
            complete = false;
        }
        else
        {
            endPs = std::max(endPs, f.completePs);
        }
    }

    nlohmann::ordered_json Start() const
    {
        return any ? nlohmann::ordered_json(RoundDecimals(startPs / 1e6, 3))
                   : nlohmann::ordered_json(nullptr);
    }

    /** Adds a whole group of transfers (a ring program's step) as Add would one by one. */
    void Merge(const RingStepTimes& t, uint64_t transfers)
    {
        if (t.posted > 0)
        {
            startPs = std::min(startPs, t.firstStartPs);
            any = true;
        }
        if (t.completed < transfers)
        {
            complete = false;
        }
        endPs = std::max(endPs, t.lastCompletePs);
    }

    void Merge(const Span& o)
    {
        if (o.any)
        {
            startPs = std::min(startPs, o.startPs);
            any = true;
        }
        complete = complete && o.complete;
        endPs = std::max(endPs, o.endPs);
    }

    bool Done() const { return any && complete; }

    double TimeUs() const { return (endPs - startPs) / 1e6; }
};

struct StepInfo
{
    Span span;
    uint64_t bytes = 0;
    uint32_t network = 0;
    uint32_t nvlink = 0;
    int64_t slowestPs = -1;
    uint32_t slowestFlow = 0; ///< the slowest transfer's connection
};

/** Gbit/s of message_bytes moved in time_us (NCCL-tests' algbw, in bits). */
double
Gbps(uint64_t bytes, double timeUs)
{
    return timeUs > 0 ? static_cast<double>(bytes) * 8.0 / timeUs / 1000.0 : 0.0;
}

} // namespace

double
JobGbps(uint64_t bytes, double timeUs)
{
    return Gbps(bytes, timeUs);
}

nlohmann::ordered_json
JobHeaderJson(const Scenario& s, const JobSpec& spec)
{
    using json = nlohmann::ordered_json;
    json r;
    r["name"] = spec.name;
    r["generator"] = spec.generator;
    r["op"] = spec.op;
    r["algorithm"] = spec.algorithm;
    r["ranks"] = spec.ranks.size();
    r["servers"] = spec.servers;
    json hosts = json::array();
    for (uint32_t h : spec.ranks)
    {
        hosts.push_back(s.topo.nodes[h].id);
    }
    double nicGbps = JobNicPayloadGbps(s, spec);
    r["hosts"] = hosts;
    r["message_bytes"] = spec.messageBytes;
    r["channels"] = spec.channels;
    r["bus_factor"] = RoundDecimals(spec.busFactor, 6);
    r["nic_payload_gbps"] = RoundDecimals(nicGbps, 4);
    CollectiveIdeal ideal = IdealBusbw(spec, nicGbps);
    r["nvlink_gbps"] = RoundDecimals(spec.nvlinkGbps, 4);
    r["ranks_per_server"] = spec.ranksPerServer;
    r["channels_per_nic"] = ideal.channelsPerNic;
    r["ideal_busbw_gbps"] = RoundDecimals(ideal.gbps, 4);
    r["ideal_limit"] = ideal.limit;
    return r;
}

nlohmann::ordered_json
JobsJson(const Scenario& s,
         const std::vector<TransferTimes>& times,
         const std::function<nlohmann::ordered_json(uint32_t job)>& links,
         const std::vector<RingStepTimes>& ringSteps)
{
    using json = nlohmann::ordered_json;
    const auto& nodes = s.topo.nodes;
    std::size_t jobs = s.jobs.size();
    std::vector<std::vector<Span>> iterations(jobs);
    std::vector<std::map<std::tuple<uint32_t, uint32_t, uint32_t>, StepInfo>> steps(jobs);
    std::vector<uint64_t> networkBytes(jobs, 0);
    std::vector<uint64_t> nvlinkBytes(jobs, 0);
    std::vector<uint64_t> flowCount(jobs, 0);
    std::vector<uint64_t> flowsDone(jobs, 0);
    // a training job's transfers by plan index (JobFlow::step), for its training block
    // (each plan index's transfer index: PlanTimes reads the times through it)
    std::vector<std::vector<uint32_t>> planIndex(jobs);
    for (std::size_t j = 0; j < jobs; ++j)
    {
        iterations[j].resize(s.jobs[j].iterations);
        if (s.jobs[j].training)
        {
            planIndex[j].assign(s.jobs[j].training->kind.size(), UINT32_MAX);
        }
    }
    const Transfers& tr = s.transfers;
    for (std::size_t i = 0; i < tr.Size() && i < times.size(); ++i)
    {
        const JobFlow& jf = tr.job[i];
        if (jf.job >= jobs)
        {
            continue;
        }
        const FlowSpec& spec = s.flows[tr.flow[i]];
        const TransferTimes& f = times[i];
        uint64_t bytes = tr.bytes[i];
        iterations[jf.job][jf.iteration].Add(f);
        (spec.local ? nvlinkBytes : networkBytes)[jf.job] += bytes;
        // (a stand-in counts the transfers it stands for: Transfers::nvlinkGroups)
        uint32_t stands = tr.Stands(i);
        flowCount[jf.job] += stands;
        if (f.completePs >= 0)
        {
            flowsDone[jf.job] += stands;
        }
        if (s.jobs[jf.job].training)
        {
            // a training transfer's step is its plan index (s.transfers is numbered by
            // connection, not in plan order)
            planIndex[jf.job][jf.step] = static_cast<uint32_t>(i);
            continue;
        }
        StepInfo& st = steps[jf.job][{jf.iteration, jf.channel, jf.step}];
        st.span.Add(f);
        st.bytes += bytes;
        (spec.local ? st.nvlink : st.network) += 1;
        if (f.completePs >= 0)
        {
            if (f.completePs - f.startPs > st.slowestPs)
            {
                st.slowestPs = f.completePs - f.startPs;
                st.slowestFlow = tr.flow[i];
            }
        }
    }
    // Ring programs: a step of a channel at a time (ringSteps by RingStepSlot, or none)
    std::size_t slot = 0;
    const RingStepTimes none;
    for (const RingProgram& r : tr.rings)
    {
        std::vector<uint32_t> local(r.channels, 0);
        for (uint32_t q = 0; q < r.flows.size(); ++q)
        {
            local[q / r.ranks] += s.flows[r.flows[q]].local ? 1 : 0;
        }
        for (uint32_t it = 0; it < r.iterations; ++it)
        {
            for (uint32_t c = 0; c < r.channels; ++c)
            {
                for (uint32_t k = 0; k < r.steps; ++k, ++slot)
                {
                    const RingStepTimes& t = slot < ringSteps.size() ? ringSteps[slot] : none;
                    Span span;
                    span.Merge(t, r.ranks);
                    iterations[r.job][it].Merge(span);
                    uint32_t network = r.ranks - local[c];
                    networkBytes[r.job] += network * r.blockBytes;
                    nvlinkBytes[r.job] += local[c] * r.blockBytes;
                    flowCount[r.job] += r.ranks;
                    flowsDone[r.job] += t.completed;
                    StepInfo& st = steps[r.job][{it, c, k}];
                    st.span.Merge(span);
                    st.bytes += static_cast<uint64_t>(r.ranks) * r.blockBytes;
                    st.network += network;
                    st.nvlink += local[c];
                    if (t.slowestPs > st.slowestPs)
                    {
                        st.slowestPs = t.slowestPs;
                        st.slowestFlow = t.slowestFlow;
                    }
                }
            }
        }
    }
    auto via = [&](uint32_t flow)
    {
        return s.flows[flow].local ? "nvlink" : "network";
    };
    json out = json::array();
    for (std::size_t j = 0; j < jobs; ++j)
    {
        const JobSpec& spec = s.jobs[j];
        json r = JobHeaderJson(s, spec);
        Span whole;
        double sumUs = 0;
        uint32_t done = 0;
        json its = json::array();
        for (uint32_t k = 0; k < spec.iterations; ++k)
        {
            const Span& it = iterations[j][k];
            json e;
            e["index"] = k;
            e["start_us"] = it.Start();
            if (it.Done())
            {
                double t = it.TimeUs();
                e["end_us"] = RoundDecimals(it.endPs / 1e6, 3);
                e["time_us"] = RoundDecimals(t, 3);
                e["algbw_gbps"] = RoundDecimals(Gbps(spec.messageBytes, t), 4);
                e["busbw_gbps"] = RoundDecimals(Gbps(spec.messageBytes, t) * spec.busFactor, 4);
                sumUs += t;
                ++done;
            }
            else
            {
                e["end_us"] = nullptr;
                e["time_us"] = nullptr;
                e["algbw_gbps"] = nullptr;
                e["busbw_gbps"] = nullptr;
            }
            if (it.any)
            {
                whole.startPs = std::min(whole.startPs, it.startPs);
                whole.any = true;
            }
            whole.endPs = std::max(whole.endPs, it.endPs);
            whole.complete = whole.complete && it.Done();
            its.push_back(std::move(e));
        }
        bool complete = whole.Done() && done == spec.iterations;
        r["completed"] = complete;
        r["jct_us"] = complete ? json(RoundDecimals(whole.TimeUs(), 3)) : json(nullptr);
        double meanUs = done ? sumUs / done : 0;
        r["algbw_gbps"] =
            done ? json(RoundDecimals(Gbps(spec.messageBytes, meanUs), 4)) : json(nullptr);
        r["busbw_gbps"] =
            done ? json(RoundDecimals(Gbps(spec.messageBytes, meanUs) * spec.busFactor, 4))
                 : json(nullptr);
        r["iterations"] = std::move(its);
        r["flows"] = flowCount[j];
        r["flows_completed"] = flowsDone[j];
        r["network_bytes"] = networkBytes[j];
        r["nvlink_bytes"] = nvlinkBytes[j];
        json stepList = json::array();
        json slowest = nullptr;
        double slowestUs = -1;
        for (const auto& [key, st] : steps[j])
        {
            auto [iteration, channel, step] = key;
            json e;
            e["iteration"] = iteration;
            e["channel"] = channel;
            e["step"] = step;
            e["start_us"] = st.span.Start();
            bool stepDone = st.span.Done();
            e["end_us"] = stepDone ? json(RoundDecimals(st.span.endPs / 1e6, 3)) : json(nullptr);
            e["bytes"] = st.bytes;
            e["network_flows"] = st.network;
            e["nvlink_flows"] = st.nvlink;
            if (st.slowestPs >= 0)
            {
                const FlowSpec& f = s.flows[st.slowestFlow];
                json w;
                w["src"] = nodes[f.src].id;
                w["dst"] = nodes[f.dst].id;
                w["time_us"] = RoundDecimals(st.slowestPs / 1e6, 3);
                w["via"] = via(st.slowestFlow);
                e["slowest"] = w;
                if (stepDone && st.span.TimeUs() > slowestUs)
                {
                    slowestUs = st.span.TimeUs();
                    slowest = {{"iteration", iteration}, {"channel", channel},
                               {"step", step},           {"time_us", RoundDecimals(slowestUs, 3)},
                               {"src", w["src"]},        {"dst", w["dst"]},
                               {"via", w["via"]}};
                }
            }
            else
            {
                e["slowest"] = nullptr;
            }
            if (stepList.size() < kMaxListedJobSteps)
            {
                stepList.push_back(std::move(e));
            }
        }
        r["slowest_step"] = std::move(slowest);
        r["steps_truncated"] = steps[j].size() > kMaxListedJobSteps;
        r["steps"] = std::move(stepList);
        r["links"] = links(static_cast<uint32_t>(j));
        if (spec.training)
        {
            r["kind"] = "training";
            r["training"] = TrainingJson(*spec.training, PlanTimes(times, planIndex[j]));
        }
        out.push_back(std::move(r));
    }
    return out;
}

} // namespace fabric
