/*
 * "Watch where the action is": when the scenario leaves monitor.queues, monitor.ports or
 * monitor.flows on "auto", every candidate (switch egress queue, device port, flow) is sampled
 * cheaply during the run and, after it, the busiest queues, the longest-paused ports and the
 * slowest flows are kept for the result. The choice reads only simulated counters, so the same
 * scenario and seed give the same choice (and byte-identical results).
 */
#ifndef FABRIC_AUTO_MONITOR_H
#define FABRIC_AUTO_MONITOR_H

#include <cstdint>
#include <string>
#include <vector>

namespace fabric
{

/** Values of one candidate from its first non-zero sample on (zeros before it are implied). */
template <typename T>
struct LazySeries
{
    uint32_t first = UINT32_MAX; ///< sample index of values[0]; UINT32_MAX: never non-zero
    std::vector<T> values;

    void Push(uint32_t sampleIndex, T v)
    {
        if (first == UINT32_MAX)
        {
            if (v == T{})
            {
                return;
            }
            first = sampleIndex;
        }
        values.push_back(v);
    }

    /** The full series over nSamples samples (zeros outside the recorded span). */
    std::vector<T> Expand(std::size_t nSamples) const
    {
        std::vector<T> out(nSamples, T{});
        if (first == UINT32_MAX)
        {
            return out;
        }
        for (std::size_t i = 0; i < values.size() && first + i < nSamples; ++i)
        {
            out[first + i] = values[i];
        }
        return out;
    }
};

/** A candidate egress: node index, its port index and the neighbor it faces. */
struct AutoPort
{
    uint32_t node = 0;
    uint32_t port = 0;
    uint32_t neighbor = 0;
};

/** How many queues, ports and flows the automatic choice keeps. */
constexpr std::size_t kAutoWatchCount = 16;
/** Flows seen in fewer samples than this rank after all others (nothing to see on a chart). */
constexpr std::size_t kMinVisibleSamples = 3;
/** Queue and pause candidates are all recorded only while ports x samples stays below this. */
constexpr uint64_t kAutoPortSampleBudget = 16u * 1000u * 1000u;
/** Flow rate samples kept for flow candidates (8 bytes each): 64 MB. */
constexpr uint64_t kAutoFlowSampleBudget = 8u * 1000u * 1000u;

/** One ranked candidate: a score (larger = more interesting), then its name breaks ties. */
struct Ranked
{
    std::size_t index = 0;
    double score = 0;
    double secondary = 0;
    std::string name;
};

/** The n best by score desc, secondary desc, name asc (deterministic). */
std::vector<std::size_t> TopRanked(std::vector<Ranked> all, std::size_t n);

/** How long (in samples) a pause series held a non-zero state. */
uint64_t NonZeroSamples(const LazySeries<uint8_t>& s);

} // namespace fabric

#endif
