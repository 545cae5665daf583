/*
 * A FIFO ring buffer (of RocePackets, or frames in flight) that allocates only when first used and grows by doubling,
 * so idle queues cost no heap and busy ones allocate nothing per packet.
 */
#ifndef FABRIC_PACKET_QUEUE_H
#define FABRIC_PACKET_QUEUE_H

#include "model/roce-packet.h"

#include <cstddef>
#include <cstdint>
#include <memory>

namespace fabric
{

template <typename T>
class RingQueue
{
  public:
    RingQueue() = default;
    RingQueue(const RingQueue& o)
    {
        *this = o;
    }
    RingQueue(RingQueue&& o) noexcept
        : m_buf(std::move(o.m_buf)),
          m_mask(o.m_mask),
          m_head(o.m_head),
          m_count(o.m_count)
    {
        o.m_mask = o.m_head = o.m_count = 0;
    }
    RingQueue& operator=(const RingQueue& o)
    {
        if (this != &o)
        {
            m_buf.reset();
            m_mask = m_head = m_count = 0;
            o.ForEach([this](const T& x) { Push(x); });
        }
        return *this;
    }
    RingQueue& operator=(RingQueue&& o) noexcept
    {
        m_buf = std::move(o.m_buf);
        m_mask = o.m_mask;
        m_head = o.m_head;
        m_count = o.m_count;
        o.m_mask = o.m_head = o.m_count = 0;
        return *this;
    }

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
        if (m_count == Capacity())
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

    /** Fetches the line the next Push writes (a prefetch's hint; nothing when unallocated). */
    void PrefetchTail() const
    {
        if (m_buf)
        {
            __builtin_prefetch(&m_buf[(m_head + m_count) & m_mask], 1);
        }
    }

    T Pop()
    {
        T p = m_buf[m_head];
        --m_count;
        // An emptied ring starts again at its first element: a queue or link that is mostly
        // empty keeps reusing one cache line instead of walking its whole buffer.
        m_head = m_count != 0 ? (m_head + 1) & m_mask : 0;
        return p;
    }

  private:
    uint32_t Capacity() const
    {
        return m_buf ? m_mask + 1 : 0;
    }

    void Grow()
    {
        uint32_t oldSize = Capacity();
        uint32_t newSize = oldSize == 0 ? 16 : oldSize * 2;
        std::unique_ptr<T[]> nb(new T[newSize]);
        for (uint32_t i = 0; i < m_count; ++i)
        {
            nb[i] = m_buf[(m_head + i) & m_mask];
        }
        m_buf = std::move(nb);
        m_head = 0;
        m_mask = newSize - 1;
    }

    // 24 bytes: a port's per-frame fields and a switch queue's statistics share its cache line.
    std::unique_ptr<T[]> m_buf; ///< 0 or a power of two elements
    uint32_t m_mask = 0;        ///< capacity - 1 once allocated
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
