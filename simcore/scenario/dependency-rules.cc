#include "dependency-rules.h"

namespace fabric
{

DependentsIndex
InvertDependencies(const FlowDependencies& d, std::size_t flows)
{
    DependentsIndex x;
    x.pending.assign(flows, 0);
    x.begin.assign(flows + 1, 0);
    if (d.Empty())
    {
        return x;
    }
    for (std::size_t i = 0; i < flows; ++i)
    {
        x.pending[i] = d.begin[i + 1] - d.begin[i];
        for (uint32_t k = d.begin[i]; k < d.begin[i + 1]; ++k)
        {
            ++x.begin[d.on[k] + 1];
        }
    }
    for (std::size_t i = 0; i < flows; ++i)
    {
        x.begin[i + 1] += x.begin[i];
    }
    x.dependents.resize(d.on.size());
    std::vector<uint32_t> fill(x.begin.begin(), x.begin.end() - 1);
    for (std::size_t i = 0; i < flows; ++i)
    {
        for (uint32_t k = d.begin[i]; k < d.begin[i + 1]; ++k)
        {
            x.dependents[fill[d.on[k]]++] = static_cast<uint32_t>(i);
        }
    }
    return x;
}

} // namespace fabric
