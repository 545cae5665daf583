/*
 * Benchmark driver for the packet-level model (bench/run-bench.sh runs it).
 *   fabric-bench A [duration_us] [load]  : DCQCN benchmark fabric, WebSearch Poisson traffic
 *   fabric-bench B [duration_us]         : 2-to-1 incast at 25 Gbit/s
 *   fabric-bench big [duration_us]       : ~5,000-node three-tier fabric, light traffic (memory)
 *   fabric-bench scenario-A [duration_us] [load] : Reference A as a scenario file (stdout), with
 *                                          the same flows, ports and ECMP seeds, for `fabricsim run`
 * Prints one JSON line with wall time, packet and event rates, peak memory and slowdowns.
 */
#include "helper/fabric-run.h"
#include "helper/fabric-runner.h"
#include "scenario/process-memory.h"

#include <nlohmann/json.hpp>

#include <chrono>
#include <cstdio>
#include <iostream>
#include <random>
#include <string>

using namespace fabric;

namespace
{

uint32_t
Node(Scenario& s, const std::string& id, bool host, int tier)
{
    NodeSpec n;
    n.id = id;
    n.isHost = host;
    n.tier = tier;
    s.topo.nodes.push_back(n);
    uint32_t idx = static_cast<uint32_t>(s.topo.nodes.size() - 1);
    s.topo.index[id] = idx;
    return idx;
}

void
Link(Scenario& s, uint32_t a, uint32_t b, double gbps, double us)
{
    LinkSpec l;
    l.id = static_cast<uint32_t>(s.topo.links.size());
    l.a = a;
    l.b = b;
    l.rateGbps = gbps;
    l.delayUs = us;
    s.topo.links.push_back(l);
}

/**
 * Three-tier Clos: pods of torsPerPod ToRs and aggsPerPod aggregation switches (full mesh in a
 * pod), aggregation switch j of each pod to cores j*coresPerAgg .. +coresPerAgg-1.
 */
std::vector<uint32_t>
ThreeTier(Scenario& s, int pods, int torsPerPod, int aggsPerPod, int coresPerAgg, int hostsPerTor,
          double hostGbps, double fabricGbps)
{
    std::vector<uint32_t> hosts;
    int nCores = aggsPerPod * coresPerAgg;
    for (int p = 0; p < pods; ++p)
    {
        for (int t = 0; t < torsPerPod; ++t)
        {
            for (int h = 0; h < hostsPerTor; ++h)
            {
                hosts.push_back(Node(s, "h" + std::to_string(hosts.size()), true, 0));
            }
        }
    }
    std::vector<uint32_t> cores;
    for (int c = 0; c < nCores; ++c)
    {
        cores.push_back(Node(s, "core" + std::to_string(c), false, 3));
    }
    size_t hi = 0;
    for (int p = 0; p < pods; ++p)
    {
        std::vector<uint32_t> aggs;
        for (int a = 0; a < aggsPerPod; ++a)
        {
            aggs.push_back(Node(s, "agg" + std::to_string(p * aggsPerPod + a), false, 2));
            for (int c = 0; c < coresPerAgg; ++c)
            {
                Link(s, aggs.back(), cores[a * coresPerAgg + c], fabricGbps, 1);
            }
        }
        for (int t = 0; t < torsPerPod; ++t)
        {
            uint32_t tor = Node(s, "tor" + std::to_string(p * torsPerPod + t), false, 1);
            for (uint32_t a : aggs)
            {
                Link(s, tor, a, fabricGbps, 1);
            }
            for (int h = 0; h < hostsPerTor; ++h)
            {
                Link(s, hosts[hi++], tor, hostGbps, 1);
            }
        }
    }
    return hosts;
}

void
Configure(Scenario& s, uint32_t seed)
{
    s.seed = seed;
    s.switchCfg.assign(s.topo.nodes.size(), SwitchConfig());
    s.nicCfg.assign(s.topo.nodes.size(), NicConfig());
    for (NicConfig& n : s.nicCfg)
    {
        // As the scenario reader does: an unset nic.cnp_mode takes the CC preset's mode, so that
        // bench/reference-a.json (read by fabricsim) runs exactly what this driver runs.
        n.cnpMode = n.cc.presetCnpMode;
    }
    for (size_t i = 0; i < s.switchCfg.size(); ++i)
    {
        s.switchCfg[i].ecmpSeed = static_cast<uint32_t>(i * 2654435761u + seed);
    }
}

/** WebSearch CDF (HPCC traffic generator), linear interpolation. */
const std::vector<std::pair<double, double>> kWebSearch = {
    {0, 0},          {10000, 15},     {20000, 20},    {30000, 30},    {50000, 40},
    {80000, 53},     {200000, 60},    {1000000, 70},  {2000000, 80},  {5000000, 90},
    {10000000, 97},  {30000000, 100}};

double
CdfMean(const std::vector<std::pair<double, double>>& cdf)
{
    double m = 0;
    for (size_t i = 1; i < cdf.size(); ++i)
    {
        m += (cdf[i].second - cdf[i - 1].second) / 100.0 * (cdf[i].first + cdf[i - 1].first) / 2;
    }
    return m;
}

uint64_t
SampleCdf(const std::vector<std::pair<double, double>>& cdf, double u)
{
    double pct = u * 100.0;
    for (size_t i = 1; i < cdf.size(); ++i)
    {
        if (pct <= cdf[i].second)
        {
            double f = (pct - cdf[i - 1].second) / (cdf[i].second - cdf[i - 1].second);
            return std::max<uint64_t>(1, static_cast<uint64_t>(cdf[i - 1].first +
                                                               f * (cdf[i].first - cdf[i - 1].first)));
        }
    }
    return static_cast<uint64_t>(cdf.back().first);
}

void
Workload(Scenario& s, const std::vector<uint32_t>& hosts, double load, double hostGbps,
         uint64_t durationNs, uint32_t seed)
{
    std::mt19937_64 rng(seed);
    std::uniform_real_distribution<double> uni(0.0, 1.0);
    double mean = CdfMean(kWebSearch);
    double lambdaPerNs = load * hostGbps / 8.0 / mean; // flows per ns per host
    std::vector<FlowSpec> flows;
    for (size_t i = 0; i < hosts.size(); ++i)
    {
        double t = 0;
        uint16_t port = 49152;
        while (true)
        {
            t += -std::log(1.0 - uni(rng)) / lambdaPerNs;
            if (t >= durationNs)
            {
                break;
            }
            FlowSpec f;
            f.src = hosts[i];
            size_t d = static_cast<size_t>(uni(rng) * (hosts.size() - 1));
            f.dst = hosts[d >= i ? d + 1 : d];
            f.sizeBytes = SampleCdf(kWebSearch, uni(rng));
            f.startNs = static_cast<uint64_t>(t);
            f.udpSrcPort = port++;
            f.window = 16;
            f.messageBytes = 65536;
            flows.push_back(f);
        }
    }
    std::sort(flows.begin(), flows.end(), [](const FlowSpec& a, const FlowSpec& b) {
        return a.startNs != b.startNs ? a.startNs < b.startNs : a.src < b.src;
    });
    for (size_t i = 0; i < flows.size(); ++i)
    {
        flows[i].id = static_cast<uint32_t>(i);
    }
    s.flows = std::move(flows);
}

/** Reference A as scenario JSON: explicit nodes in index order, per-switch ECMP seeds as
 *  overrides (used as given, not mixed), the flows as an explicit list with their UDP ports. */
nlohmann::ordered_json
ScenarioJson(const Scenario& s, double durUs)
{
    using nlohmann::ordered_json;
    ordered_json doc;
    doc["schema_version"] = 1;
    doc["name"] = "Reference A (bench)";
    doc["description"] =
        "fabric-bench A as a scenario: 320 hosts, 20 ToR, 20 agg, 16 core; WebSearch at 30% load; "
        "DCQCN with the dcqcn-paper preset, named since the default became nvidia-default, so that "
        "it runs what simcore/examples/fabric-bench.cc runs (docs/benchmarks.md).";
    doc["seed"] = s.seed;
    doc["duration_us"] = durUs;
    ordered_json nodes = ordered_json::array();
    ordered_json overrides = ordered_json::object();
    for (size_t i = 0; i < s.topo.nodes.size(); ++i)
    {
        const NodeSpec& n = s.topo.nodes[i];
        nodes.push_back({{"id", n.id}, {"kind", n.isHost ? "host" : "switch"}, {"tier", n.tier}});
        if (!n.isHost)
        {
            overrides[n.id] = {{"ecmp_seed", s.switchCfg[i].ecmpSeed}};
        }
    }
    ordered_json links = ordered_json::array();
    for (const LinkSpec& l : s.topo.links)
    {
        links.push_back({{"a", s.topo.nodes[l.a].id}, {"b", s.topo.nodes[l.b].id},
                         {"rate_gbps", l.rateGbps}, {"delay_us", l.delayUs}});
    }
    doc["topology"] = {{"kind", "explicit"}, {"nodes", nodes}, {"links", links}};
    doc["switch_overrides"] = overrides;
    // The driver's NICs take the C++ struct defaults, the dcqcn-paper values and spacing.
    doc["nic"] = {{"cc", {{"preset", "dcqcn-paper"}}}};
    ordered_json flows = ordered_json::array();
    for (const FlowSpec& f : s.flows)
    {
        flows.push_back({{"src", s.topo.nodes[f.src].id}, {"dst", s.topo.nodes[f.dst].id},
                         {"size_bytes", f.sizeBytes}, {"start_us", f.startNs / 1e3},
                         {"udp_src_port", f.udpSrcPort}});
    }
    doc["traffic"] = ordered_json::array({{{"kind", "flows"}, {"flows", flows}}});
    doc["monitor"] = {{"sample_interval_us", 10},
                      {"queues", ordered_json::array()},
                      {"flows", ordered_json::array()},
                      {"ports", ordered_json::array()}};
    return doc;
}

} // namespace

