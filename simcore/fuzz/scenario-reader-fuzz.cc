/*
 * libFuzzer harness for the scenario reader (scripts/fuzz.sh builds and runs it).
 *
 * The reader's contract (docs/result-format.md): any input either loads or throws
 * fabric::ScenarioError, in bounded time and memory. Anything else escaping here (another
 * exception, a crash, a sanitizer report, a timeout, running out of the RSS limit) is a
 * finding. A loaded scenario is also expanded and checked for warnings, the other code
 * that runs on user input before a simulation starts.
 */
#include "scenario/scenario-checks.h"
#include "scenario/scenario-parser.h"

#include <cstddef>
#include <cstdint>
#include <string>

extern "C" int
LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size)
{
    std::string bytes(reinterpret_cast<const char*>(data), size);
    try
    {
        nlohmann::ordered_json normalized;
        fabric::Scenario s = fabric::LoadScenario(bytes, &normalized);
        fabric::ExpandJson(s.topo);
        fabric::ScenarioWarnings(s);
    }
    catch (const fabric::ScenarioError&)
    {
        // the documented way to refuse input
    }
    return 0;
}
