/*
 * fabricsim: the command line of the FabricTwin simulator (docs/result-format.md).
 *
 *   fabricsim --version
 *   fabricsim validate SCENARIO.json
 *   fabricsim expand SCENARIO.json
 *   fabricsim run SCENARIO.json --out RESULT.json [--engine packet|flow] [--progress]
 *                 [--max-wall-s S] [--max-events N] [--max-memory-mb M] [--max-hosts N]
 *                 [--result full|headline] [--threads N]
 *   fabricsim check SCENARIO.json   (configuration check: findings as JSON)
 *   fabricsim schema
 *   fabricsim batch MANIFEST.json [--jobs N] [--max-wall-s S] [--max-events N]
 *                   [--max-memory-mb M] [--threads N]   (many runs, one child process each: main/batch.h)
 *
 * Exit codes: 0 ok, 2 invalid input, 3 a limit stopped the run (partial result written),
 * 1 internal error. Errors are one line on stderr.
 */

#include "flow/flow-runner.h"
#include "helper/fabric-runner.h"
#include "helper/partitioner.h"
#include "scenario/process-memory.h"
#include "main/batch.h"
#include "scenario/config-check.h"
#include "scenario/result-writer.h"
#include "scenario/scenario-contract.h"
#include "scenario/scenario-checks.h"
#include "scenario/scenario-parser.h"

#include <chrono>
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <functional>
#include <iostream>
#include <new>
#include <string>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

