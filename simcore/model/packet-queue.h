/*
 * A FIFO ring buffer of RocePackets that allocates only when first used and grows by doubling,
 * so idle queues cost no heap and busy ones allocate nothing per packet.
 */
#ifndef FABRIC_PACKET_QUEUE_H
#define FABRIC_PACKET_QUEUE_H

#include "model/roce-packet.h"

#include <cstddef>
#include <vector>

namespace fabric
{

class PacketQueue
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

    void Push(const RocePacket& p)
    {
        if (m_count == m_buf.size())
        {
            Grow();
        }
        m_buf[(m_head + m_count) & (m_buf.size() - 1)] = p;
        ++m_count;
    }

    const RocePacket& Front() const
    {
        return m_buf[m_head];
    }

    RocePacket Pop()
    {
        RocePacket p = m_buf[m_head];
        m_head = (m_head + 1) & (m_buf.size() - 1);
        --m_count;
        return p;
    }

  private:
    void Grow()
    {
        size_t newSize = m_buf.empty() ? 16 : m_buf.size() * 2;
        std::vector<RocePacket> nb(newSize);
        for (size_t i = 0; i < m_count; ++i)
        {
            nb[i] = m_buf[(m_head + i) & (m_buf.size() - 1)];
        }
        m_buf.swap(nb);
        m_head = 0;
    }

    std::vector<RocePacket> m_buf; ///< size is 0 or a power of two
    size_t m_head = 0;
    size_t m_count = 0;
};

} // namespace fabric

#endif
