/*
 * The fault state of one direction of a link (docs/model.md, "Faults"): loss, link down, and
 * the priorities a switch's PFC watchdog drops. A Port points to one only while a fault or a
 * watchdog concerns it, so a fabric without faults pays one null test per transmission and
 * per arrival.
 */
#ifndef FABRIC_PORT_FAULT_H
#define FABRIC_PORT_FAULT_H

#include "model/roce-packet.h"

#include "ns3/ptr.h"
#include "ns3/random-variable-stream.h"

#include <array>
#include <cstdint>

namespace fabric
{

struct PortFault
{
    bool down = false;         ///< the link carries nothing
    bool routedAround = false; ///< ECMP no longer uses this port (after convergence)
    int64_t lastDownPs = -1;   ///< when the link last went down: frames then on the wire are lost
    uint8_t dropMask = 0;      ///< priorities the switch PFC watchdog drops toward this port
    bool watchdog = false;     ///< the switch PFC watchdog guards this port (faces a server)
    std::array<int64_t, kNumPriorities> lastPauseRxPs{}; ///< last pause frame received per priority

    // Loss (one pattern at a time: the latest loss fault on this direction wins).
    bool lossActive = false;
    bool lossDataOnly = true;
    double lossRate = 0;
    uint64_t everyN = 0;
    uint64_t lossSeen = 0;
    ns3::Ptr<ns3::UniformRandomVariable> rng;

    // Port counters (telemetry.port_counters): every port then has a PortFault.
    bool counting = false;
    std::array<uint64_t, kNumPriorities> txPackets{}; ///< frames that started transmission
    std::array<uint64_t, kNumPriorities> txBytes{};   ///< their wire bytes
    std::array<uint64_t, 7> drops{};                  ///< by DropReason, at this port

    void CountTx(const RocePacket& p)
    {
        if (counting)
        {
            ++txPackets[p.priority & 7];
            txBytes[p.priority & 7] += p.wire;
        }
    }

    /** Whether the frame just serialized onto this direction is lost. */
    bool LoseOnTx(const RocePacket& p)
    {
        if (!lossActive || p.kind == PacketKind::PAUSE ||
            (lossDataOnly && p.kind != PacketKind::DATA))
        {
            return false;
        }
        if (everyN > 0)
        {
            return ++lossSeen % everyN == 0;
        }
        return rng->GetValue() < lossRate;
    }

    /** Whether a frame that started transmission at sendStartPs was cut by a link failure. */
    bool CutOnWire(int64_t sendStartPs) const
    {
        return down || lastDownPs >= sendStartPs;
    }
};

} // namespace fabric

#endif
