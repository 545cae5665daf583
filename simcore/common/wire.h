/*
 * RoCEv2 wire sizes shared by the model (per-packet path) and the scenario layer (checks,
 * headroom, config check): one definition (docs/model.md, "Headers"). Header-only, no
 * dependencies, so both layers include it without pointing at each other.
 */
#ifndef FABRIC_COMMON_WIRE_H
#define FABRIC_COMMON_WIRE_H

#include <cstdint>

namespace fabric
{

/** Wire overheads in bytes (docs/model.md, "Headers"). */
constexpr uint32_t kPreambleIfgBytes = 20; ///< 7 preamble + 1 SFD + 12 inter-frame gap
constexpr uint32_t kEthernetBytes = 18;    ///< 14 MAC header + 4 FCS
constexpr uint32_t kIpv4Bytes = 20;
constexpr uint32_t kUdpBytes = 8;
constexpr uint32_t kBthBytes = 12;
constexpr uint32_t kIcrcBytes = 4;
constexpr uint32_t kAethBytes = 4;
constexpr uint32_t kCnpPadBytes = 16; ///< CNP: BTH followed by 16 reserved bytes
/** Bytes a data packet carries on the wire besides its payload (82). */
constexpr uint32_t kDataOverheadBytes =
    kPreambleIfgBytes + kEthernetBytes + kIpv4Bytes + kUdpBytes + kBthBytes + kIcrcBytes;
/** What a switch stores of a data frame besides its payload: no preamble or gap (62). */
constexpr uint32_t kStoredDataOverheadBytes = kDataOverheadBytes - kPreambleIfgBytes;
constexpr uint32_t kAckWireBytes = kDataOverheadBytes + kAethBytes;   ///< 86
constexpr uint32_t kCnpWireBytes = kDataOverheadBytes + kCnpPadBytes; ///< 98
constexpr uint32_t kPauseWireBytes = 64 + kPreambleIfgBytes;         ///< 84 (minimum frame)
constexpr uint16_t kRoceUdpPort = 4791;
constexpr uint8_t kControlPriority = 7;
constexpr uint32_t kNumPriorities = 8;

/** Bytes an ERD DATA frame carries beyond an RC frame: RDETH 4 + DETH 8 + EETH 9. */
constexpr uint32_t kErdRdethBytes = 4;
constexpr uint32_t kErdDethBytes = 8;
constexpr uint32_t kErdEethBytes = 9;
constexpr uint32_t kErdExtraHeaderBytes = kErdRdethBytes + kErdDethBytes + kErdEethBytes;

static_assert(kDataOverheadBytes == 82 && kStoredDataOverheadBytes == 62 && kAckWireBytes == 86,
              "docs/model.md and docs/scenario-format.md quote these sizes");

} // namespace fabric

#endif