namespace
{

constexpr int kExitOk = 0;
constexpr int kExitInternal = 1;
constexpr int kExitInvalid = 2;
constexpr int kExitLimit = 3;

const char* kUsage = "usage: fabricsim --version | validate FILE | expand FILE | check FILE | schema | run FILE "
                     "--out RESULT [--engine packet|flow] [--collective-streams auto|on|off] [--progress] [--max-wall-s S] [--max-events N] "
                     "[--max-memory-mb M] [--max-hosts N] [--result full|headline] [--threads N] | batch MANIFEST [--jobs N] "
                     "[--max-wall-s S] [--max-events N] [--max-memory-mb M] [--threads N]";

/** A bad command line: reported like invalid input (exit 2). */
struct UsageError
{
    std::string message;
};

/** A valid command the simulator cannot do for this scenario (exit 2, the reason only). */
struct Refused
{
    std::string message;
};

/** Last line of defence: a fatal signal still ends with one line on stderr and exit 1. */
extern "C" void
OnFatalSignal(int sig)
{
    char line[64];
    int n = std::snprintf(line, sizeof(line), "internal error: fatal signal %d\n", sig);
    if (n > 0)
    {
        ssize_t ignored = write(STDERR_FILENO, line, static_cast<std::size_t>(n));
        (void)ignored;
    }
    _exit(kExitInternal);
}

void
InstallCrashHandlers()
{
    static std::vector<char> altStack(1 << 16);
    stack_t ss{};
    ss.ss_sp = altStack.data();
    ss.ss_size = altStack.size();
    sigaltstack(&ss, nullptr);
    struct sigaction sa
    {
    };
    sa.sa_handler = OnFatalSignal;
    sa.sa_flags = SA_ONSTACK;
    sigemptyset(&sa.sa_mask);
    for (int sig : {SIGSEGV, SIGBUS, SIGFPE, SIGILL})
    {
        sigaction(sig, &sa, nullptr);
    }
}

double
ParsePositive(const std::string& flag, const std::string& text)
{
    char* end = nullptr;
    double v = std::strtod(text.c_str(), &end);
    if (text.empty() || *end != '\0' || !(v > 0) || v > 1e18)
    {
        throw UsageError{flag + ": must be a number > 0 (got \"" + text + "\")"};
    }
    return v;
}

fabric::Scenario
Load(const std::string& path)
{
    return fabric::LoadScenario(fabric::ReadScenarioFile(path));
}

struct RunOptions
{
    std::string scenarioPath;
    std::string outPath;
    std::string engine = "packet"; ///< "packet" (the ns-3 model) or "flow" (flow/flow-runner.h)
    std::string collectiveStreams = "auto"; ///< when rings run as streams (flow) or programs (packet)
    bool progress = false;
    fabric::RunLimits limits;
    uint64_t maxHosts = 0; ///< --max-hosts: refuse a larger topology before its traffic (0: none)
    bool headline = false; ///< --result headline: the result without its tables (Headline)
};

RunOptions
ParseRunOptions(const std::vector<std::string>& args)
{
    RunOptions o;
    for (std::size_t i = 1; i < args.size(); ++i)
    {
        const std::string& a = args[i];
        auto value = [&]() -> const std::string&
        {
            if (i + 1 >= args.size())
            {
                throw UsageError{a + ": needs a value"};
            }
            return args[++i];
        };
        if (a == "--out")
        {
            o.outPath = value();
        }
        else if (a == "--progress")
        {
            o.progress = true;
        }
        else if (a == "--collective-streams")
        {
            o.collectiveStreams = value();
            if (o.collectiveStreams != "auto" && o.collectiveStreams != "on" &&
                o.collectiveStreams != "off")
            {
                throw UsageError{"--collective-streams: must be \"auto\", \"on\" or \"off\" (got \"" +
                                 o.collectiveStreams + "\")"};
            }
        }
        else if (a == "--result")
        {
            const std::string& kind = value();
            if (kind != "full" && kind != "headline")
            {
                throw UsageError{"--result: must be \"full\" or \"headline\" (got \"" + kind + "\")"};
            }
            o.headline = kind == "headline";
        }
        else if (a == "--engine")
        {
            o.engine = value();
            if (o.engine != "packet" && o.engine != "flow")
            {
                throw UsageError{"--engine: must be \"packet\" or \"flow\" (got \"" + o.engine +
                                 "\")"};
            }
        }
        else if (a == "--max-wall-s")
        {
            o.limits.maxWallS = ParsePositive(a, value());
        }
        else if (a == "--max-events")
        {
            o.limits.maxEvents = static_cast<uint64_t>(ParsePositive(a, value()));
        }
        else if (a == "--max-hosts")
        {
            o.maxHosts = static_cast<uint64_t>(ParsePositive(a, value()));
        }
        else if (a == "--max-memory-mb")
        {
            o.limits.maxMemoryMb = static_cast<uint64_t>(ParsePositive(a, value()));
        }
        else if (a == "--threads")
        {
            try
            {
                o.limits.threads = fabricsim::ParseThreads(value());
            }
            catch (const std::invalid_argument& e)
            {
                throw UsageError{e.what()};
            }
        }
        else if (!a.empty() && a[0] == '-')
        {
            throw UsageError{"unknown option " + a};
        }
        else if (o.scenarioPath.empty())
        {
            o.scenarioPath = a;
        }
        else
        {
            throw UsageError{"unexpected argument \"" + a + "\""};
        }
    }
    if (o.scenarioPath.empty())
    {
        throw UsageError{"run: missing SCENARIO.json"};
    }
    if (o.outPath.empty())
    {
        throw UsageError{"run: missing --out RESULT.json"};
    }
    return o;
}

void
PrintProgress(const fabric::Progress& p)
{
    nlohmann::ordered_json line = {{"sim_time_ns", p.simTimeNs},
                                   {"duration_ns", p.durationNs},
                                   {"events", p.events},
                                   {"wall_s", std::round(p.wallS * 1000.0) / 1000.0}};
    std::cout << line.dump() << std::endl; // flush: a worker reads these lines live
}

/**
 * Refuses an --out path that cannot take the result, before the run spends any time: a
 * directory, or a file in a directory that does not exist or cannot be written.
 */
void
CheckOutPath(const std::string& path)
{
    struct stat st
    {
    };
    if (stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode))
    {
        throw UsageError{"--out: \"" + path + "\" is a directory; name the result file"};
    }
    std::string::size_type slash = path.find_last_of('/');
    std::string dir = slash == std::string::npos ? "." : path.substr(0, slash == 0 ? 1 : slash);
    if (stat(dir.c_str(), &st) != 0 || !S_ISDIR(st.st_mode))
    {
        throw UsageError{"--out: directory \"" + dir + "\" does not exist"};
    }
    if (access(dir.c_str(), W_OK) != 0)
    {
        throw UsageError{"--out: directory \"" + dir + "\" is not writable"};
    }
}

