#include "main/batch.h"

#include "scenario/sha256.h"

#include <nlohmann/json.hpp>
#include <ns3/rng-stream.h>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <fcntl.h>
#include <fstream>
#include <iostream>
#include <map>
#include <thread>
#include <sstream>
#include <stdexcept>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

namespace fabricsim
{
namespace
{

constexpr std::size_t kMaxEntries = 100000;
constexpr long long kMaxManifestBytes = 64LL << 20;
constexpr long kMaxJobs = 1024;

struct Entry
{
    std::string scenario;
    std::string out;
};

struct BatchOptions
{
    std::string manifest;
    long jobs = 1;
    std::vector<std::string> limitArgs; // passed on to every `run`
};

long
ParseJobs(const std::string& text)
{
    char* end = nullptr;
    long v = std::strtol(text.c_str(), &end, 10);
    if (text.empty() || *end != '\0' || v < 1 || v > kMaxJobs)
    {
        throw std::invalid_argument("--jobs: must be an integer from 1 to " +
                                    std::to_string(kMaxJobs) + " (got \"" + text + "\")");
    }
    return v;
}

} // namespace

uint32_t
ParseThreads(const std::string& text)
{
    unsigned cores = std::max(1u, std::thread::hardware_concurrency());
    long limit = 4L * cores;
    char* end = nullptr;
    errno = 0;
    long v = std::strtol(text.c_str(), &end, 10);
    if (text.empty() || *end != '\0' || errno != 0 || v < 1 || v > limit)
    {
        throw std::invalid_argument("--threads: must be an integer from 1 to " +
                                    std::to_string(limit) + " (4 x the " +
                                    std::to_string(cores) + " cores here; got \"" + text + "\")");
    }
    return static_cast<uint32_t>(v);
}

namespace
{

BatchOptions
ParseOptions(const std::vector<std::string>& args)
{
    BatchOptions o;
    for (std::size_t i = 1; i < args.size(); ++i)
    {
        const std::string& a = args[i];
        bool takesValue = a == "--jobs" || a == "--max-wall-s" || a == "--max-events" ||
                          a == "--max-memory-mb" || a == "--threads";
        if (takesValue && i + 1 >= args.size())
        {
            throw std::invalid_argument(a + ": needs a value");
        }
        if (a == "--jobs")
        {
            o.jobs = ParseJobs(args[++i]);
        }
        else if (a == "--threads")
        {
            ParseThreads(args[i + 1]); // refused here, before any run starts
            o.limitArgs.push_back(a);
            o.limitArgs.push_back(args[++i]);
        }
        else if (takesValue)
        {
            const std::string& v = args[++i];
            char* end = nullptr;
            double x = std::strtod(v.c_str(), &end);
            if (v.empty() || *end != '\0' || !(x > 0) || x > 1e18)
            {
                throw std::invalid_argument(a + ": must be a number > 0 (got \"" + v + "\")");
            }
            o.limitArgs.push_back(a);
            o.limitArgs.push_back(v);
        }
        else if (!a.empty() && a[0] == '-')
        {
            throw std::invalid_argument("unknown option " + a);
        }
        else if (o.manifest.empty())
        {
            o.manifest = a;
        }
        else
        {
            throw std::invalid_argument("unexpected argument \"" + a + "\"");
        }
    }
    if (o.manifest.empty())
    {
        throw std::invalid_argument("batch: missing MANIFEST.json");
    }
    return o;
}

std::vector<Entry>
ReadManifest(const std::string& path)
{
    struct stat st
    {
    };
    if (stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode))
    {
        throw std::invalid_argument("batch: cannot read manifest \"" + path + "\"");
    }
    if (st.st_size > kMaxManifestBytes)
    {
        throw std::invalid_argument("batch: manifest larger than 64 MiB");
    }
    std::ifstream in(path, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    nlohmann::json doc = nlohmann::json::parse(text.str(), nullptr, false);
    if (doc.is_discarded() || !doc.is_object() || !doc.contains("runs") || !doc["runs"].is_array())
    {
        throw std::invalid_argument("batch: manifest must be a JSON object {\"runs\": [...]}");
    }
    const nlohmann::json& runs = doc["runs"];
    if (runs.empty() || runs.size() > kMaxEntries)
    {
        throw std::invalid_argument("runs: must hold 1 to " + std::to_string(kMaxEntries) +
                                    " entries (got " + std::to_string(runs.size()) + ")");
    }
    std::vector<Entry> entries;
    for (std::size_t i = 0; i < runs.size(); ++i)
    {
        const nlohmann::json& r = runs[i];
        std::string where = "runs[" + std::to_string(i) + "]";
        for (const char* key : {"scenario", "out"})
        {
            if (!r.is_object() || !r.contains(key) || !r[key].is_string() ||
                r[key].get<std::string>().empty())
            {
                throw std::invalid_argument(where + "." + key + ": must be a non-empty path");
            }
        }
        entries.push_back({r["scenario"].get<std::string>(), r["out"].get<std::string>()});
    }
    return entries;
}

std::string
FirstLine(const std::string& path)
{
    std::ifstream in(path);
    std::string line;
    while (std::getline(in, line))
    {
        if (line.find_first_not_of(" \t\r") != std::string::npos)
        {
            return line.substr(0, 2000);
        }
    }
    return "";
}

/** In the child: stdout to /dev/null, stderr to the entry's file, run, exit (no atexit). */
[[noreturn]] void
Child(const Entry& e, const std::vector<std::string>& limitArgs, const RunOne& runOne)
{
    prctl(PR_SET_PDEATHSIG, SIGKILL); // a killed batch leaves no simulation behind
    int devnull = open("/dev/null", O_WRONLY);
    std::string errPath = e.out + ".stderr";
    int err = open(errPath.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (devnull >= 0)
    {
        dup2(devnull, STDOUT_FILENO);
    }
    if (err >= 0)
    {
        dup2(err, STDERR_FILENO);
    }
    std::vector<std::string> args{"run", e.scenario, "--out", e.out};
    args.insert(args.end(), limitArgs.begin(), limitArgs.end());
    int code = runOne(args);
    std::cout.flush();
    std::cerr.flush();
    _exit(code);
}

void
Report(std::size_t index, int code, const std::string& error)
{
    nlohmann::ordered_json line = {{"index", index}, {"exit", code}, {"error", error}};
    std::cout << line.dump() << std::endl; // flushed: the caller reads these lines live
}

/** Waits for one child; reports its entry; returns false when none is left. */
bool
ReapOne(std::map<pid_t, std::size_t>& running, const std::vector<Entry>& entries)
{
    if (running.empty())
    {
        return false;
    }
    int status = 0;
    pid_t pid = waitpid(-1, &status, 0);
    if (pid < 0)
    {
        if (errno == EINTR)
        {
            return true;
        }
        throw std::runtime_error("batch: waitpid failed");
    }
    auto it = running.find(pid);
    if (it == running.end())
    {
        return true;
    }
    std::size_t index = it->second;
    running.erase(it);
    std::string errPath = entries[index].out + ".stderr";
    std::string error = FirstLine(errPath);
    std::remove(errPath.c_str());
    int code = 1;
    if (WIFEXITED(status))
    {
        code = WEXITSTATUS(status);
    }
    else if (WIFSIGNALED(status))
    {
        error = "internal error: killed by signal " + std::to_string(WTERMSIG(status));
    }
    Report(index, code, error);
    return true;
}

} // namespace

int
RunBatch(const std::vector<std::string>& args, const RunOne& runOne)
{
    BatchOptions o = ParseOptions(args);
    std::vector<Entry> entries = ReadManifest(o.manifest);
    // ns-3's MRG32k3a builds its table of jump matrices (A^(2^n), n < 190) the first time any
    // stream is made, about 9 ms of modular arithmetic. Made here once, before the forks, every
    // child inherits the table instead of recomputing it. The stream itself is discarded: no
    // seed, run or stream counter changes, so each child's results stay those of `fabricsim run`.
    {
        ns3::RngStream warm(1, 1, 1); // a non-zero stream: stream 0 never reads the table
        (void)warm.RandU01();
    }
    // The same for OpenSSL: its first digest loads the configuration, the default provider and
    // the SHA-256 implementation (allocations, a file read, page faults). Done once here, each
    // child's scenario hash finds them ready.
    (void)fabric::Sha256Hex("");
    std::cout.flush();
    std::cerr.flush();
    std::map<pid_t, std::size_t> running;
    for (std::size_t i = 0; i < entries.size(); ++i)
    {
        while (static_cast<long>(running.size()) >= o.jobs)
        {
            ReapOne(running, entries);
        }
        pid_t pid = fork();
        if (pid < 0)
        {
            // out of processes: finish what runs, then report this entry as not started
            while (ReapOne(running, entries))
            {
            }
            Report(i, 1, "internal error: cannot start a process for this entry");
            continue;
        }
        if (pid == 0)
        {
            Child(entries[i], o.limitArgs, runOne);
        }
        running[pid] = i;
    }
    while (ReapOne(running, entries))
    {
    }
    return 0;
}

} // namespace fabricsim
