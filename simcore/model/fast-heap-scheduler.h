/*
 * An ns-3 event scheduler for the fabric model: a 4-ary min-heap in one contiguous vector,
 * moving a hole instead of swapping. Chosen through ns-3's pluggable Scheduler TypeId.
 */
#ifndef FABRIC_FAST_HEAP_SCHEDULER_H
#define FABRIC_FAST_HEAP_SCHEDULER_H

#include "ns3/scheduler.h"

#include <vector>

namespace fabric
{

class FastHeapScheduler : public ns3::Scheduler
{
  public:
    static ns3::TypeId GetTypeId();
    FastHeapScheduler();
    ~FastHeapScheduler() override;

    void Insert(const Event& ev) override;
    bool IsEmpty() const override;
    Event PeekNext() const override;
    Event RemoveNext() override;
    void Remove(const Event& ev) override;

  private:
    static bool Less(const Event& a, const Event& b)
    {
        return a.key.m_ts < b.key.m_ts || (a.key.m_ts == b.key.m_ts && a.key.m_uid < b.key.m_uid);
    }

    void SiftUp(size_t i, Event ev);
    void SiftDown(size_t i, Event ev);

    std::vector<Event> m_heap;
};

} // namespace fabric

#endif
