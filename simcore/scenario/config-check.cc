#include "config-check.h"
#include "collective-ideal.h"
#include "headroom.h"

#include "scenario-contract.h"
#include "common/rounding.h"
#include "common/wire.h"

#include <algorithm>
#include <cstdio>
#include <string>
#include <cmath>
#include <deque>
#include <map>
#include <iomanip>
#include <limits>
#include <sstream>
#include <set>

namespace fabric
{

using nlohmann::ordered_json;

namespace
{

constexpr std::size_t kMaxPairsChecked = 20000;

/**
 * A number in a finding's message or fix as the app prints the finding's numbers: whole numbers
 * exactly with thousands separators ("705,706"), others to 4 significant digits ("8.934"). One
 * formatting, so a message never says "8.930000 us" beside a "base rtt us 8.934".
 */
std::string
Num(double v)
{
    if (!std::isfinite(v))
    {
        return std::to_string(v);
    }
    double rounded = v;
    if (v != std::floor(v))
    {
        int magnitude = int(std::floor(std::log10(std::fabs(v))));
        double unit = std::pow(10.0, magnitude - 3); // 4 significant digits, as the app rounds
        rounded = magnitude > 3 ? std::round(v / unit) * unit : RoundDecimals(v, 3 - magnitude);
    }
    if (rounded == std::floor(rounded) && std::fabs(rounded) < 1e15)
    {
        std::string digits = std::to_string(int64_t(std::fabs(rounded)));
        std::string out;
        for (std::size_t i = 0; i < digits.size(); ++i)
        {
            if (i > 0 && (digits.size() - i) % 3 == 0)
            {
                out += ',';
            }
            out += digits[i];
        }
        return (rounded < 0 ? "-" : "") + out;
    }
    char buf[64];
    int magnitude = int(std::floor(std::log10(std::fabs(rounded))));
    std::snprintf(buf, sizeof buf, "%.*f", std::max(0, 3 - magnitude), rounded);
    std::string out = buf;
    while (out.back() == '0')
    {
        out.pop_back();
    }
    if (out.back() == '.')
    {
        out.pop_back();
    }
    return out;
}

struct Hop
{
    uint32_t from;
    uint32_t to;
    double rateGbps;
    double delayUs;
};

/** Adjacency: node -> (neighbor, link index). */
std::vector<std::vector<std::pair<uint32_t, uint32_t>>>
Adjacency(const Topology& t)
{
    std::vector<std::vector<std::pair<uint32_t, uint32_t>>> adj(t.nodes.size());
    for (uint32_t i = 0; i < t.links.size(); ++i)
    {
        adj[t.links[i].a].push_back({t.links[i].b, i});
        adj[t.links[i].b].push_back({t.links[i].a, i});
    }
    return adj;
}

/** One shortest path src -> dst through switches (what ECMP may pick), as hops. */
std::vector<Hop>
ShortestPath(const Topology& t, const std::vector<std::vector<std::pair<uint32_t, uint32_t>>>& adj,
             uint32_t src, uint32_t dst)
{
    std::vector<int64_t> prevLink(t.nodes.size(), -1);
    std::vector<int64_t> prevNode(t.nodes.size(), -1);
    std::vector<bool> seen(t.nodes.size(), false);
    std::deque<uint32_t> q{src};
    seen[src] = true;
    while (!q.empty())
    {
        uint32_t u = q.front();
        q.pop_front();
        if (u == dst)
        {
            break;
        }
        if (u != src && t.nodes[u].isHost)
        {
            continue; // hosts do not forward
        }
        for (auto [v, l] : adj[u])
        {
            if (!seen[v])
            {
                seen[v] = true;
                prevLink[v] = l;
                prevNode[v] = u;
                q.push_back(v);
            }
        }
    }
    std::vector<Hop> hops;
    if (!seen[dst])
    {
        return hops;
    }
    for (uint32_t v = dst; v != src; v = static_cast<uint32_t>(prevNode[v]))
    {
        const LinkSpec& l = t.links[static_cast<size_t>(prevLink[v])];
        hops.push_back({static_cast<uint32_t>(prevNode[v]), v, l.rateGbps, l.delayUs});
    }
    std::reverse(hops.begin(), hops.end());
    return hops;
}

std::string
Port(const Topology& t, uint32_t a, uint32_t b)
{
    return t.nodes[a].id + "->" + t.nodes[b].id;
}

/** Base RTT of a path: propagation both ways, a DATA frame out and an ACK back at every hop. */
double
BaseRttUs(const std::vector<Hop>& hops, uint32_t mtu)
{
    double us = 0;
    for (const Hop& h : hops)
    {
        us += 2 * h.delayUs + (mtu + kDataOverheadBytes + kAckWireBytes) * 8 / (h.rateGbps * 1e3);
    }
    return us;
}

uint32_t
Cells(uint64_t bytes, uint32_t cell)
{
    cell = std::max<uint32_t>(1, cell);
    return static_cast<uint32_t>((bytes + cell - 1) / cell * cell);
}

/** Headroom of a switch port as the simulator sets it (auto: the required amount). */
uint64_t
EffectiveHeadroom(const Scenario& s, uint32_t sw, const LinkSpec& l, uint32_t neighborMtu)
{
    const PfcConfig& pfc = s.switchCfg[sw].pfc;
    if (pfc.headroomAuto)
    {
        return AutoHeadroomBytes(l.rateGbps, l.delayUs, neighborMtu, s.switchCfg[sw].cellBytes);
    }
    return pfc.headroomBytes;
}

uint32_t
MaxHostMtu(const Scenario& s)
{
    uint32_t m = 1;
    for (uint32_t i = 0; i < s.topo.nodes.size(); ++i)
    {
        if (s.topo.nodes[i].isHost)
        {
            m = std::max(m, s.nicCfg[i].mtuBytes);
        }
    }
    return m;
}

void
CheckSwitchBuffers(const Scenario& s, std::vector<Finding>& out)
{
    const Topology& t = s.topo;
    uint32_t maxMtu = MaxHostMtu(s);
    for (uint32_t sw = 0; sw < t.nodes.size(); ++sw)
    {
        if (t.nodes[sw].isHost)
        {
            continue;
        }
        const SwitchConfig& cfg = s.switchCfg[sw];
        uint64_t reserved = 0;
        uint32_t ports = 0;
        for (const LinkSpec& l : t.links)
        {
            if (l.a != sw && l.b != sw)
            {
                continue;
            }
            ++ports;
            uint32_t peer = l.a == sw ? l.b : l.a;
            uint32_t mtu = t.nodes[peer].isHost ? s.nicCfg[peer].mtuBytes : maxMtu;
            uint64_t need = AutoHeadroomBytes(l.rateGbps, l.delayUs, mtu, cfg.cellBytes);
            uint64_t have = EffectiveHeadroom(s, sw, l, mtu);
            reserved += cfg.pfc.enabled ? have : 0;
            if (cfg.pfc.enabled && have < need)
            {
                out.push_back({"error", "headroom_below_cable",
                               {Port(t, peer, sw)},
                               {{"headroom_bytes", double(have)}, {"required_bytes", double(need)},
                                {"rate_gbps", l.rateGbps}, {"delay_us", l.delayUs}},
                               "headroom of " + Num(have) + " B at " + t.nodes[sw].id +
                                   "'s ingress from " + t.nodes[peer].id +
                                   " is below the " + Num(need) +
                                   " B that arrive after XOFF (2 x rate x cable delay + 2 frames "
                                   "+ 1 us of response): lossless traffic will be dropped",
                               "set switch.pfc.headroom_bytes to at least " + Num(need) +
                                   " (or \"auto\")"});
            }
        }
        if (cfg.pfc.enabled && reserved >= cfg.bufferBytes)
        {
            out.push_back({"error", "buffer_below_headroom", {t.nodes[sw].id},
                           {{"buffer_bytes", double(cfg.bufferBytes)},
                            {"headroom_reserved_bytes", double(reserved)}, {"ports", double(ports)}},
                           t.nodes[sw].id + "'s buffer (" + Num(cfg.bufferBytes) +
                               " B) does not even hold its headroom reservations (" +
                               Num(reserved) + " B): no shared buffer is left",
                           "raise switch.buffer_bytes above " + Num(reserved) +
                               " B or lower the headroom"});
            continue;
        }
        uint64_t pool = cfg.bufferBytes - (cfg.pfc.enabled ? reserved : 0);
        // A single congested egress may hold at most alpha/(1+alpha) of the shared pool.
        double singlePort = cfg.pfc.alpha / (1 + cfg.pfc.alpha) * double(pool);
        const EcnConfig& e = cfg.ecn[cfg.dataPriority];
        if (e.enabled && double(e.kmaxBytes) > singlePort)
        {
            out.push_back({"warning", "kmax_above_buffer", {t.nodes[sw].id},
                           {{"kmax_bytes", double(e.kmaxBytes)},
                            {"max_queue_bytes", RoundDecimals(singlePort, 0)}, {"alpha", cfg.pfc.alpha}},
                           "ECN Kmax (" + Num(e.kmaxBytes) + " B) is above the " +
                               Num(RoundDecimals(singlePort, 0)) +
                               " B one egress queue can hold (alpha/(1+alpha) x shared pool): "
                               "marking never reaches Pmax before PFC fires",
                           "lower switch.ecn.kmax_bytes below " +
                               Num(RoundDecimals(singlePort, 0)) + " B"});
        }
        // Incast into one port from all the others: each ingress gets alpha x B/(1 + alpha x N).
        uint32_t senders = ports > 1 ? ports - 1 : 1;
        double perIngress = cfg.pfc.alpha * double(pool) / (1 + cfg.pfc.alpha * senders);
        uint32_t frame = Cells(maxMtu + kStoredDataOverheadBytes, cfg.cellBytes);
        if (cfg.pfc.enabled && perIngress < frame)
        {
            out.push_back({"error", "alpha_below_frame", {t.nodes[sw].id},
                           {{"alpha", cfg.pfc.alpha}, {"per_ingress_bytes", RoundDecimals(perIngress, 0)},
                            {"frame_bytes", double(frame)}, {"senders", double(senders)}},
                           "with alpha " + Num(cfg.pfc.alpha) + " and " +
                               Num(senders) +
                               " ports sending into one, each ingress may hold only " +
                               Num(RoundDecimals(perIngress, 0)) +
                               " B, less than one frame: PFC pauses at every frame",
                           "raise switch.pfc.alpha (1/16 = 0.0625 is a common default)"});
        }
    }
}

/** The hops a sender's window turns over on: the whole path, or, when a DCI accelerator
 *  answers at the near edge (a hop into an edge followed by the hop across the long link), the
 *  path up to that edge. */
std::vector<Hop>
WindowHops(const Scenario& s, const std::vector<Hop>& hops)
{
    const DciAcceleratorConfig& a = s.dciAccelerator;
    if (!a.enabled)
    {
        return hops;
    }
    for (size_t i = 0; i + 1 < hops.size(); ++i)
    {
        const Hop& next = hops[i + 1];
        bool crossesLongLink = (next.from == a.edges[0] && next.to == a.edges[1]) ||
                               (next.from == a.edges[1] && next.to == a.edges[0]);
        if (crossesLongLink)
        {
            return std::vector<Hop>(hops.begin(), hops.begin() + long(i) + 1);
        }
    }
    return hops;
}

void
CheckPaths(const Scenario& s, std::vector<Finding>& out)
{
    const Topology& t = s.topo;
    auto adj = Adjacency(t);
    std::set<std::pair<uint32_t, uint32_t>> pairs;
    std::set<uint32_t> qpReported;
    std::set<uint32_t> rtoReported;
    std::set<std::string> pfcReported;
    for (const FlowSpec& f : s.flows)
    {
        if (pairs.size() >= kMaxPairsChecked || !pairs.insert({f.src, f.dst}).second)
        {
            continue;
        }
        std::vector<Hop> hops = ShortestPath(t, adj, f.src, f.dst);
        if (hops.empty())
        {
            continue;
        }
        const NicConfig& nic = s.nicCfg[f.src];
        double rtt = BaseRttUs(hops, nic.mtuBytes);
        double minRate = hops[0].rateGbps;
        for (const Hop& h : hops)
        {
            minRate = std::min(minRate, h.rateGbps);
        }
        if (adj[f.src].size() > 1 && (nic.transport == "sprayed" || nic.transport == "erd"))
        {
            // A multi-plane NIC sprays such a QP over all its planes (docs/model.md).
            minRate *= double(adj[f.src].size());
        }
        // The window is judged against the RTT it turns over in (to an accelerating edge);
        // the RTO rule below keeps the whole path's RTT.
        double windowRtt = BaseRttUs(WindowHops(s, hops), nic.mtuBytes);
        double bdp = minRate * 1e3 / 8 * windowRtt; // bytes
        double window = double(f.window) * double(f.messageBytes);
        // A "bdp" window (kWindowBdp) is sized from this very path when the run starts.
        if (f.window != kWindowBdp && window < bdp && !f.probe && qpReported.insert(f.src).second)
        {
            double cap = window * 8 / (windowRtt * 1e3); // Gbit/s
            out.push_back({"warning", "qp_depth_below_bdp",
                           {t.nodes[f.src].id + "->" + t.nodes[f.dst].id},
                           {{"window_bytes", window}, {"bdp_bytes", RoundDecimals(bdp, 0)},
                            {"base_rtt_us", RoundDecimals(windowRtt, 3)}, {"throughput_cap_gbps", RoundDecimals(cap, 3)},
                            {"link_gbps", minRate}},
                           "a QP of " + t.nodes[f.src].id + " may have " +
                               Num(window) + " B outstanding, below the " +
                               Num(RoundDecimals(bdp, 0)) + " B bandwidth-delay product to " +
                               t.nodes[f.dst].id + ": one QP cannot exceed " +
                               Num(RoundDecimals(cap, 3)) + " Gbit/s",
                           "raise nic.qp_depth to at least " +
                               Num(uint64_t(std::ceil(bdp / double(f.messageBytes)))) +
                               " messages (or use more QPs)"});
        }
        if (nic.rtoUs < rtt && rtoReported.insert(f.src).second)
        {
            out.push_back({"error", "rto_below_rtt", {t.nodes[f.src].id},
                           {{"rto_us", nic.rtoUs}, {"base_rtt_us", RoundDecimals(rtt, 3)}},
                           t.nodes[f.src].id + "'s RTO (" + Num(nic.rtoUs) +
                               " us) is below the base RTT to " + t.nodes[f.dst].id + " (" +
                               Num(RoundDecimals(rtt, 3)) +
                               " us): every message times out and is sent again",
                           "raise nic.rto_us well above the RTT (x10 or more)"});
        }
        // PFC must be on at every switch of a lossless path or on none.
        std::vector<std::string> on;
        std::vector<std::string> off;
        for (const Hop& h : hops)
        {
            if (!t.nodes[h.to].isHost)
            {
                (s.switchCfg[h.to].pfc.enabled ? on : off).push_back(t.nodes[h.to].id);
            }
        }
        if (!on.empty() && !off.empty())
        {
            std::string key = off.front() + "|" + on.front();
            if (pfcReported.insert(key).second)
            {
                Finding x{"error", "pfc_mixed_on_path", off, {{"switches_with_pfc", double(on.size())},
                          {"switches_without_pfc", double(off.size())}},
                          "PFC is on at " + on.front() + " but off at " + off.front() +
                              " on the path " + t.nodes[f.src].id + " -> " + t.nodes[f.dst].id +
                              ": the lossless class is dropped where PFC is off",
                          "enable switch.pfc on every switch of the path (switch_overrides)"};
                out.push_back(x);
            }
        }
    }
}

void
CheckDcqcn(const Scenario& s, std::vector<Finding>& out)
{
    const Topology& t = s.topo;
    std::set<std::string> seen;
    for (const LinkSpec& l : t.links)
    {
        for (uint32_t h : {l.a, l.b})
        {
            if (!t.nodes[h].isHost || s.nicCfg[h].cc.algorithm != "dcqcn")
            {
                continue;
            }
            const CcConfig& cc = s.nicCfg[h].cc;
            double lineMbps = l.rateGbps * 1e3;
            std::string problem;
            std::string fix;
            if (cc.minRateMbps >= lineMbps)
            {
                problem = "min_rate_mbps (" + Num(int64_t(cc.minRateMbps)) +
                          ") is not below the link rate: DCQCN can never slow down";
                fix = "set nic.cc.min_rate_mbps well below " + Num(int64_t(lineMbps));
            }
            else if (cc.raiMbps > 0.05 * lineMbps)
            {
                problem = "rai_mbps (" + Num(int64_t(cc.raiMbps)) +
                          ") is more than 5% of the link rate: recovery overshoots and oscillates";
                fix = "lower nic.cc.rai_mbps to about 0.1% of the link rate (" +
                      Num(int64_t(lineMbps / 1000)) + " Mbit/s)";
            }
            else if (cc.rhaiMbps < cc.raiMbps)
            {
                problem = "rhai_mbps is below rai_mbps: hyper increase is slower than additive";
                fix = "set nic.cc.rhai_mbps >= nic.cc.rai_mbps (typically 5x)";
            }
            else if (cc.byteCounterBytes > 0 &&
                     cc.byteCounterBytes * 8 / lineMbps > 100 * cc.rateIncreaseTimerUs)
            {
                problem = "byte_counter takes more than 100 rate-increase periods at line rate: "
                          "it never drives recovery";
                fix = "lower nic.cc.byte_counter_bytes";
            }
            if (!problem.empty() && seen.insert(t.nodes[h].id).second)
            {
                out.push_back({"warning", "dcqcn_vs_link_rate", {t.nodes[h].id},
                               {{"link_gbps", l.rateGbps}, {"min_rate_mbps", cc.minRateMbps},
                                {"rai_mbps", cc.raiMbps}, {"rhai_mbps", cc.rhaiMbps}},
                               t.nodes[h].id + ": " + problem, fix});
            }
        }
    }
}

/** topology.accelerator: a buffer below the long link's bandwidth-delay product, or a resend
 *  timer below its round trip (every held frame would be resent before its ACK can return). */
void
CheckDciAccelerator(const Scenario& s, std::vector<Finding>& out)
{
    const DciAcceleratorConfig& a = s.dciAccelerator;
    const Topology& t = s.topo;
    if (!a.enabled)
    {
        return;
    }
    const LinkSpec* longHaul = nullptr;
    for (const LinkSpec& l : t.links)
    {
        if ((l.a == a.edges[0] && l.b == a.edges[1]) || (l.a == a.edges[1] && l.b == a.edges[0]))
        {
            longHaul = &l;
        }
    }
    if (longHaul == nullptr)
    {
        return;
    }
    double rttUs = 2 * longHaul->delayUs;
    double bdp = longHaul->rateGbps * 1e3 / 8 * rttUs; // bytes
    std::string link = t.nodes[a.edges[0]].id + "->" + t.nodes[a.edges[1]].id;
    if (double(a.bufferBytes) < bdp)
    {
        out.push_back(
            {"warning", "dci_accelerator_buffer_below_bdp", {link},
             {{"buffer_bytes", double(a.bufferBytes)}, {"bdp_bytes", RoundDecimals(bdp, 0)},
              {"long_haul_rtt_us", RoundDecimals(rttUs, 3)}, {"link_gbps", longHaul->rateGbps}},
             "the accelerator holds at most " + Num(a.bufferBytes) +
                 " B per edge, below the long link's " + Num(RoundDecimals(bdp, 0)) +
                 " B bandwidth-delay product: beyond it frames pass unheld and their senders wait "
                 "for the far end's ACKs",
             "raise topology.accelerator.buffer_bytes to at least " +
                 Num(uint64_t(std::ceil(bdp)))});
    }
    if (a.retransmitTimeoutUs < rttUs)
    {
        out.push_back({"warning", "dci_accelerator_timeout_below_rtt", {link},
                       {{"retransmit_timeout_us", a.retransmitTimeoutUs},
                        {"long_haul_rtt_us", RoundDecimals(rttUs, 3)}},
                       "the accelerator resends held data after " +
                           Num(a.retransmitTimeoutUs) +
                           " us, before the far end's ACK can return (" +
                           Num(RoundDecimals(rttUs, 3)) + " us round trip)",
                       "raise topology.accelerator.retransmit_timeout_us above the long-haul RTT "
                       "(or leave it unset: 2 x RTT + 100 us)"});
    }
}

/** The largest oversubscription the topology generator reported (leaf, ToR or rail leaf); 0 if none. */
double
Oversubscription(const Topology& t)
{
    double over = 0;
    const std::string suffix = "oversubscription";
    for (const auto& [key, value] : t.stats)
    {
        if (key.size() >= suffix.size() && key.compare(key.size() - suffix.size(), suffix.size(), suffix) == 0)
        {
            over = std::max(over, value);
        }
    }
    return over;
}

/** A job whose ideal time (start + iterations at the ideal busbw, docs/model.md "The ideal bus
 *  bandwidth") is past the end of the run cannot finish: its cards would show dashes. The fix
 *  asks for twice the ideal (real steps also pay latency and congestion), rounded up to 100 us. */
void
CheckJobFitsDuration(const Scenario& s,
                     uint32_t index,
                     const std::string& name,
                     std::vector<Finding>& out)
{
    const JobSpec& job = s.jobs[index];
    uint64_t startNs = std::numeric_limits<uint64_t>::max();
    for (std::size_t i = 0; i < s.jobFlows.size() && i < s.flows.size(); ++i)
    {
        if (s.jobFlows[i].job == index)
        {
            startNs = std::min(startNs, s.flows[i].startNs);
        }
    }
    if (startNs == std::numeric_limits<uint64_t>::max())
    {
        return; // no transfer: nothing to time
    }
    const double nic = JobNicPayloadGbps(s, job);
    const CollectiveIdeal ideal = IdealBusbw(job, nic);
    const double iterationUs = IdealIterationUs(job, ideal.gbps);
    const double idealUs = iterationUs * job.iterations;
    const double startUs = static_cast<double>(startNs) / 1e3;
    const double durationUs = static_cast<double>(s.durationNs) / 1e3;
    if (idealUs <= 0 || startUs + idealUs <= durationUs)
    {
        return;
    }
    const double suggested = std::ceil((startUs + 2 * idealUs) / 100.0) * 100.0;
    const bool one = job.iterations == 1;
    const std::string what =
        (one ? "its iteration" : "its " + std::to_string(job.iterations) + " iterations") + " of " +
        Num(static_cast<double>(job.messageBytes)) + " bytes take" + (one ? "s " : " ") +
        Num(RoundDecimals(idealUs, 1)) + " us" +
        (startUs > 0 ? " from its start at " + Num(RoundDecimals(startUs, 3)) + " us" : "");
    out.push_back(
        {"warning", "collective_exceeds_duration",
         {s.topo.nodes[job.ranks[0]].id},
         {{"ideal_us", RoundDecimals(idealUs, 1)},
          {"start_us", RoundDecimals(startUs, 3)},
          {"duration_us", RoundDecimals(durationUs, 3)},
          {"ideal_busbw_gbps", RoundDecimals(ideal.gbps, 1)},
          {"message_bytes", static_cast<double>(job.messageBytes)},
          {"iterations", static_cast<double>(job.iterations)}},
         name + " cannot finish: even at its ideal busbw of " + Num(RoundDecimals(ideal.gbps, 1)) +
             " Gbit/s " + what + ", past the run's end at " + Num(RoundDecimals(durationUs, 3)) +
             " us: its JCT and busbw would be dashes",
         "set duration_us to at least " + Num(suggested) +
             " (twice the ideal: steps also pay latency and congestion) or lower its "
             "message_bytes"});
}

/** Collectives (docs/config-check.md): a job whose ranks are each on a server of their own has
 *  no NVLink step (every step crosses the fabric; `hierarchical` has no level inside a server),
 *  a job over several servers under several leaves of an oversubscribed fabric shares the
 *  leaves' uplinks: ranks under one leaf sending across at once get 1/oversubscription of
 *  their NIC rate, and a job whose ideal time exceeds the run cannot finish. One finding per
 *  job and rule; nothing is computed for a scenario without. */
void
CheckCollectives(const Scenario& s, std::vector<Finding>& out)
{
    if (s.jobs.empty())
    {
        return;
    }
    const Topology& t = s.topo;
    const double over = Oversubscription(t);
    auto adj = Adjacency(t);
    for (uint32_t index = 0; index < s.jobs.size(); ++index)
    {
        const JobSpec& job = s.jobs[index];
        const std::string name = "job '" + job.name + "'";
        CheckJobFitsDuration(s, index, name, out);
        const double ranks = double(job.ranks.size());
        bool anyServer = false;
        std::set<std::string> leaves;
        for (uint32_t h : job.ranks)
        {
            anyServer = anyServer || !t.nodes[h].server.empty();
            for (const auto& [neighbor, link] : adj[h])
            {
                if (!t.nodes[neighbor].isHost)
                {
                    leaves.insert(t.nodes[neighbor].id);
                }
            }
        }
        if (job.ranks.size() > 1 && job.servers == job.ranks.size())
        {
            const bool hierarchical = job.algorithm == "hierarchical";
            out.push_back(
                {hierarchical ? "warning" : "info", "collective_no_nvlink",
                 {t.nodes[job.ranks[0]].id},
                 {{"ranks", ranks}, {"servers", double(job.servers)}},
                 name + (anyServer ? ": each of its ranks is on a different server"
                                   : ": every host is its own server (this fabric's hosts name none)") +
                     ": no NVLink steps, every step crosses the fabric" +
                     (hierarchical ? "; hierarchical has no level inside a server" : ""),
                 anyServer ? "give the job `servers` (all their NICs become ranks) or list hosts that share servers"
                           : "use a rail_optimized topology (or explicit hosts with `server`) for GPUs that share a server"});
        }
        if (over > 1 && job.servers > 1 && leaves.size() > 1)
        {
            std::vector<std::string> where(leaves.begin(), leaves.end());
            std::ostringstream ratio;
            ratio << std::setprecision(4) << over;
            out.push_back(
                {"warning", "collective_oversubscribed", where,
                 {{"oversubscription", RoundDecimals(over, 3)}, {"leaves", double(leaves.size())},
                  {"ranks", ranks}},
                 name + " spans " + std::to_string(leaves.size()) + " leaves of a fabric oversubscribed " +
                     ratio.str() + ":1: ranks under one leaf sending across leaves at once get 1/" + ratio.str() +
                     " of their NIC rate through its uplinks",
                 anyServer ? "add uplink capacity (more spines, faster leaf-spine links) to reach 1:1: a job "
                             "over several servers uses the leaf of every rail its NICs are on"
                           : "place the job under fewer leaves (placement packed, fewer servers) or add uplink "
                             "capacity (more spines, faster fabric links) to reach 1:1"});
        }
    }
}

/** Packet spraying (switch.load_balancing per_packet or adaptive) reorders one QP's packets
 *  wherever a spraying switch has more than one next hop toward the destination. RC and XRC
 *  deliver in order only: the receiver NACKs the first gap and the sender goes back N, resending
 *  every packet after it (docs/model.md, "Transports and load balancing"). One finding for the
 *  scenario: `where` lists the spraying switches with several next hops on such a flow's
 *  shortest paths. At most kMaxPairsChecked host pairs are examined. */
void
CheckSprayingInOrder(const Scenario& s, std::vector<Finding>& out)
{
    const Topology& t = s.topo;
    auto sprays = [&](uint32_t n) {
        return !t.nodes[n].isHost && s.switchCfg[n].loadBalancing != LoadBalancing::ECMP;
    };
    bool anySprayer = false;
    for (uint32_t n = 0; n < t.nodes.size() && !anySprayer; ++n)
    {
        anySprayer = sprays(n);
    }
    if (!anySprayer)
    {
        return;
    }
    auto inOrder = [&](const FlowSpec& f) {
        const std::string& tr = s.nicCfg[f.src].transport;
        return !f.local && (tr == "rc" || tr == "xrc");
    };
    // destination -> its in-order senders, in flow order
    std::map<uint32_t, std::vector<uint32_t>> byDst;
    std::set<std::pair<uint32_t, uint32_t>> pairs;
    for (const FlowSpec& f : s.flows)
    {
        if (inOrder(f) && pairs.size() < kMaxPairsChecked && pairs.insert({f.src, f.dst}).second)
        {
            byDst[f.dst].push_back(f.src);
        }
    }
    if (byDst.empty())
    {
        return;
    }
    auto adj = Adjacency(t);
    const uint32_t none = std::numeric_limits<uint32_t>::max();
    std::set<uint32_t> where;
    std::set<uint32_t> senders;
    std::set<std::string> transports;
    std::string example;
    for (const auto& [dst, srcs] : byDst)
    {
        // hops to dst through switches (hosts do not forward)
        std::vector<uint32_t> dist(t.nodes.size(), none);
        std::deque<uint32_t> q{dst};
        dist[dst] = 0;
        while (!q.empty())
        {
            uint32_t u = q.front();
            q.pop_front();
            if (u != dst && t.nodes[u].isHost)
            {
                continue;
            }
            for (auto [v, l] : adj[u])
            {
                if (dist[v] == none)
                {
                    dist[v] = dist[u] + 1;
                    q.push_back(v);
                }
            }
        }
        for (uint32_t src : srcs)
        {
            if (dist[src] == none)
            {
                continue;
            }
            // every switch on a shortest path src -> dst: has a spraying one several next hops?
            bool found = false;
            std::vector<bool> seen(t.nodes.size(), false);
            std::vector<uint32_t> stack{src};
            while (!stack.empty())
            {
                uint32_t u = stack.back();
                stack.pop_back();
                uint32_t next = 0;
                for (auto [v, l] : adj[u])
                {
                    if (dist[v] + 1 != dist[u] || (v != dst && t.nodes[v].isHost))
                    {
                        continue;
                    }
                    ++next;
                    if (!seen[v])
                    {
                        seen[v] = true;
                        stack.push_back(v);
                    }
                }
                if (u != src && next > 1 && sprays(u))
                {
                    where.insert(u);
                    found = true;
                }
            }
            if (found)
            {
                senders.insert(src);
                transports.insert(s.nicCfg[src].transport);
                if (example.empty())
                {
                    example = t.nodes[src].id + "->" + t.nodes[dst].id;
                }
            }
        }
    }
    if (where.empty())
    {
        return;
    }
    std::vector<std::string> names;
    std::string list;
    for (uint32_t n : where)
    {
        names.push_back(t.nodes[n].id);
    }
    for (std::size_t i = 0; i < names.size() && i < 4; ++i)
    {
        list += (i ? ", " : "") + names[i];
    }
    if (names.size() > 4)
    {
        list += " and " + std::to_string(names.size() - 4) + " more";
    }
    std::string transport;
    for (const std::string& x : transports)
    {
        transport += (transport.empty() ? "" : " and ") + x;
    }
    std::set<std::string> modes;
    for (uint32_t n : where)
    {
        const bool adaptive = s.switchCfg[n].loadBalancing == LoadBalancing::ADAPTIVE;
        modes.insert(adaptive ? "adaptive routing" : "per-packet spraying");
    }
    const std::string mode =
        modes.size() > 1 ? "per-packet spraying and adaptive routing" : *modes.begin();
    const bool oneSender = senders.size() == 1;
    const std::string who = std::to_string(senders.size()) +
                            (oneSender ? " sender (" : " senders (") + example +
                            (oneSender ? ") uses" : ", ...) use");
    out.push_back(
        {"warning", "spraying_with_rc", names,
         {{"switches", static_cast<double>(names.size())},
          {"senders", static_cast<double>(senders.size())}},
         mode + " at " + list + " sends one QP's packets over several paths, but " + who +
             " the " + transport +
             " transport, which delivers in order only: a packet that overtakes another makes the "
             "receiver NACK the gap and the sender go back N, resending everything after it",
         "set nic.transport to \"sprayed\" (a reorder window and selective ACKs; or \"erd\"), "
         "or keep switch.load_balancing \"ecmp\" for in-order transports"});
}

/** Multi-plane NICs (a host with a link per plane): RC and XRC pin each QP to one plane, so a
 *  connection with fewer QPs than planes leaves planes of its NIC idle. Once per sending host,
 *  at its first such connection. */
void
CheckPlanes(const Scenario& s, std::vector<Finding>& out)
{
    const Topology& t = s.topo;
    std::vector<uint32_t> planes(t.nodes.size(), 0);
    bool any = false;
    for (const LinkSpec& l : t.links)
    {
        for (uint32_t h : {l.a, l.b})
        {
            if (t.nodes[h].isHost)
            {
                any = ++planes[h] > 1 || any;
            }
        }
    }
    if (!any)
    {
        return;
    }
    std::map<std::pair<uint32_t, uint32_t>, uint32_t> qps; // (src, dst) -> QPs, in flow order
    std::vector<std::pair<uint32_t, uint32_t>> order;
    for (const FlowSpec& f : s.flows)
    {
        const std::string& transport = s.nicCfg[f.src].transport;
        if (f.local || planes[f.src] <= 1 || (transport != "rc" && transport != "xrc"))
        {
            continue;
        }
        if (qps[{f.src, f.dst}]++ == 0)
        {
            order.push_back({f.src, f.dst});
        }
    }
    std::set<uint32_t> reported;
    for (const auto& pair : order)
    {
        uint32_t n = qps[pair];
        uint32_t p = planes[pair.first];
        if (n >= p || !reported.insert(pair.first).second)
        {
            continue;
        }
        double rate = 0;
        for (const LinkSpec& l : t.links)
        {
            rate = l.a == pair.first || l.b == pair.first ? std::max(rate, l.rateGbps) : rate;
        }
        out.push_back(
            {"warning", "multi_plane_qp_pinned",
             {t.nodes[pair.first].id + "->" + t.nodes[pair.second].id},
             {{"planes", double(p)}, {"qps", double(n)}, {"plane_gbps", rate},
              {"nic_gbps", rate * p}},
             t.nodes[pair.first].id + "'s NIC has " + std::to_string(p) + " planes, but " +
                 s.nicCfg[pair.first].transport + " pins each QP to one: its " + std::to_string(n) +
                 " QP" + (n == 1 ? "" : "s") + " to " + t.nodes[pair.second].id + " can use at most " +
                 Num(rate * n) + " of its " + Num(rate * p) + " Gbit/s",
             "use nic.transport \"sprayed\" (each packet on a free plane) or at least " +
                 std::to_string(p) + " QPs per connection (qps; channels for a collective)"});
    }
}

/** Applies a scenario's `set` faults to a copy: the configuration in force at the end. */
Scenario
AfterSets(const Scenario& s, ordered_json& effective)
{
    Scenario e = s;
    for (const FaultSpec& f : s.faults)
    {
        if (f.kind != FaultKind::SET)
        {
            continue;
        }
        for (uint32_t n : f.nodes)
        {
            double before = 0;
            switch (f.param)
            {
            case SetParamKind::PFC_ALPHA:
                before = e.switchCfg[n].pfc.alpha;
                e.switchCfg[n].pfc.alpha = f.value;
                break;
            case SetParamKind::ECN_KMIN:
                before = double(e.switchCfg[n].ecn[e.switchCfg[n].dataPriority].kminBytes);
                for (auto& x : e.switchCfg[n].ecn) x.kminBytes = uint64_t(f.value);
                break;
            case SetParamKind::ECN_KMAX:
                before = double(e.switchCfg[n].ecn[e.switchCfg[n].dataPriority].kmaxBytes);
                for (auto& x : e.switchCfg[n].ecn) x.kmaxBytes = uint64_t(f.value);
                break;
            case SetParamKind::ECN_PMAX:
                before = e.switchCfg[n].ecn[e.switchCfg[n].dataPriority].pmax;
                for (auto& x : e.switchCfg[n].ecn) x.pmax = f.value;
                break;
            case SetParamKind::RTO_US:
                before = e.nicCfg[n].rtoUs;
                e.nicCfg[n].rtoUs = f.value;
                break;
            case SetParamKind::CNP_INTERVAL_US:
                before = e.nicCfg[n].cnpIntervalUs;
                e.nicCfg[n].cnpIntervalUs = f.value;
                break;
            }
            effective.push_back({{"node", s.topo.nodes[n].id},
                                 {"param", kSetParams[static_cast<int>(f.param)].name},
                                 {"intended", before},
                                 {"effective", f.value},
                                 {"from_us", RoundDecimals(f.startNs / 1e3, 3)},
                                 {"until_us", f.endNs ? ordered_json(RoundDecimals(f.endNs / 1e3, 3))
                                                      : ordered_json(nullptr)}});
        }
    }
    return e;
}

} // namespace

std::vector<Finding>
CheckConfiguration(const Scenario& s)
{
    std::vector<Finding> out;
    CheckSwitchBuffers(s, out);
    CheckPaths(s, out);
    CheckDcqcn(s, out);
    CheckDciAccelerator(s, out);
    CheckCollectives(s, out);
    CheckSprayingInOrder(s, out);
    CheckPlanes(s, out);
    return out;
}

ordered_json
ConfigCheckJson(const Scenario& s)
{
    ordered_json effective = ordered_json::array();
    Scenario after = AfterSets(s, effective);
    std::vector<Finding> findings = CheckConfiguration(s);
    // Findings that only the timed changes cause are reported as such.
    std::set<std::string> before;
    for (const Finding& f : findings)
    {
        before.insert(f.rule + (f.where.empty() ? "" : f.where[0]));
    }
    for (Finding f : CheckConfiguration(after))
    {
        if (!before.count(f.rule + (f.where.empty() ? "" : f.where[0])))
        {
            f.message = "after the timed set faults: " + f.message;
            findings.push_back(f);
        }
    }
    ordered_json j;
    ordered_json list = ordered_json::array();
    std::map<std::string, int> counts{{"error", 0}, {"warning", 0}, {"info", 0}};
    for (const Finding& f : findings)
    {
        ordered_json x;
        x["severity"] = f.severity;
        x["rule"] = f.rule;
        x["where"] = f.where;
        ordered_json nums = ordered_json::object();
        for (const auto& [k, v] : f.numbers)
        {
            nums[k] = v;
        }
        x["numbers"] = nums;
        x["message"] = f.message;
        x["fix"] = f.fix;
        list.push_back(x);
        ++counts[f.severity];
    }
    j["findings"] = list;
    j["counts"] = {{"error", counts["error"]}, {"warning", counts["warning"]}, {"info", counts["info"]}};
    j["effective"] = effective;
    return j;
}

std::string
FormatCheckNumber(double v)
{
    return Num(v);
}

} // namespace fabric
