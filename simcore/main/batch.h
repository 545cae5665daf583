/*
 * `fabricsim batch`: many scenarios from one process (docs/result-format.md, "Batch mode").
 *
 * The batch process parses its manifest, then forks one child per entry; a child runs exactly
 * what `fabricsim run SCENARIO --out RESULT` runs and exits. Every child starts from the same
 * pristine state (the batch process never simulates), so each result is byte-identical to a
 * standalone run of its scenario: reproducible on its own. What is saved per point is the
 * process start (exec, dynamic loading, ns-3's static registrations) and, for the caller, one
 * process and one progress stream for many points; `--jobs N` runs N children at a time.
 */
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace fabricsim
{

/** Runs `fabricsim run ARGS...` (args[0] == "run") in this process; returns its exit code. */
using RunOne = std::function<int(const std::vector<std::string>&)>;

/**
 * `batch MANIFEST.json [--jobs N] [--max-wall-s S] [--max-events N] [--max-memory-mb M]`.
 * Prints one JSON line per finished entry ({"index", "exit", "error"}, in completion order)
 * and returns 0 once every entry has ended, whatever their codes; a bad command line or
 * manifest throws `std::invalid_argument` (reported with exit 2) before anything runs.
 */
int RunBatch(const std::vector<std::string>& args, const RunOne& runOne);

/**
 * --threads: an integer from 1 to 4 x the machine's cores; throws std::invalid_argument with
 * the allowed range otherwise.
 */
uint32_t ParseThreads(const std::string& text);

} // namespace fabricsim
