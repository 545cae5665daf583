/*
 * The ideal of a collective job (docs/model.md, "The ideal bus bandwidth"): the busbw its
 * algorithm reaches on a non-blocking fabric with no latency, and the time that takes. One
 * implementation for the result's `jobs[].ideal_busbw_gbps` (scenario/job-summary.cc, both engines) and the
 * configuration check's `collective_exceeds_duration` (config-check.cc).
 */
#ifndef FABRIC_COLLECTIVE_IDEAL_H
#define FABRIC_COLLECTIVE_IDEAL_H

#include "model/fabric-config.h"

#include <cstdint>

namespace fabric
{

/** The ideal busbw of a job and what bounds it. */
struct CollectiveIdeal
{
    double gbps = 0;
    const char* limit = "nic"; ///< the resource whose time dominates: "nic" or "nvlink"
    uint32_t channelsPerNic = 1;
};

/** The slowest rank NIC's payload rate of a job (the ring's busbw bound with one channel): a
 *  NIC's link rate (a multi-plane NIC: its links' sum) x mtu / (mtu + headers + preamble and
 *  gap). */
double JobNicPayloadGbps(const Scenario& s, const JobSpec& j);

/**
 * The busbw the job's algorithm reaches on a non-blocking fabric with no latency: every rank's
 * busiest resource (its NIC at the payload rate `nicGbps`, shared by the channels that leave the
 * server through it; NVLink at the job's rate per transfer) moves the algorithm's bytes back to
 * back.
 */
CollectiveIdeal IdealBusbw(const JobSpec& j, double nicGbps);

/** One iteration at the ideal busbw: message_bytes x 8 x bus factor / ideal, in us (0 when the
 *  ideal is 0: nothing to move). */
double IdealIterationUs(const JobSpec& j, double idealGbps);

} // namespace fabric

#endif
