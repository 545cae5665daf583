#include "process-memory.h"

#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>

namespace fabric
{

namespace
{
/** The kB value of the line starting with key (e.g. "VmHWM:") in a /proc file, in MB; 0 if none. */
double
ProcFieldMb(const char* path, const char* key)
{
    std::ifstream in(path);
    std::string line;
    while (std::getline(in, line))
    {
        if (line.rfind(key, 0) == 0)
        {
            return std::strtod(line.c_str() + std::strlen(key), nullptr) / 1024.0;
        }
    }
    return 0;
}
} // namespace

double
PeakRssMb()
{
    return ProcFieldMb("/proc/self/status", "VmHWM:");
}

double
HugePagesMb()
{
    return ProcFieldMb("/proc/self/smaps_rollup", "AnonHugePages:");
}

} // namespace fabric
