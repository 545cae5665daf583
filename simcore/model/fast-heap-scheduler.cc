#include "model/fast-heap-scheduler.h"

#include "ns3/nstime.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <iterator>

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
    if (t_active)
    {
        // Replacing a running scheduler (Simulator::SetScheduler moves its events here): carry
        // the current time over.
        m_nowTs = t_active->m_nowTs;
        m_nowContext = t_active->m_nowContext;
        m_lastUid = t_active->m_lastUid;
    }
    // The direct lane and NowTs() assume the model's picosecond time steps.
    t_active = ns3::Time::GetResolution() == ns3::Time::PS ? this : nullptr;
    m_slots.reserve(1024);
    m_freeSlots.reserve(1024);
}

FastHeapScheduler::~FastHeapScheduler()
{
    if (t_active == this)
    {
        t_active = nullptr;
    }
}

void
FastHeapScheduler::TooManyEvents()
{
    throw std::length_error("more than 16,777,216 events pending in one partition");
}

void
FastHeapScheduler::CrossPartition(uint32_t owner)
{
    // A model event touched a node of another partition without a link between them: a bug
    // the parallel engine must not hide (results would depend on the partitioning).
    std::fprintf(stderr, "fabricsim: internal error: an event for node %u scheduled across "
                         "partitions inside a window, sooner than the window's end\n", owner);
    std::abort();
}

void
FastHeapScheduler::Defer(uint64_t ts, uint64_t tie, const Slot& s)
{
    unsigned __int128 order = Order(ts, Mixed(ClampTs(ts), tie));
    if (order < s_windowEnd)
    {
        CrossPartition(s.context);
    }
    m_outbox.emplace_back(order, s);
}

void
FastHeapScheduler::FlushOutbox()
{
    for (const auto& [order, slot] : m_outbox)
    {
        s_route[slot.context < kGlobalSource ? slot.context : kGlobalSource]->PushOrder(order,
                                                                                        slot);
    }
    m_outbox.clear();
}

void
FastHeapScheduler::Distribute()
{
    std::vector<std::pair<Key, Slot>> all;
    all.reserve(m_queue.Size());
    m_queue.ForEach([&](Key k) { all.emplace_back(k, m_slots[SlotOf(k)]); });
    m_queue.Clear();
    m_slots.clear();
    m_freeSlots.clear();
    for (const auto& [k, slot] : all)
    {
        uint32_t owner = slot.context;
        FastHeapScheduler* t =
            s_route ? s_route[owner < kGlobalSource ? owner : kGlobalSource] : this;
        t->PushOrder(k >> kSlotBits, slot);
    }
}

void
FastHeapScheduler::ResetKeys()
{
    // A process's first simulation finds the counts zero (static storage) and leaves them
    // untouched: a child of `fabricsim batch` would otherwise fault in all 512 KB of them.
    if (s_seqUsed)
    {
        std::fill(std::begin(s_seq), std::end(s_seq), 0);
    }
    s_seqUsed = true;
}

void
FastHeapScheduler::Insert(const Event& ev)
{
    InsertEvent(ev.key.m_ts, NextKey(m_nowContext), ev.impl, ev.key.m_uid, ev.key.m_context);
}

bool
FastHeapScheduler::IsEmpty() const
{
    return m_queue.Empty();
}

ns3::Scheduler::Event
FastHeapScheduler::PeekNext() const
{
    Key top = const_cast<FastHeapScheduler*>(this)->m_queue.Top();
    const Slot& s = m_slots[SlotOf(top)];
    Event ev;
    ev.impl = IsHandler(s.impl) ? nullptr : Untagged(s.impl); // no EventImpl for a handler
    ev.key.m_ts = TsOf(top);
    ev.key.m_uid = s.uid;
    ev.key.m_context = s.context;
    return ev;
}

namespace
{
/** A handler-lane event handed out through ns-3's Scheduler interface (rare: not the run loop). */
class HandlerEvent : public ns3::EventImpl
{
  public:
    HandlerEvent(FastHeapScheduler::Handler h, void* obj, uint32_t arg)
        : m_h(h),
          m_obj(obj),
          m_arg(arg)
    {
    }

  protected:
    void Notify() override
    {
        m_h(m_obj, m_arg);
    }

  private:
    FastHeapScheduler::Handler m_h;
    void* m_obj;
    uint32_t m_arg;
};
} // namespace

ns3::Scheduler::Event
FastHeapScheduler::RemoveNext()
{
    // Through ns-3's interface (disposal, a scheduler replaced): a handler-lane event becomes an
    // EventImpl of its own, which the caller runs or releases like any other.
    bool direct;
    return RemoveNext(direct);
}

ns3::Scheduler::Event
FastHeapScheduler::RemoveNext(bool& direct)
{
    Taken t = TakeNext();
    Event ev;
    ev.key.m_ts = t.ts;
    ev.key.m_context = t.context;
    if (IsHandler(t.tagged))
    {
        direct = false;
        ev.key.m_uid = 0;
        ev.impl = new HandlerEvent(HandlerOf(t.tagged), HandlerObj(t.tagged), t.uid);
        return ev;
    }
    direct = IsTagged(t.tagged);
    ev.impl = Untagged(t.tagged);
    ev.key.m_uid = t.uid;
    return ev;
}

void
FastHeapScheduler::Remove(const Event& ev)
{
    // Rare (Simulator::Remove): linear search. Events of the direct lane may share a uid with
    // one the simulator handed out, so the event pointer and time must match too.
    Key found = 0;
    bool removed = m_queue.RemoveIf([&](Key k) {
        const Slot& s = m_slots[SlotOf(k)];
        if (s.uid == ev.key.m_uid && s.impl == ev.impl && TsOf(k) == ClampTs(ev.key.m_ts))
        {
            found = k;
            return true;
        }
        return false;
    });
    if (removed)
    {
        m_freeSlots.push_back(SlotOf(found));
    }
}

} // namespace fabric