/** Writes via a temporary file renamed into place; the temporary never outlives a failure. */
void
WriteFile(const std::string& path, const std::string& text)
{
    std::string tmp = path + ".tmp";
    {
        std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
        out << text;
        out.flush();
        if (!out)
        {
            std::remove(tmp.c_str());
            throw std::runtime_error("cannot write \"" + tmp + "\"");
        }
    }
    if (std::rename(tmp.c_str(), path.c_str()) != 0)
    {
        std::remove(tmp.c_str());
        throw std::runtime_error("cannot rename \"" + tmp + "\" to \"" + path + "\"");
    }
}

/// main's argv, for a restart (MaybeRestartWithHugePages); null inside a batch's child.
char** g_argv = nullptr;

/// Links x 2 from which a run's heap asks for huge pages: the fabrics whose per-frame state
/// outgrows the caches, where each miss was also a TLB miss. Measured (docs/benchmarks.md):
/// k=24 (20,736 ports) 1.29x faster with them, k=16 (6,144) 0.97x, so the bar is between.
constexpr std::size_t kHugePagesFromPorts = 16384;
/// Huge pages for the heap, and a heap that grows 64 MB at a time and is never trimmed: each
/// trim and regrowth faulted fresh 2 MB pages in again, which the kernel zeroes (k=32: 0.77 s
/// of system time against 0.31 s without trimming).
constexpr const char* kHugePagesTunable =
    "glibc.malloc.hugetlb=1:glibc.malloc.trim_threshold=1073741824:glibc.malloc.top_pad=67108864";

/**
 * Transparent huge pages for a large fabric's heap. At k=32 the lines a frame touches are spread
 * over 300 MB, so with 4 KB pages nearly every cache miss is a TLB miss too; 2 MB pages remove
 * those (docs/benchmarks.md). glibc reads its malloc tunables only when a process starts, so the
 * run starts the simulator once more, same arguments, with kHugePagesTunable added to
 * GLIBC_TUNABLES: malloc then asks the kernel for huge pages (madvise), which the kernel's
 * transparent_hugepage setting grants ("madvise", "always") or ignores ("never"). Results are
 * the same bytes. FABRICSIM_HUGE_PAGES=0 keeps 4 KB pages; under valgrind nothing restarts (the
 * new process would leave the tool). If the exec fails the run goes on as it is.
 */
void
MaybeRestartWithHugePages(const fabric::Scenario& scenario)
{
    if (g_argv == nullptr || 2 * scenario.topo.links.size() < kHugePagesFromPorts)
    {
        return;
    }
    const char* off = std::getenv("FABRICSIM_HUGE_PAGES");
    const char* tunables = std::getenv("GLIBC_TUNABLES");
    const char* preload = std::getenv("LD_PRELOAD");
    if ((off != nullptr && std::strcmp(off, "0") == 0) ||
        (tunables != nullptr && std::strstr(tunables, "glibc.malloc.hugetlb") != nullptr) ||
        (preload != nullptr && std::strstr(preload, "vgpreload") != nullptr))
    {
        return;
    }
    std::string value = tunables != nullptr && *tunables != '\0'
                            ? std::string(tunables) + ":" + kHugePagesTunable
                            : std::string(kHugePagesTunable);
    if (setenv("GLIBC_TUNABLES", value.c_str(), 1) != 0)
    {
        return;
    }
    std::cout.flush();
    std::cerr.flush();
    execv("/proc/self/exe", g_argv);
    unsetenv("GLIBC_TUNABLES"); // exec failed: on as we are
    if (tunables != nullptr)
    {
        setenv("GLIBC_TUNABLES", tunables, 1);
    }
}

/** The result's first keys, as both engines write them (docs/result-format.md). */
nlohmann::ordered_json
ResultHeader(const fabric::Scenario& scenario, fabric::RunStatus status, const char* engine,
             uint64_t events, uint64_t simTimeNs, uint64_t packetsTx)
{
    nlohmann::ordered_json result = nlohmann::ordered_json::object();
    result["result_version"] = 1;
    result["status"] = status == fabric::RunStatus::OK ? "ok" : "limit";
    result["run_info"] = {{"simulator", "fabricsim"},
                          {"version", FABRICSIM_VERSION},
                          {"engine", engine},
                          {"seed", scenario.seed},
                          {"scenario_sha256", scenario.sha256},
                          {"events", events},
                          {"sim_time_ns", simTimeNs},
                          {"duration_ns", scenario.durationNs},
                          {"warmup_ns", scenario.warmupNs},
                          {"packets_tx", packetsTx},
                          {"fabric", fabric::FabricStatsJson(scenario.topo)}};
    result["warnings"] = fabric::WarningsJson(fabric::ScenarioWarnings(scenario));
    return result;
}

