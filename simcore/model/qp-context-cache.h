/*
 * The NIC's on-chip QP-context cache (nic.qp_cache_entries): least recently used contexts are
 * evicted; a send whose context is not cached must fetch it over PCIe first (qp_cache_miss_ns),
 * which stalls the NIC's transmit pipeline. Unlimited (0 entries) costs nothing per packet.
 */
#ifndef FABRIC_QP_CONTEXT_CACHE_H
#define FABRIC_QP_CONTEXT_CACHE_H

#include <cstdint>
#include <list>
#include <unordered_map>
#include <unordered_set>

namespace fabric
{

class QpContextCache
{
  public:
    void SetCapacity(uint32_t entries) { m_capacity = entries; }
    bool Limited() const { return m_capacity > 0; }

    /** Looks key up and makes it the most recently used; false (a miss) if it had to load. */
    bool Touch(uint64_t key)
    {
        auto it = m_where.find(key);
        if (it != m_where.end())
        {
            m_lru.splice(m_lru.begin(), m_lru, it->second);
            return true;
        }
        ++m_misses;
        if (m_lru.size() >= m_capacity)
        {
            m_where.erase(m_lru.back());
            m_lru.pop_back();
        }
        m_lru.push_front(key);
        m_where[key] = m_lru.begin();
        return false;
    }

    uint64_t Misses() const { return m_misses; }

  private:
    uint32_t m_capacity = 0;
    uint64_t m_misses = 0;
    std::list<uint64_t> m_lru; ///< most recently used first
    std::unordered_map<uint64_t, std::list<uint64_t>::iterator> m_where;
};

} // namespace fabric

#endif
