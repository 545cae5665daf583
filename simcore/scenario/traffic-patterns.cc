#include "traffic-patterns.h"

#include "topology-queries.h"

#include <algorithm>
#include <map>

namespace fabric
{

std::vector<std::pair<uint32_t, uint32_t>>
StridePairs(const std::vector<uint32_t>& hosts, uint64_t stride)
{
    std::vector<std::pair<uint32_t, uint32_t>> pairs;
    std::size_t n = hosts.size();
    if (n == 0 || stride % n == 0)
    {
        return pairs;
    }
    for (std::size_t i = 0; i < n; ++i)
    {
        pairs.emplace_back(hosts[i], hosts[(i + stride) % n]);
    }
    return pairs;
}

std::vector<std::string>
HostPods(const Topology& topo, const std::vector<uint32_t>& hosts)
{
    std::vector<uint32_t> attachment = HostAttachments(topo);
    std::vector<std::string> pods;
    for (uint32_t h : hosts)
    {
        uint32_t sw = h < attachment.size() ? attachment[h] : kNoNode;
        if (sw == kNoNode || sw >= topo.nodes.size())
        {
            pods.push_back(topo.nodes[h].id);
        }
        else
        {
            const NodeSpec& s = topo.nodes[sw];
            pods.push_back(s.group.empty() ? s.id : s.group);
        }
    }
    return pods;
}

std::size_t
LargestPod(const std::vector<std::string>& pods)
{
    std::map<std::string, std::size_t> count;
    std::size_t largest = 0;
    for (const auto& p : pods)
    {
        largest = std::max(largest, ++count[p]);
    }
    return largest;
}

std::vector<std::size_t>
InterPodPermutation(const std::vector<std::string>& pods,
                    const std::function<uint32_t(uint32_t)>& uniform)
{
    std::size_t n = pods.size();
    std::vector<std::size_t> dst(n);
    if (n < 2)
    {
        return dst;
    }
    // Pods in a random order, hosts shuffled inside each: a ring where every pod is contiguous.
    std::map<std::string, std::vector<std::size_t>> byPod;
    for (std::size_t i = 0; i < n; ++i)
    {
        byPod[pods[i]].push_back(i);
    }
    std::vector<std::vector<std::size_t>> groups;
    for (auto& entry : byPod)
    {
        groups.push_back(std::move(entry.second));
    }
    for (std::size_t i = groups.size() - 1; i > 0; --i)
    {
        std::swap(groups[i], groups[uniform(static_cast<uint32_t>(i))]);
    }
    std::vector<std::size_t> ring;
    std::size_t largest = 0;
    for (auto& g : groups)
    {
        for (std::size_t i = g.size() - 1; i > 0; --i)
        {
            std::swap(g[i], g[uniform(static_cast<uint32_t>(i))]);
        }
        largest = std::max(largest, g.size());
        ring.insert(ring.end(), g.begin(), g.end());
    }
    // A pod is a block of at most `largest` <= n/2 positions: moving `shift` >= largest positions
    // along the ring, and less than n - largest + 1, always leaves the block.
    std::size_t shift = std::max(largest, n / 2);
    for (std::size_t i = 0; i < n; ++i)
    {
        dst[ring[i]] = ring[(i + shift) % n];
    }
    // Random swaps of two destinations that keep both senders out of their own pod.
    for (std::size_t step = 0; step < 8 * n; ++step)
    {
        std::size_t a = uniform(static_cast<uint32_t>(n - 1));
        std::size_t b = uniform(static_cast<uint32_t>(n - 1));
        if (a != b && pods[a] != pods[dst[b]] && pods[b] != pods[dst[a]])
        {
            std::swap(dst[a], dst[b]);
        }
    }
    return dst;
}

} // namespace fabric
