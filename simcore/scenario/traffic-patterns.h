/*
 * The fat-tree traffic patterns of Al-Fares et al. ("A Scalable, Commodity Data Center Network
 * Architecture", SIGCOMM 2008) that need more than a list of pairs: stride (host i sends to host
 * (i + s) mod N) and a random permutation in which no host sends inside its own pod. Pure
 * functions of a host list (and a pod per host), so they are tested apart from the reader.
 */
#ifndef FABRIC_TRAFFIC_PATTERNS_H
#define FABRIC_TRAFFIC_PATTERNS_H

#include "model/fabric-config.h"

#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace fabric
{

/** (src, dst) = (hosts[i], hosts[(i + stride) mod N]) for every i; needs 0 < stride mod N. */
std::vector<std::pair<uint32_t, uint32_t>> StridePairs(const std::vector<uint32_t>& hosts,
                                                       uint64_t stride);

/**
 * The pod of each host: the `group` of the switch it hangs off (fat_tree: its pod, three_tier:
 * its podset, dci: its site), or that switch's id when the switch has no group (leaf_spine,
 * explicit: every leaf or ToR is a pod of its own).
 */
std::vector<std::string> HostPods(const Topology& topo, const std::vector<uint32_t>& hosts);

/**
 * A random permutation of hosts in which every host sends to a host of another pod. Built from
 * a valid one (pods shuffled into a ring, each host sending half the ring away at least the
 * largest pod's size along it), then randomized by 8N random swaps of destinations that keep it
 * valid. uniform(n) must return an integer in [0, n]. Needs every pod to hold at most half of
 * the hosts (else no such permutation exists): the caller checks LargestPodShare first.
 * Returns dst index (into hosts) for every src index.
 */
std::vector<std::size_t> InterPodPermutation(const std::vector<std::string>& pods,
                                             const std::function<uint32_t(uint32_t)>& uniform);

/** The size of the largest pod. */
std::size_t LargestPod(const std::vector<std::string>& pods);

} // namespace fabric

#endif