/**
 * `--result headline` (docs/result-format.md): the result's headline figures without its tables,
 * for a caller that shows only those (the editor's estimate): flows, link utilization, host
 * throughput and each job's hosts, links, steps and training timeline are left empty, and
 * run_info.result says so. Every figure kept is the full result's.
 */
void
Headline(nlohmann::ordered_json& result)
{
    result["run_info"]["result"] = "headline";
    result["flows"] = nlohmann::ordered_json::array();
    nlohmann::ordered_json& summary = result["summary"];
    if (summary.contains("link_utilization"))
    {
        summary["link_utilization"] = nlohmann::ordered_json::array();
    }
    if (summary.contains("host_throughput_gbps"))
    {
        summary["host_throughput_gbps"] = nlohmann::ordered_json::object();
    }
    if (!result.contains("jobs"))
    {
        return;
    }
    for (nlohmann::ordered_json& job : result["jobs"])
    {
        for (const char* key : {"hosts", "links", "steps"})
        {
            job[key] = nlohmann::ordered_json::array();
        }
        job["steps_truncated"] = true;
        if (job.contains("training") && job["training"].is_object())
        {
            job["training"]["timeline"] = nlohmann::ordered_json::array();
            job["training"]["timeline_truncated"] = true;
        }
    }
}

/**
 * A fabric larger than the packet engine runs (its event keys hold node ids below 2^15): one
 * line naming the limit, or "" (the flow engine takes the scenario format's limits).
 */
std::string
PacketRefusal(const fabric::Scenario& scenario)
{
    std::size_t nodes = scenario.topo.nodes.size();
    std::size_t links = scenario.topo.links.size();
    if (nodes > fabric::kPacketMaxNodes)
    {
        return "topology: expands to " + std::to_string(nodes) +
               " nodes, more than the packet engine's limit of " +
               std::to_string(fabric::kPacketMaxNodes) + " (run it with --engine flow)";
    }
    if (links > fabric::kPacketMaxLinks)
    {
        return "topology: expands to " + std::to_string(links) +
               " links, more than the packet engine's limit of " +
               std::to_string(fabric::kPacketMaxLinks) + " (run it with --engine flow)";
    }
    return "";
}

int
RunPacket(const RunOptions& o, fabric::Scenario&& loaded)
{
    const fabric::Scenario& scenario = loaded;
    std::string tooLarge = PacketRefusal(scenario);
    if (!tooLarge.empty())
    {
        throw Refused{tooLarge};
    }
    MaybeRestartWithHugePages(scenario);
    if (o.limits.threads > 1)
    {
        std::string refusal = fabric::ParallelRefusal(scenario);
        if (!refusal.empty())
        {
            throw Refused{"--threads " + std::to_string(o.limits.threads) + ": " + refusal};
        }
    }
    auto start = std::chrono::steady_clock::now();

    uint64_t durationNs = scenario.durationNs;
    // the runner keeps the scenario (a collective's transfers may be millions: not twice)
    fabric::FabricRunner runner(std::move(loaded));
    const fabric::Scenario& kept = runner.GetScenario();
    uint64_t lastReportedNs = UINT64_MAX;
    auto onProgress = [&o, &lastReportedNs](const fabric::Progress& p)
    {
        if (o.progress)
        {
            PrintProgress(p);
            lastReportedNs = p.simTimeNs;
        }
    };
    fabric::RunStatus status = runner.Run(o.limits, onProgress);
    double wallS = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (o.progress && lastReportedNs != runner.SimTimeNs())
    {
        PrintProgress({runner.SimTimeNs(), durationNs, runner.Events(), wallS});
    }

    nlohmann::ordered_json result = ResultHeader(kept, status, "ns-3.37", runner.Events(),
                                                 runner.SimTimeNs(), runner.PacketsTx());
    nlohmann::ordered_json model = runner.Results();
    // (moved, not copied: a result's flows and jobs may be hundreds of megabytes)
    for (const char* key : {"summary", "flows", "series"})
    {
        result[key] = model.contains(key) ? std::move(model[key]) : nlohmann::ordered_json(nullptr);
    }
    // present only when the run has them
    for (const char* key : {"faults", "pingmesh", "port_counters", "dci_accelerator", "transport", "jobs"})
    {
        if (model.contains(key))
        {
            result[key] = std::move(model[key]);
        }
    }
    double safeWall = wallS > 0 ? wallS : 1e-9;
    result["perf"] = {{"engine", "packet"},
                      {"wall_s", wallS},
                      {"events_per_s", static_cast<double>(runner.Events()) / safeWall},
                      {"packets_per_s", static_cast<double>(runner.PacketsTx()) / safeWall},
                      {"peak_rss_mb", fabric::PeakRssMb()},
                      {"huge_pages_mb", fabric::HugePagesMb()},
                      {"parallel", runner.Parallel()}};
    if (o.headline)
    {
        Headline(result);
    }
    WriteFile(o.outPath, fabric::DumpDeterministic(std::move(result)) + "\n");
    return status == fabric::RunStatus::OK ? kExitOk : kExitLimit;
}

