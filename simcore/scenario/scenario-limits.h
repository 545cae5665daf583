/*
 * Size limits of scenario v1 (docs/scenario-format.md). Checked before anything runs, so
 * the API refuses what would not finish.
 */
#ifndef FABRIC_SCENARIO_LIMITS_H
#define FABRIC_SCENARIO_LIMITS_H

#include <cstdint>

namespace fabric
{

constexpr uint64_t kMaxNodes = 20000;
constexpr uint64_t kMaxLinks = 100000;
constexpr uint64_t kMaxFlows = 2000000;
constexpr double kMaxDurationUs = 1000000;
/// Slowest link: 10 Mbit/s, the slowest Ethernet (10BASE-T). Below it a 1 kB frame takes
/// longer than a millisecond and every rate-derived quantity (headroom, ECN) loses meaning.
constexpr double kMinRateGbps = 0.01;
constexpr double kMaxRateGbps = 1600;
constexpr double kMaxDelayUs = 100000;
constexpr double kFibreUsPerKm = 5;
constexpr uint64_t kMaxTrafficGenerators = 64;
constexpr uint64_t kMaxMonitorSamples = 100000;
/// DCQCN rate parameters (rai, rhai, minimum rate) are whole Mbit/s on NICs (NVIDIA's
/// rpg_ai_rate, rpg_hai_rate, rpg_min_rate): 1 Mbit/s is the smallest a NIC takes.
constexpr double kMinCcRateMbps = 1;
/// DCQCN timers (alpha update, rate increase): NICs count them in whole microseconds; a
/// shorter timer would fire more often than any NIC does (and 0 would never advance time).
constexpr double kMinCcTimerUs = 1;
/// PFC pause quanta (512 bit times each) in quanta mode. The switch refreshes a pause at half
/// its time; 512 quanta make that half (131,072 bit times) longer than a jumbo frame
/// (9,000 B payload, about 73,000 bits) plus the 672-bit pause frame, so a refresh arrives
/// before the pause it renews expires even behind a full frame, and refreshes take at most
/// 0.5% of the reverse link. Fewer quanta flood the reverse link with pause frames.
constexpr uint32_t kMinPauseQuanta = 512;
/// Dynamic-threshold alpha: 1/128 is the smallest switch ASICs offer (Broadcom's 2^-7); a
/// smaller one makes the threshold a few bytes and pauses on every frame.
constexpr double kMinPfcAlpha = 1.0 / 128;
/// Pingmesh probe interval: one probe per host per microsecond at most.
constexpr double kMinProbeIntervalUs = 1;

} // namespace fabric

#endif
