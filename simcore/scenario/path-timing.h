/*
 * Times along an idle path of hops (rate bit/s, one-way delay ps), shared by both engines: the
 * ideal FCT (slowdown's denominator), the base RTT and the qp_depth "bdp" (NTT, seeds/002:
 * QD = RTT x line rate / frame size), the ACK's way back (what a sender learns of a completion,
 * docs/model.md "What a sender learns, and when"). Pure functions of the path.
 */
#ifndef FABRIC_PATH_TIMING_H
#define FABRIC_PATH_TIMING_H

#include "common/wire.h"

#include <cstdint>
#include <utility>
#include <vector>

namespace fabric
{

/** Ideal (empty-fabric) FCT of size bytes over hops of (rate bit/s, delay ps); docs/model.md. */
double IdealFctPs(uint64_t sizeBytes, uint32_t mtu, const std::vector<std::pair<double, int64_t>>& hops,
                  uint32_t overheadBytes = kDataOverheadBytes);

/**
 * Base (empty-fabric) RTT in ps over hops of (rate bit/s, one-way delay ps): propagation both
 * ways, plus store-and-forward of one DATA frame of dataWireBytes out and one ACK of
 * ackWireBytes back (the same hops; docs/model.md).
 */
double BaseRttPs(const std::vector<std::pair<double, int64_t>>& hops, uint32_t dataWireBytes,
                 uint32_t ackWireBytes);

/**
 * Time in ps an ACK of ackWireBytes takes back over the idle hops (rate bit/s, one-way delay ps):
 * propagation plus store-and-forward at every hop.
 */
double AckReturnPs(const std::vector<std::pair<double, int64_t>>& hops, uint32_t ackWireBytes);

/**
 * The QP depth (messages) that fills the path: ceil(base RTT x bottleneck rate / message wire
 * bytes), where a message of messageBytes travels as ceil(messageBytes / mtu) frames of
 * overheadBytes each beyond the payload (4096 B at MTU 4096: one 4178-byte frame, NTT's
 * frame). Clamped to the qp_depth range 1 .. 65536; 1 for an empty path.
 */
uint32_t BdpQpDepth(const std::vector<std::pair<double, int64_t>>& hops, uint32_t mtu,
                    uint64_t messageBytes, uint32_t overheadBytes, uint32_t ackWireBytes);

} // namespace fabric

#endif
