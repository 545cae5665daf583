/*
 * The ECMP 5-tuple hash every switch applies (docs/model.md, "Switch": Murmur3-style mixing of
 * source, destination, UDP source port, destination port 4791 and protocol UDP with the
 * switch's seed). One definition for both engines: the packet model's FabricSwitch::EcmpHash
 * and the flow engine's routing (simcore/flow/flow-routing.h) call it, so a flow takes the same
 * path in either. Header-only, no dependencies.
 */
#ifndef FABRIC_COMMON_ECMP_HASH_H
#define FABRIC_COMMON_ECMP_HASH_H

#include "common/wire.h"

#include <cstdint>

namespace fabric
{

/** The 5-tuple hash with a switch's (or a NIC's plane choice's) seed. */
inline uint32_t
EcmpHash5Tuple(uint32_t seed, uint32_t src, uint32_t dst, uint16_t udpSrc)
{
    auto mix = [](uint32_t h, uint32_t k)
    {
        k *= 0xcc9e2d51u;
        k = (k << 15) | (k >> 17);
        k *= 0x1b873593u;
        h ^= k;
        h = (h << 13) | (h >> 19);
        return h * 5 + 0xe6546b64u;
    };
    uint32_t h = seed;
    h = mix(h, src);
    h = mix(h, dst);
    h = mix(h, (static_cast<uint32_t>(udpSrc) << 16) | kRoceUdpPort);
    h = mix(h, 17);
    h ^= 16;
    h ^= h >> 16;
    h *= 0x85ebca6bu;
    h ^= h >> 13;
    h *= 0xc2b2ae35u;
    h ^= h >> 16;
    return h;
}

/** Seed of the hash that pins an RC/XRC QP to one plane of a multi-plane NIC ("PLAN"). */
constexpr uint32_t kPlaneHashSeed = 0x504c414e;

/**
 * The k-th source port of an ERD QP whose own port is base (docs/model.md, "ERD"): within the
 * dynamic range 49152..65535; 1021 is odd, so 16 paths get 16 distinct ports.
 */
inline uint16_t
ErdPathPort(uint16_t base, uint32_t k)
{
    uint32_t offset = (static_cast<uint32_t>(base) + k * 1021u) % 16384u;
    return static_cast<uint16_t>(49152u + offset);
}

/**
 * The source port of a sprayed QP's frame psn (docs/model.md, "Transports"): a hash of (QP's
 * port, PSN) within the dynamic range, so ECMP spreads the frames over every path.
 */
inline uint16_t
SprayedSourcePort(uint16_t base, uint64_t psn)
{
    uint64_t h = (static_cast<uint64_t>(base) << 32 | psn) * 0x9e3779b97f4a7c15ULL;
    return static_cast<uint16_t>(49152 + ((h >> 40) % 16384));
}

} // namespace fabric

#endif
