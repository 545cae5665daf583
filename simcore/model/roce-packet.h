/*
 * The per-packet representation of the fabric model: a small plain struct moved by value.
 * No ns3::Packet, headers or NetDevices on the per-packet path (see docs/model.md).
 */
#ifndef FABRIC_ROCE_PACKET_H
#define FABRIC_ROCE_PACKET_H

#include "common/wire.h"

#include <cstdint>

namespace fabric
{

enum class PacketKind : uint8_t
{
    DATA,
    ACK,
    NACK,
    CNP,
    PAUSE,
    TRIMMED ///< a DATA frame a switch cut to its header (switch.trimming): psn says which
};

/** Frame bytes of a trimmed DATA frame: its header (NDP's 64 bytes). */
constexpr uint32_t kTrimmedFrameBytes = 64;

/** One frame in flight or queued. At most 40 bytes, copied by value. */
struct RocePacket
{
    uint32_t flow = 0;    ///< flow (QP) index; for PAUSE unused
    uint32_t src = 0;     ///< source host node index (for PAUSE: sending node)
    uint32_t dst = 0;     ///< destination host node index
    uint32_t psn = 0;     ///< DATA: packet sequence number; ACK/NACK: next expected PSN
    uint32_t payload = 0; ///< RDMA payload bytes (0 for control)
    uint32_t wire = 0;    ///< bytes on the wire including preamble and IFG
    uint16_t udpSrc = 0;  ///< per-QP UDP source port (ECMP entropy)
    uint16_t inPort = 0;  ///< ingress port at the switch currently holding the packet
    uint16_t quanta = 0;  ///< PAUSE: pause quanta (0 = resume)
    PacketKind kind = PacketKind::DATA;
    uint8_t priority = 3;
    uint8_t pausePriority = 0; ///< PAUSE: the priority paused or resumed
    bool ecn = false;          ///< CE mark
    bool indefinite = false;   ///< PAUSE in XOFF/XON mode: holds until an explicit resume
    bool ece = false;          ///< ACK/NACK: congestion flag (nic.ecn_feedback "ack_flag")
    uint8_t gap = kPreambleIfgBytes; ///< preamble + IFG bytes included in wire
};

/** Frame bytes (without preamble/IFG): what a switch buffer stores. */
inline uint32_t
FrameBytes(const RocePacket& p)
{
    return p.wire > p.gap ? p.wire - p.gap : p.wire;
}

static_assert(sizeof(RocePacket) <= 40, "RocePacket is copied per hop: keep it small");

} // namespace fabric

#endif
