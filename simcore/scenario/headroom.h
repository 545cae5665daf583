/*
 * PFC headroom: what a switch reserves per (port, lossless priority) so that the frames in
 * flight after it sends PAUSE still fit. Shared by the scenario checks (buffer_bytes must
 * hold the reservations) and the network model (helper/network-builder.cc), so both use the
 * same numbers.
 */
#ifndef FABRIC_HEADROOM_H
#define FABRIC_HEADROOM_H

#include "model/fabric-config.h"

#include <cstdint>
#include <vector>

namespace fabric
{

/** Auto headroom: 2 x rate x cable delay + 2 x MTU frame + rate x 1 us, rounded up to cells. */
uint64_t AutoHeadroomBytes(double rateGbps, double delayUs, uint32_t mtuPayload, uint32_t cellBytes);

/** The largest MTU of any host (the frame size that matters on switch-to-switch links). */
uint32_t LargestHostMtu(const Topology& topo, const std::vector<NicConfig>& nicCfg);

/**
 * Headroom of each port of switch `node`, one entry per incident link in link order (the
 * order the model adds ports). Zero for every port when PFC is off.
 */
std::vector<uint64_t> SwitchPortHeadroom(const Topology& topo,
                                         const SwitchConfig& cfg,
                                         const std::vector<NicConfig>& nicCfg,
                                         uint32_t node,
                                         uint32_t largestHostMtu);

/**
 * SwitchPortHeadroom with the node's incident links given (indices into topo.links, in
 * increasing order: LinksByNode), for callers that ask for every switch: one pass over the
 * node's links instead of all of them.
 */
std::vector<uint64_t> SwitchPortHeadroom(const Topology& topo,
                                         const SwitchConfig& cfg,
                                         const std::vector<NicConfig>& nicCfg,
                                         uint32_t node,
                                         uint32_t largestHostMtu,
                                         const std::vector<uint32_t>& nodeLinks);

/** Per node, the indices of its links (self-loops skipped), in link order. */
std::vector<std::vector<uint32_t>> LinksByNode(const Topology& topo);

} // namespace fabric

#endif
