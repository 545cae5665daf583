/*
 * The process's peak memory, for the runner's --max-memory-mb limit (helper/run-controller.cc)
 * and the result's perf.peak_rss_mb (main/fabricsim.cc, examples/fabric-bench.cc).
 */
#ifndef FABRIC_PROCESS_MEMORY_H
#define FABRIC_PROCESS_MEMORY_H

namespace fabric
{

/** Peak resident set size of this process in MB (VmHWM of /proc/self/status), 0 if unknown. */
double PeakRssMb();

/**
 * Memory of this process now backed by transparent huge pages, in MB (AnonHugePages of
 * /proc/self/smaps_rollup), 0 if none or unknown: the result's perf.huge_pages_mb.
 */
double HugePagesMb();

} // namespace fabric

#endif