/**
 * `run --engine flow` (docs/model.md, "Flow-level engine"); one thread, whatever --threads.
 * Ring collectives of more than a million transfers (--collective-streams auto; on: every
 * ring; off: none) are loaded unexpanded and run as streams.
 */
int
RunFlow(const RunOptions& o)
{
    fabric::LoadOptions options;
    options.ringProgramsAbove = 0; // (the packet model's; the flow engine streams rings itself)
    // a training job's collectives inside one server as stand-ins (exact: NvlinkGroup), unless
    // off lists every transfer
    options.nvlinkGroups = o.collectiveStreams != "off";
    options.maxHosts = o.maxHosts;
    options.streamRingsAbove = o.collectiveStreams == "off"  ? 0
                               : o.collectiveStreams == "on" ? 1
                                                             : fabric::flow::kStreamRingsAboveTransfers;
    fabric::LoadedScenario loaded =
        fabric::LoadScenarioWith(fabric::ReadScenarioFile(o.scenarioPath), options);
    const fabric::Scenario& scenario = loaded.scenario;
    CheckOutPath(o.outPath);
    auto start = std::chrono::steady_clock::now();
    fabric::flow::FlowRunner runner(scenario, std::move(loaded.streamed));
    uint64_t lastReportedNs = UINT64_MAX;
    auto onProgress = [&o, &lastReportedNs](const fabric::Progress& p)
    {
        if (o.progress)
        {
            PrintProgress(p);
            lastReportedNs = p.simTimeNs;
        }
    };
    fabric::RunStatus status = runner.Run(o.limits, onProgress);
    double wallS = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (o.progress && lastReportedNs != runner.SimTimeNs())
    {
        PrintProgress({runner.SimTimeNs(), scenario.durationNs, runner.Events(), wallS});
    }
    nlohmann::ordered_json result =
        ResultHeader(scenario, status, "flow", runner.Events(), runner.SimTimeNs(), 0);
    result["caveats"] = runner.Caveats();
    nlohmann::ordered_json model = runner.Results(!o.headline); // (Headline empties the rest)
    for (const char* key : {"summary", "flows", "series"})
    {
        result[key] = std::move(model[key]);
    }
    if (model.contains("jobs"))
    {
        result["jobs"] = std::move(model["jobs"]);
    }
    wallS = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    double safeWall = wallS > 0 ? wallS : 1e-9;
    result["perf"] = {{"engine", "flow"},
                      {"wall_s", wallS},
                      {"events_per_s", static_cast<double>(runner.Events()) / safeWall},
                      {"packets_per_s", 0},
                      {"peak_rss_mb", fabric::PeakRssMb()},
                      {"huge_pages_mb", fabric::HugePagesMb()}};
    nlohmann::ordered_json work = runner.Work();
    for (const auto& [key, value] : work.items())
    {
        result["perf"][key] = value; // what the rate solves cost (flows solved, filling passes)
    }
    if (o.headline)
    {
        Headline(result);
    }
    WriteFile(o.outPath, fabric::DumpDeterministic(std::move(result)) + "\n");
    return status == fabric::RunStatus::OK ? kExitOk : kExitLimit;
}

