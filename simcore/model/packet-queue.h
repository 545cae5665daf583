/*
 * A FIFO ring buffer (of RocePackets, or frames in flight) that allocates only when first used and grows by doubling,
 * so idle queues cost no heap and busy ones allocate nothing per packet.
 */
#ifndef FABRIC_PACKET_QUEUE_H
#define FABRIC_PACKET_QUEUE_H

#include "model/roce-packet.h"

#include <cstddef>
#include <vector>

namespace fabric
{

template <typename T>
class RingQueue
{
  public:
    bool Empty() const
    {
        return m_count == 0;
    }

    size_t Size() const
    {
        return m_count;
    }

    // Always inline: one store on the per-packet path (callers that grew past GCC's
    // inlining budget had started calling it).
    __attribute__((always_inline)) void Push(const T& p)
    {
        if (m_count == m_buf.size())
        {
            Grow();
        }
        m_buf[(m_head + m_count) & m_mask] = p;
        ++m_count;
    }

    const T& Front() const
    {
        return m_buf[m_head];
    }

    /** Calls f on every element, oldest first (for end-of-run accounting, not the hot path). */
    template <typename F>
    void ForEach(F f) const
    {
        for (size_t i = 0; i < m_count; ++i)
        {
            f(m_buf[(m_head + i) & m_mask]);
        }
    }

    T Pop()
    {
        T p = m_buf[m_head];
        m_head = (m_head + 1) & m_mask;
        --m_count;
        return p;
    }

  private:
    void Grow()
    {
        size_t newSize = m_buf.empty() ? 16 : m_buf.size() * 2;
        std::vector<T> nb(newSize);
        for (size_t i = 0; i < m_count; ++i)
        {
            nb[i] = m_buf[(m_head + i) & (m_buf.size() - 1)];
        }
        m_buf.swap(nb);
        m_head = 0;
        m_mask = static_cast<uint32_t>(newSize - 1);
    }

    std::vector<T> m_buf; ///< size is 0 or a power of two
    // 32-bit indices: a queue is 40 bytes, so a port's per-frame fields share cache lines.
    uint32_t m_mask = 0; ///< m_buf.size() - 1 once allocated
    uint32_t m_head = 0;
    uint32_t m_count = 0;
};

using PacketQueue = RingQueue<RocePacket>;

/** A frame on the wire and the time its last bit reaches the far end. */
struct InFlight
{
    int64_t arrivePs = 0;
    RocePacket pkt;
};

} // namespace fabric

#endif
