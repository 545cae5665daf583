/*
 * The "jobs" block of a result (docs/result-format.md): per collective job its iterations, job
 * completion time and NCCL-tests' bandwidths (algbw = size / time, busbw = algbw x the op's
 * factor), and per step (iteration, channel, step) its span and slowest transfer, for the
 * timeline; and the job's ideal bus bandwidth (docs/model.md, "The ideal bus bandwidth").
 * Computed from each transfer's start and completion, whichever engine ran them: the packet
 * model (helper/job-report.cc) and the flow engine (flow/flow-result.cc) both call it.
 */
#include "job-summary.h"

#include "common/rounding.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <tuple>

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
        return any ? nlohmann::ordered_json(RoundDecimals(startPs / 1e6, 3)) : nlohmann::ordered_json(nullptr);
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
    uint32_t slowest = 0;
};

/** Gbit/s of message_bytes moved in time_us (NCCL-tests' algbw, in bits). */
double
Gbps(uint64_t bytes, double timeUs)
{
    return timeUs > 0 ? static_cast<double>(bytes) * 8.0 / timeUs / 1000.0 : 0.0;
}

/**
 * Each rank NIC's payload rate: its link's rate (a multi-plane NIC: its links' sum, added in
 * link order) x mtu / (mtu + headers + preamble and gap). One pass over the links for all ranks.
 */
std::vector<double>
PayloadGbps(const Scenario& s, const std::vector<uint32_t>& hosts)
{
    std::vector<double> rate(s.topo.nodes.size(), 0.0);
    std::vector<char> wanted(s.topo.nodes.size(), 0);
    for (uint32_t h : hosts)
    {
        wanted[h] = 1;
    }
    for (const LinkSpec& l : s.topo.links)
    {
        if (l.a < wanted.size() && wanted[l.a])
        {
            rate[l.a] += l.rateGbps;
        }
        if (l.b != l.a && l.b < wanted.size() && wanted[l.b])
        {
            rate[l.b] += l.rateGbps;
        }
    }
    std::vector<double> out;
    out.reserve(hosts.size());
    for (uint32_t h : hosts)
    {
        const NicConfig& nic = s.nicCfg[h];
        double mtu = nic.mtuBytes;
        out.push_back(rate[h] * mtu / (mtu + nic.headerBytes + nic.preambleIfgBytes));
    }
    return out;
}

/** The ideal busbw of a job and what bounds it (docs/model.md, "The ideal bus bandwidth"). */
struct Ideal
{
    double gbps = 0;
    const char* limit = "nic"; ///< the resource whose time dominates: "nic" or "nvlink"
    uint32_t channelsPerNic = 1;
};

/**
 * The busbw the job's algorithm reaches on a non-blocking fabric with no latency: every rank's
 * busiest resource (its NIC at the payload rate B, shared by the channels that leave the server
 * through it; NVLink at V per transfer) moves the algorithm's bytes back to back. S cancels, so
 * times are per byte of the message.
 */
Ideal
IdealBusbw(const JobSpec& j, double nicGbps)
{
    constexpr double kNone = std::numeric_limits<double>::infinity();
    double n = static_cast<double>(j.ranks.size());
    double g = std::max<uint32_t>(1, j.ranksPerServer);
    double C = std::max<uint32_t>(1, j.channels);
    double B = nicGbps;
    double V = j.nvlinkGbps > 0 && j.ranksPerServer > 1 ? j.nvlinkGbps : kNone;
    bool network = j.servers > 1;
    Ideal out;
    // rings and trees put channel c on local index c mod g of every server: ceil(C/g) channels share
    // a NIC; halving-doubling, all-to-all and hierarchical send every channel through the rank's NIC
    bool railChannels = j.algorithm == "ring" || j.algorithm == "tree";
    out.channelsPerNic = static_cast<uint32_t>(railChannels ? std::ceil(C / g) : C);
    double perChannelNic = network ? B / out.channelsPerNic : kNone;
    auto channelRate = [&]() {
        out.limit = perChannelNic <= V ? "nic" : "nvlink";
        return std::min(perChannelNic, V);
    };
    double nicTime = 0; // per message byte, in 1/Gbit/s
    double nvlinkTime = 0;
    if (j.algorithm == "ring")
    {
        // every step moves S/(Cn) per channel over its slowest hop: busbw = C x that hop's rate
        out.gbps = C * channelRate();
        return out;
    }
    if (j.algorithm == "tree")
    {
        double rate = C * channelRate();
        if (j.op == "all_reduce")
        {
            // an inner node of one tree, leaf of the other, sends (and receives) 2S/C per channel
            out.gbps = rate * (n - 1) / n;
        }
        else
        {
            // broadcast: an inner node sends each chunk to two children (one with 2 tree nodes)
            double nodes = network ? static_cast<double>(j.servers) : n;
            out.gbps = nodes > 2 ? rate / 2 : rate;
        }
        return out;
    }
    if (j.algorithm == "halving_doubling")
    {
        // step i exchanges S/2^i with the partner n/2^i away: inside the server when that is < g
        double levels = std::round(std::log2(n));
        for (int i = 1; i <= static_cast<int>(levels); ++i)
        {
            double bytes = 1.0 / std::pow(2.0, i);
            double distance = n / std::pow(2.0, i);
            if (distance >= g || !std::isfinite(V))
            {
                nicTime += bytes / B;
            }
            else
            {
                nvlinkTime += bytes / (C * V);
            }
        }
        double phases = j.op == "all_reduce" ? 2 : 1;
        nicTime *= phases;
        nvlinkTime *= phases;
    }
    else if (j.algorithm == "direct")
    {
        // all at once: (n - g)/n of S leaves through the NIC; NVLink blocks go side by side
        nicTime = network ? (n - g) / n / B : 0;
        nvlinkTime = std::isfinite(V) ? 1.0 / (C * n * V) : 0;
        out.limit = nicTime >= nvlinkTime ? "nic" : "nvlink";
        double t = std::max(nicTime, nvlinkTime);
        out.gbps = t > 0 ? j.busFactor / t : 0;
        return out;
    }
    else if (j.algorithm == "hierarchical")
    {
        // reduce-scatter and all-gather inside the server ((g-1) steps of S/(Cg) each over NVLink),
        // across servers a ring of 2(m-1) steps of S/(Cgm) per channel, all channels on one NIC
        double m = static_cast<double>(j.servers);
        nvlinkTime = std::isfinite(V) ? 2 * (g - 1) / g / (C * V) : 0;
        nicTime = network ? 2 * (m - 1) / (g * m) / B : 0;
    }
    out.limit = nicTime >= nvlinkTime ? "nic" : "nvlink";
    double t = nicTime + nvlinkTime;
    out.gbps = t > 0 ? j.busFactor / t : 0;
    return out;
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
    double nicGbps = std::numeric_limits<double>::max();
    std::vector<double> payload = PayloadGbps(s, spec.ranks);
    for (std::size_t i = 0; i < spec.ranks.size(); ++i)
    {
        hosts.push_back(s.topo.nodes[spec.ranks[i]].id);
        nicGbps = std::min(nicGbps, payload[i]);
    }
    r["hosts"] = hosts;
    r["message_bytes"] = spec.messageBytes;
    r["channels"] = spec.channels;
    r["bus_factor"] = RoundDecimals(spec.busFactor, 6);
    r["nic_payload_gbps"] = RoundDecimals(nicGbps, 4);
    Ideal ideal = IdealBusbw(spec, nicGbps);
    r["nvlink_gbps"] = RoundDecimals(spec.nvlinkGbps, 4);
    r["ranks_per_server"] = spec.ranksPerServer;
    r["channels_per_nic"] = ideal.channelsPerNic;
    r["ideal_busbw_gbps"] = RoundDecimals(ideal.gbps, 4);
    r["ideal_limit"] = ideal.limit;
    return r;
}