int
main(int argc, char** argv)
{
    std::string which = argc > 1 ? argv[1] : "A";
    double durUs = argc > 2 ? std::stod(argv[2]) : 10000;
    double load = argc > 3 ? std::stod(argv[3]) : 0.3;
    Scenario s;
    s.durationNs = static_cast<uint64_t>(durUs * 1000);
    s.monitor.sampleIntervalUs = 10;
    if (which == "scenario-A")
    {
        auto hosts = ThreeTier(s, 5, 4, 4, 4, 16, 100, 400);
        Configure(s, 1);
        Workload(s, hosts, load, 100, s.durationNs, 1);
        std::cout << ScenarioJson(s, durUs).dump() << std::endl;
        return 0;
    }
    if (which == "A")
    {
        auto hosts = ThreeTier(s, 5, 4, 4, 4, 16, 100, 400);
        Configure(s, 1);
        Workload(s, hosts, load, 100, s.durationNs, 1);
    }
    else if (which == "big")
    {
        // 4,096 hosts + 896 switches: 16 pods x (32 ToRs of 8 hosts, 16 aggs), 128 cores.
        auto hosts = ThreeTier(s, 16, 32, 16, 8, 8, 100, 400);
        Configure(s, 1);
        Workload(s, hosts, load, 100, s.durationNs, 1);
    }
    else
    {
        uint32_t h0 = Node(s, "h0", true, 0);
        uint32_t h1 = Node(s, "h1", true, 0);
        uint32_t h2 = Node(s, "h2", true, 0);
        uint32_t sw = Node(s, "leaf0", false, 1);
        Link(s, h0, sw, 25, 1);
        Link(s, h1, sw, 25, 1);
        Link(s, h2, sw, 25, 1);
        Configure(s, 1);
        for (auto& c : s.switchCfg)
        {
            for (auto& e : c.ecn)
            {
                // DCQCN paper marking (Kmin 5 KB, Kmax 200 KB, Pmax 1%), as in the scenario example.
                e.kminBytes = 5000;
                e.kmaxBytes = 200000;
                e.pmax = 0.01;
            }
        }
        for (uint32_t src : {h1, h2})
        {
            FlowSpec f;
            f.id = static_cast<uint32_t>(s.flows.size());
            f.src = src;
            f.dst = h0;
            f.udpSrcPort = static_cast<uint16_t>(49152 + f.id);
            s.flows.push_back(f);
        }
        s.monitor.queues.push_back({sw, h0});
        s.monitor.flows = {0, 1};
    }
    auto t0 = std::chrono::steady_clock::now();
    FabricRunner r(s);
    double buildS = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    auto t1 = std::chrono::steady_clock::now();
    r.Run(RunLimits(), nullptr);
    double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t1).count();
    auto res = r.Results();
    nlohmann::ordered_json out;
    out["reference"] = which;
    out["nodes"] = s.topo.nodes.size();
    out["flows"] = s.flows.size();
    out["sim_us"] = r.SimTimeNs() / 1e3;
    out["build_s"] = buildS;
    out["wall_s"] = wall;
    out["packets_tx"] = r.PacketsTx();
    out["packets_per_s"] = r.PacketsTx() / wall;
    out["events"] = r.Events();
    out["events_per_s"] = r.Events() / wall;
    out["peak_rss_mb"] = PeakRssMb();
    out["throughput_gbps"] = res["summary"]["throughput_gbps"];
    out["flows_completed"] = res["summary"]["flows_completed"];
    out["slowdown"] = res["summary"]["slowdown"];
    out["fct_us"] = res["summary"]["fct_us"];
    out["drops"] = res["summary"]["drops"];
    out["pfc_pauses_sent"] = res["summary"]["pfc_pauses_sent"];
    out["cnps_sent"] = res["summary"]["cnps_sent"];
    out["max_queue_bytes"] = res["summary"]["max_queue_bytes"];
    std::cout << out.dump() << std::endl;
    return 0;
}
