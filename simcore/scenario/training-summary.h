/*
 * The `training` block of a training job's result entry (docs/result-format.md, "Training
 * jobs"): iteration times, tokens per second, and the critical rank's first iteration split into
 * compute, communication hidden behind it, communication exposed (by kind: TP, PP, DP, EP) and
 * idle time (the pipeline bubble), from each transfer's start and completion, whichever engine
 * ran them (called by job-summary.cc).
 */
#ifndef FABRIC_TRAINING_SUMMARY_H
#define FABRIC_TRAINING_SUMMARY_H

#include "job-summary.h"
#include "training-plan.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace fabric
{

/** What a training job's results need of its plan (JobSpec::training). */
struct TrainingJob
{
    std::string model;
    TrainingParallelSpec parallel;
    uint64_t tokensPerIteration = 0;
    uint32_t iterations = 1;
    uint32_t ranks = 0;
    // per plan transfer
    std::vector<TrainingKind> kind;
    std::vector<uint32_t> collective; ///< UINT32_MAX: a compute marker
    std::vector<uint32_t> src;
    std::vector<uint32_t> dst;
    std::vector<uint64_t> gapNs;
    std::vector<uint32_t> iteration;
    std::vector<TrainingCollective> collectives;
    std::vector<std::vector<uint32_t>> iterationEnd; ///< per iteration, per rank

    /**
     * Keeps what the results need of the plan (the transfers' sizes and waits go to flows),
     * taking its lists rather than copying them.
     */
    static TrainingJob Of(TrainingPlan&& plan,
                          const std::string& model,
                          const TrainingParallelSpec& parallel,
                          uint32_t iterations);
};

/** At most this many timeline segments are listed (timeline_truncated says when more were). */
constexpr std::size_t kMaxTimelineSegments = 2000;

/**
 * A training job's transfer times by plan index, read through the run's (by transfer index):
 * index[i] is plan transfer i's transfer (UINT32_MAX: none, not started). A view, so the times
 * of a million transfers are not copied into plan order.
 */
class PlanTimes
{
  public:
    PlanTimes(const std::vector<TransferTimes>& times, const std::vector<uint32_t>& index)
        : m_times(times),
          m_index(index)
    {
    }

    const TransferTimes& operator[](std::size_t i) const
    {
        static const TransferTimes kNone;
        uint32_t t = m_index[i];
        return t < m_times.size() ? m_times[t] : kNone;
    }

    std::size_t size() const { return m_index.size(); }

  private:
    const std::vector<TransferTimes>& m_times;
    const std::vector<uint32_t>& m_index;
};

/** The `training` block from each plan transfer's times (by plan index). */
nlohmann::ordered_json TrainingJson(const TrainingJob& job, const PlanTimes& times);

} // namespace fabric

#endif
