#include "helper/process-memory.h"

#include <cstdlib>
#include <fstream>
#include <string>

namespace fabric
{

double
PeakRssMb()
{
    std::ifstream status("/proc/self/status");
    std::string line;
    while (std::getline(status, line))
    {
        if (line.rfind("VmHWM:", 0) == 0)
        {
            return std::strtod(line.c_str() + 6, nullptr) / 1024.0;
        }
    }
    return 0;
}

double
HugePagesMb()
{
    std::ifstream rollup("/proc/self/smaps_rollup");
    std::string line;
    while (std::getline(rollup, line))
    {
        if (line.rfind("AnonHugePages:", 0) == 0)
        {
            return std::strtod(line.c_str() + 14, nullptr) / 1024.0;
        }
    }
    return 0;
}

} // namespace fabric