nlohmann::ordered_json
JobsJson(const Scenario& s, const std::vector<TransferTimes>& times,
         const std::function<nlohmann::ordered_json(uint32_t job)>& links)
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
    for (std::size_t j = 0; j < jobs; ++j)
    {
        iterations[j].resize(s.jobs[j].iterations);
    }
    for (std::size_t i = 0; i < s.jobFlows.size(); ++i)
    {
        const JobFlow& jf = s.jobFlows[i];
        if (jf.job >= jobs)
        {
            continue;
        }
        const FlowSpec& spec = s.flows[i];
        const TransferTimes& f = times[i];
        iterations[jf.job][jf.iteration].Add(f);
        StepInfo& st = steps[jf.job][{jf.iteration, jf.channel, jf.step}];
        st.span.Add(f);
        st.bytes += spec.sizeBytes;
        (spec.local ? st.nvlink : st.network) += 1;
        (spec.local ? nvlinkBytes : networkBytes)[jf.job] += spec.sizeBytes;
        ++flowCount[jf.job];
        if (f.completePs >= 0)
        {
            ++flowsDone[jf.job];
            if (f.completePs - f.startPs > st.slowestPs)
            {
                st.slowestPs = f.completePs - f.startPs;
                st.slowest = static_cast<uint32_t>(i);
            }
        }
    }
    auto via = [&](uint32_t flow) { return s.flows[flow].local ? "nvlink" : "network"; };
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
            its.push_back(e);
        }
        bool complete = whole.Done() && done == spec.iterations;
        r["completed"] = complete;
        r["jct_us"] = complete ? json(RoundDecimals(whole.TimeUs(), 3)) : json(nullptr);
        double meanUs = done ? sumUs / done : 0;
        r["algbw_gbps"] = done ? json(RoundDecimals(Gbps(spec.messageBytes, meanUs), 4)) : json(nullptr);
        r["busbw_gbps"] = done ? json(RoundDecimals(Gbps(spec.messageBytes, meanUs) * spec.busFactor, 4))
                               : json(nullptr);
        r["iterations"] = its;
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
                const FlowSpec& f = s.flows[st.slowest];
                json w;
                w["src"] = nodes[f.src].id;
                w["dst"] = nodes[f.dst].id;
                w["time_us"] = RoundDecimals(st.slowestPs / 1e6, 3);
                w["via"] = via(st.slowest);
                e["slowest"] = w;
                if (stepDone && st.span.TimeUs() > slowestUs)
                {
                    slowestUs = st.span.TimeUs();
                    slowest = {{"iteration", iteration},
                               {"channel", channel},
                               {"step", step},
                               {"time_us", RoundDecimals(slowestUs, 3)},
                               {"src", w["src"]},
                               {"dst", w["dst"]},
                               {"via", w["via"]}};
                }
            }
            else
            {
                e["slowest"] = nullptr;
            }
            if (stepList.size() < kMaxListedJobSteps)
            {
                stepList.push_back(e);
            }
        }
        r["slowest_step"] = slowest;
        r["steps_truncated"] = steps[j].size() > kMaxListedJobSteps;
        r["steps"] = stepList;
        r["links"] = links(static_cast<uint32_t>(j));
        out.push_back(r);
    }
    return out;
}

} // namespace fabric
