#include "flow/share-queue.h"

namespace fabric
{
namespace flow
{

namespace
{

/** At most this many links: a scanned list; more: a heap. */
constexpr uint32_t kScanLinks = 128;

} // namespace

void
ShareQueue::Reset(uint32_t count)
{
    m_scan = count <= kScanLinks;
    m_share.resize(count);
    m_pos.assign(count, kNone);
    m_heap.clear();
    m_live.clear();
}

bool
ShareQueue::Less(uint32_t a, uint32_t b) const
{
    return m_share[a] < m_share[b] || (m_share[a] == m_share[b] && a < b);
}

void
ShareQueue::SiftUp(uint32_t pos)
{
    uint32_t j = m_heap[pos];
    while (pos > 0)
    {
        uint32_t parent = (pos - 1) / 2;
        if (!Less(j, m_heap[parent]))
        {
            break;
        }
        m_heap[pos] = m_heap[parent];
        m_pos[m_heap[pos]] = pos;
        pos = parent;
    }
    m_heap[pos] = j;
    m_pos[j] = pos;
}

void
ShareQueue::SiftDown(uint32_t pos)
{
    uint32_t j = m_heap[pos];
    auto size = static_cast<uint32_t>(m_heap.size());
    for (;;)
    {
        uint32_t child = 2 * pos + 1;
        if (child >= size)
        {
            break;
        }
        if (child + 1 < size && Less(m_heap[child + 1], m_heap[child]))
        {
            ++child;
        }
        if (!Less(m_heap[child], j))
        {
            break;
        }
        m_heap[pos] = m_heap[child];
        m_pos[m_heap[pos]] = pos;
        pos = child;
    }
    m_heap[pos] = j;
    m_pos[j] = pos;
}

void
ShareQueue::Set(uint32_t link, double share)
{
    m_share[link] = share;
    if (m_scan)
    {
        if (m_pos[link] == kNone)
        {
            m_pos[link] = static_cast<uint32_t>(m_live.size());
            m_live.push_back(link);
        }
        return;
    }
    if (m_pos[link] == kNone)
    {
        m_heap.push_back(link);
        SiftUp(static_cast<uint32_t>(m_heap.size() - 1));
        return;
    }
    SiftUp(m_pos[link]);
    SiftDown(m_pos[link]);
}

void
ShareQueue::Remove(uint32_t link)
{
    uint32_t pos = m_pos[link];
    if (pos == kNone)
    {
        return;
    }
    m_pos[link] = kNone;
    std::vector<uint32_t>& list = m_scan ? m_live : m_heap;
    uint32_t last = list.back();
    list.pop_back();
    if (last == link)
    {
        return;
    }
    list[pos] = last;
    m_pos[last] = pos;
    if (!m_scan)
    {
        SiftUp(pos);
        SiftDown(m_pos[last]);
    }
}

uint32_t
ShareQueue::Least() const
{
    if (!m_scan)
    {
        return m_heap.empty() ? kNone : m_heap.front();
    }
    uint32_t least = kNone;
    for (uint32_t j : m_live)
    {
        if (least == kNone || Less(j, least))
        {
            least = j;
        }
    }
    return least;
}

} // namespace flow
} // namespace fabric
