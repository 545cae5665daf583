#include "model/fast-heap-scheduler.h"

#include "ns3/nstime.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <new>

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
    m_capacity = 1021; // + 3 leading pad elements = 16 KiB
    m_block = std::aligned_alloc(64, (m_capacity + 3) * sizeof(Key));
    if (!m_block)
    {
        throw std::bad_alloc();
    }
    m_heap = static_cast<Key*>(m_block) + 3;
    m_slots.reserve(1024);
    m_freeSlots.reserve(1024);
}

FastHeapScheduler::~FastHeapScheduler()
{
    if (t_active == this)
    {
        t_active = nullptr;
    }
    std::free(m_block);
}

void
FastHeapScheduler::Grow()
{
    size_t cap = m_capacity * 2 + 3; // keeps (cap + 3) a multiple of 4 elements (64 bytes)
    void* block = std::aligned_alloc(64, (cap + 3) * sizeof(Key));
    if (!block)
    {
        throw std::bad_alloc();
    }
    Key* heap = static_cast<Key*>(block) + 3;
    std::memcpy(static_cast<void*>(heap), m_heap, m_size * sizeof(Key));
    std::free(m_block);
    m_block = block;
    m_heap = heap;
    m_capacity = cap;
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
    SettleRoot();
    std::vector<std::pair<Key, Slot>> all;
    all.reserve(m_size);
    for (size_t i = 0; i < m_size; ++i)
    {
        all.emplace_back(m_heap[i], m_slots[SlotOf(m_heap[i])]);
    }
    m_size = 0;
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
    return m_size == 0; // with a vacant root m_size >= 2 (the vacancy and a real event)
}

ns3::Scheduler::Event
FastHeapScheduler::PeekNext() const
{
    const_cast<FastHeapScheduler*>(this)->SettleRoot();
    Key top = m_heap[0];
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
FastHeapScheduler::RemoveAt(size_t i)
{
    Key last = m_heap[--m_size];
    if (i == m_size)
    {
        return;
    }
    if (i > 0 && last < m_heap[(i - 1) >> 2])
    {
        SiftUp(i, last);
        return;
    }
    FillVacancy(i, last);
}

void
FastHeapScheduler::FillVacancy(size_t i, Key last)
{
    size_t n = m_size;
    // Bottom-up: move the hole down along the smallest children to a leaf (3 comparisons per
    // level, no comparison with the moved element), then sift the last element up from there;
    // it came from the bottom, so it rarely climbs.
    size_t hole = i;
    while (true)
    {
        size_t c = 4 * hole + 1;
        if (c + 4 <= n)
        {
            // Index arithmetic on comparison results instead of branches: which child is
            // smallest is a coin toss, so branches here would mispredict half the time.
            size_t a = c + static_cast<size_t>(m_heap[c + 1] < m_heap[c]);
            size_t b = c + 2 + static_cast<size_t>(m_heap[c + 3] < m_heap[c + 2]);
            size_t pickB = static_cast<size_t>(m_heap[b] < m_heap[a]);
            size_t best = a + ((b - a) & (0 - pickB));
            m_heap[hole] = m_heap[best];
            hole = best;
            continue;
        }
        if (c >= n)
        {
            break;
        }
        size_t best = c;
        for (size_t j = c + 1; j < n; ++j)
        {
            if (m_heap[j] < m_heap[best])
            {
                best = j;
            }
        }
        m_heap[hole] = m_heap[best];
        hole = best;
    }
    // Sift up from the leaf, but not above i (everything above i is already smaller).
    while (hole > i)
    {
        size_t parent = (hole - 1) >> 2;
        Key pk = m_heap[parent];
        if (!(last < pk))
        {
            break;
        }
        m_heap[hole] = pk;
        hole = parent;
    }
    m_heap[hole] = last;
}

void
FastHeapScheduler::Remove(const Event& ev)
{
    // Rare (Simulator::Remove): linear search. Events of the direct lane may share a uid with
    // one the simulator handed out, so the event pointer and time must match too.
    SettleRoot();
    for (size_t i = 0; i < m_size; ++i)
    {
        Key k = m_heap[i];
        const Slot& s = m_slots[SlotOf(k)];
        if (s.uid == ev.key.m_uid && s.impl == ev.impl && TsOf(k) == ClampTs(ev.key.m_ts))
        {
            RemoveAt(i);
            m_freeSlots.push_back(SlotOf(k));
            return;
        }
    }
}

} // namespace fabric
