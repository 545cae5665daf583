#include "path-timing.h"

#include <algorithm>
#include <cmath>

namespace fabric
{

double
IdealFctPs(uint64_t sizeBytes, uint32_t mtu, const std::vector<std::pair<double, int64_t>>& hops,
           uint32_t overheadBytes)
{
    if (hops.empty() || mtu == 0)
    {
        return 0;
    }
    uint64_t n = (sizeBytes + mtu - 1) / mtu;
    if (n == 0)
    {
        n = 1;
    }
    double totalWire = static_cast<double>(sizeBytes) + n * double(overheadBytes);
    double lastWire = static_cast<double>(sizeBytes - (n - 1) * mtu) + overheadBytes;
    size_t b = 0;
    for (size_t i = 1; i < hops.size(); ++i)
    {
        if (hops[i].first < hops[b].first)
        {
            b = i;
        }
    }
    double t = totalWire * 8e12 / hops[b].first;
    for (size_t i = 0; i < hops.size(); ++i)
    {
        t += static_cast<double>(hops[i].second);
        if (i != b)
        {
            t += lastWire * 8e12 / hops[i].first;
        }
    }
    return t;
}

double
BaseRttPs(const std::vector<std::pair<double, int64_t>>& hops, uint32_t dataWireBytes,
          uint32_t ackWireBytes)
{
    double rtt = 0;
    for (const auto& [rateBps, delayPs] : hops)
    {
        rtt += 2.0 * static_cast<double>(delayPs) +
               (double(dataWireBytes) + double(ackWireBytes)) * 8e12 / rateBps;
    }
    return rtt;
}

double
AckReturnPs(const std::vector<std::pair<double, int64_t>>& hops, uint32_t ackWireBytes)
{
    double ps = 0;
    for (const auto& [rateBps, delayPs] : hops)
    {
        ps += static_cast<double>(delayPs) + double(ackWireBytes) * 8e12 / rateBps;
    }
    return ps;
}

uint32_t
BdpQpDepth(const std::vector<std::pair<double, int64_t>>& hops, uint32_t mtu,
           uint64_t messageBytes, uint32_t overheadBytes, uint32_t ackWireBytes)
{
    if (hops.empty() || mtu == 0 || messageBytes == 0)
    {
        return 1;
    }
    double bottleneckBps = hops[0].first;
    for (const auto& hop : hops)
    {
        bottleneckBps = std::min(bottleneckBps, hop.first);
    }
    uint64_t frames = (messageBytes + mtu - 1) / mtu;
    double messageWire = double(messageBytes) + double(frames) * overheadBytes;
    double rttPs = BaseRttPs(hops, mtu + overheadBytes, ackWireBytes);
    double depth = std::ceil(rttPs * bottleneckBps / 8e12 / messageWire);
    return static_cast<uint32_t>(std::clamp(depth, 1.0, 65536.0));
}

} // namespace fabric