int
Run(const std::vector<std::string>& args)
{
    RunOptions o = ParseRunOptions(args);
    if (o.engine == "flow")
    {
        return RunFlow(o);
    }
    // Ring collectives of more than a million transfers (--collective-streams auto; on: every
    // ring; off: none) run as ring programs, their transfers unlisted.
    fabric::LoadOptions options;
    options.ringProgramsAbove = o.collectiveStreams == "off"  ? 0
                                : o.collectiveStreams == "on" ? 1
                                                              : fabric::kRingProgramsAboveTransfers;
    options.maxHosts = o.maxHosts;
    fabric::Scenario scenario =
        fabric::LoadScenarioWith(fabric::ReadScenarioFile(o.scenarioPath), options).scenario;
    CheckOutPath(o.outPath);
    return RunPacket(o, std::move(scenario));
}

std::string
FileArgument(const std::vector<std::string>& args)
{
    if (args.size() != 2)
    {
        throw UsageError{args[0] + ": needs exactly one SCENARIO.json"};
    }
    return args[1];
}

/** Collapses a message to one line. */
std::string
OneLine(std::string text)
{
    for (char& c : text)
    {
        if (c == '\n' || c == '\r')
        {
            c = ' ';
        }
    }
    return text;
}

/** Runs `body`, turning every exception into one line on stderr and the contract's exit code. */
int
Guarded(const std::function<int()>& body)
{
    try
    {
        return body();
    }
    catch (const UsageError& e)
    {
        std::cerr << OneLine(e.message) << " (" << kUsage << ")" << std::endl;
        return kExitInvalid;
    }
    catch (const Refused& e)
    {
        std::cerr << OneLine(e.message) << std::endl;
        return kExitInvalid;
    }
    catch (const fabric::ScenarioError& e)
    {
        std::cerr << OneLine(e.what()) << std::endl;
        return kExitInvalid;
    }
    catch (const std::bad_alloc&)
    {
        std::cerr << "internal error: out of memory" << std::endl;
        return kExitInternal;
    }
    catch (const std::exception& e)
    {
        std::cerr << "internal error: " << OneLine(e.what()) << std::endl;
        return kExitInternal;
    }
    catch (...)
    {
        std::cerr << "internal error: unknown exception" << std::endl;
        return kExitInternal;
    }
}

int
Dispatch(const std::vector<std::string>& args)
{
    if (args.empty())
    {
        throw UsageError{"missing command"};
    }
    const std::string& cmd = args[0];
    if (cmd == "--version" || cmd == "version")
    {
        std::cout << "fabricsim " << FABRICSIM_VERSION << " (ns-3.37)" << std::endl;
        return kExitOk;
    }
    if (cmd == "--help" || cmd == "-h" || cmd == "help")
    {
        std::cout << kUsage << std::endl;
        return kExitOk;
    }
    if (cmd == "validate")
    {
        Load(FileArgument(args));
        std::cout << "ok" << std::endl;
        return kExitOk;
    }
    if (cmd == "expand")
    {
        fabric::Scenario s = Load(FileArgument(args));
        std::cout << fabric::DumpDeterministic(fabric::ExpandJson(s.topo)) << std::endl;
        return kExitOk;
    }
    if (cmd == "check")
    {
        fabric::Scenario s = Load(FileArgument(args));
        std::cout << fabric::DumpDeterministic(fabric::ConfigCheckJson(s)) << std::endl;
        return kExitOk;
    }
    if (cmd == "schema")
    {
        std::cout << fabric::DumpDeterministic(fabric::ScenarioDefaults(), 2) << std::endl;
        return kExitOk;
    }
    if (cmd == "run")
    {
        return Run(args);
    }
    if (cmd == "batch")
    {
        g_argv = nullptr; // a child runs one entry of the manifest: not main's arguments
        try
        {
            return fabricsim::RunBatch(args, [](const std::vector<std::string>& a)
                                       { return Guarded([&a]() { return Run(a); }); });
        }
        catch (const std::invalid_argument& e)
        {
            throw UsageError{e.what()};
        }
    }
    throw UsageError{"unknown command \"" + cmd + "\""};
}

} // namespace

int
main(int argc, char** argv)
{
    InstallCrashHandlers();
    g_argv = argv;
    std::vector<std::string> args(argv + 1, argv + argc);
    return Guarded([&args]() { return Dispatch(args); });
}
