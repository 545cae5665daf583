/*
 * The "jobs" block of a result from each collective transfer's start and completion
 * (docs/result-format.md), shared by both engines: the packet model's job report
 * (helper/job-report.cc) and the flow engine's (flow/flow-result.cc).
 */
#ifndef FABRIC_JOB_SUMMARY_H
#define FABRIC_JOB_SUMMARY_H

#include "model/fabric-config.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <functional>
#include <vector>

namespace fabric
{

/** When one transfer of a run was posted and completed at its receiver, in ps. */
struct TransferTimes
{
    int64_t startPs = 0;
    int64_t completePs = -1; ///< -1: not completed
    bool started = false;
};

/** At most this many steps per job are listed (steps_truncated says when more were). */
constexpr std::size_t kMaxListedJobSteps = 20000;

/**
 * The fields of a job entry that depend on the job alone, name to ideal_limit (ranks, hosts,
 * the slowest rank NIC's payload rate, the ideal busbw and what bounds it).
 */
nlohmann::ordered_json JobHeaderJson(const Scenario& s, const JobSpec& spec);

/**
 * One entry per job of s.jobs, from times (by transfer index, s.transfers naming each
 * transfer's job, iteration, channel, step and connection); links(job) gives the job's "links"
 * list. A job's "flows" and "flows_completed" count its transfers. A ring program's
 * (s.transfers.rings) come from ringSteps, one entry per RingStepSlot, the run's threads added
 * up (none: nothing of it posted).
 */
nlohmann::ordered_json JobsJson(const Scenario& s, const std::vector<TransferTimes>& times,
                                const std::function<nlohmann::ordered_json(uint32_t job)>& links,
                                const std::vector<RingStepTimes>& ringSteps = {});

/** Gbit/s of bytes moved in timeUs (NCCL-tests' algbw, in bits). */
double JobGbps(uint64_t bytes, double timeUs);

} // namespace fabric

#endif
