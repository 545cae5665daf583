#include "helper/qp-depth.h"

#include <algorithm>
#include <cmath>

namespace fabric
{

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
