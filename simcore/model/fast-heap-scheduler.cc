#include "model/fast-heap-scheduler.h"

#include "ns3/event-impl.h"

namespace fabric
{

NS_OBJECT_ENSURE_REGISTERED(FastHeapScheduler);

ns3::TypeId
FastHeapScheduler::GetTypeId()
{
    static ns3::TypeId tid = ns3::TypeId("fabric::FastHeapScheduler")
                                 .SetParent<ns3::Scheduler>()
                                 .SetGroupName("Fabric")
                                 .AddConstructor<FastHeapScheduler>();
    return tid;
}

FastHeapScheduler::FastHeapScheduler()
{
    m_heap.reserve(1024);
}

FastHeapScheduler::~FastHeapScheduler() = default;

void
FastHeapScheduler::SiftUp(size_t i, Event ev)
{
    while (i > 0)
    {
        size_t parent = (i - 1) / 4;
        if (!Less(ev, m_heap[parent]))
        {
            break;
        }
        m_heap[i] = m_heap[parent];
        i = parent;
    }
    m_heap[i] = ev;
}

void
FastHeapScheduler::SiftDown(size_t i, Event ev)
{
    size_t n = m_heap.size();
    while (true)
    {
        size_t first = 4 * i + 1;
        if (first >= n)
        {
            break;
        }
        size_t best = first;
        size_t last = first + 4 < n ? first + 4 : n;
        for (size_t c = first + 1; c < last; ++c)
        {
            if (Less(m_heap[c], m_heap[best]))
            {
                best = c;
            }
        }
        if (!Less(m_heap[best], ev))
        {
            break;
        }
        m_heap[i] = m_heap[best];
        i = best;
    }
    m_heap[i] = ev;
}

void
FastHeapScheduler::Insert(const Event& ev)
{
    m_heap.emplace_back();
    SiftUp(m_heap.size() - 1, ev);
}

bool
FastHeapScheduler::IsEmpty() const
{
    return m_heap.empty();
}

ns3::Scheduler::Event
FastHeapScheduler::PeekNext() const
{
    return m_heap.front();
}

ns3::Scheduler::Event
FastHeapScheduler::RemoveNext()
{
    Event top = m_heap.front();
    Event last = m_heap.back();
    m_heap.pop_back();
    if (!m_heap.empty())
    {
        SiftDown(0, last);
    }
    return top;
}

void
FastHeapScheduler::Remove(const Event& ev)
{
    // Rare (Simulator::Remove): linear search, then restore the heap around the hole.
    for (size_t i = 0; i < m_heap.size(); ++i)
    {
        if (m_heap[i].key.m_uid == ev.key.m_uid)
        {
            Event last = m_heap.back();
            m_heap.pop_back();
            if (i < m_heap.size())
            {
                if (i > 0 && Less(last, m_heap[(i - 1) / 4]))
                {
                    SiftUp(i, last);
                }
                else
                {
                    SiftDown(i, last);
                }
            }
            return;
        }
    }
}

} // namespace fabric
