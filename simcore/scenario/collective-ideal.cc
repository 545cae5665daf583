#include "collective-ideal.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

namespace fabric
{

double
JobNicPayloadGbps(const Scenario& s, const JobSpec& j)
{
    // Each rank NIC's link rate (a multi-plane NIC: its links' sum, added in link order), in one
    // pass over the links for all ranks: a 65,536-rank job on 131,072 links stays linear.
    std::vector<double> rate(s.topo.nodes.size(), 0.0);
    std::vector<char> wanted(s.topo.nodes.size(), 0);
    for (uint32_t h : j.ranks)
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
    double slowest = std::numeric_limits<double>::max();
    for (uint32_t h : j.ranks)
    {
        const NicConfig& nic = s.nicCfg[h];
        double mtu = nic.mtuBytes;
        slowest =
            std::min(slowest, rate[h] * mtu / (mtu + nic.headerBytes + nic.preambleIfgBytes));
    }
    return slowest;
}

// S cancels, so times are per byte of the message.
CollectiveIdeal
IdealBusbw(const JobSpec& j, double nicGbps)
{
    constexpr double kNone = std::numeric_limits<double>::infinity();
    double n = static_cast<double>(j.ranks.size());
    double g = std::max<uint32_t>(1, j.ranksPerServer);
    double C = std::max<uint32_t>(1, j.channels);
    double B = nicGbps;
    double V = j.nvlinkGbps > 0 && j.ranksPerServer > 1 ? j.nvlinkGbps : kNone;
    bool network = j.servers > 1;
    CollectiveIdeal out;
    // rings and trees put channel c on local index c mod g of every server: ceil(C/g) channels
    // share a NIC; halving-doubling, all-to-all and hierarchical send every channel through the
    // rank's NIC
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

double
IdealIterationUs(const JobSpec& j, double idealGbps)
{
    if (!(idealGbps > 0) || !std::isfinite(idealGbps))
    {
        return 0;
    }
    return static_cast<double>(j.messageBytes) * 8.0 * j.busFactor / idealGbps / 1000.0;
}

} // namespace fabric
