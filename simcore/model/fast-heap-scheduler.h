/*
 * An ns-3 event scheduler for the fabric model: a 4-ary min-heap of 16-byte keys in one
 * cache-line-aligned array, with a "direct" lane that lets the model's own per-packet events skip
 * Simulator::Schedule (no EventImpl allocation, no EventId). Chosen through ns-3's pluggable
 * Scheduler TypeId; docs/model.md ("Engine") explains why results stay identical.
 */
#ifndef FABRIC_FAST_HEAP_SCHEDULER_H
#define FABRIC_FAST_HEAP_SCHEDULER_H

#include "ns3/event-impl.h"
#include "ns3/scheduler.h"

#include <cstdint>
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

    /**
     * RemoveNext for FabricSimulatorImpl's loop (a direct call, not a virtual one); direct tells
     * whether the event came through InsertDirect (such events are never cancelled: no EventId
     * names them).
     */
    Event RemoveNext(bool& direct);
    /** IsEmpty() without a virtual call. */
    bool Empty() const
    {
        return m_size == 0;
    }

    /**
     * The scheduler of the running simulation when it is a FastHeapScheduler and time runs in
     * picoseconds (the fabric model's resolution), else nullptr: callers then fall back to
     * ns3::Simulator.
     */
    static FastHeapScheduler* Active()
    {
        return s_active;
    }

    /**
     * Current simulation time in time steps: the time of the event being executed (the last one
     * removed), which is what ns-3's DefaultSimulatorImpl::Now() returns during an event.
     */
    int64_t NowTs() const
    {
        return static_cast<int64_t>(m_nowTs);
    }

    /**
     * Schedules impl delay time steps from now without going through Simulator::Schedule. The
     * event is ordered exactly as if Simulator::Schedule had been called here (same time,
     * insertion order among equal times) and is executed and counted by the simulator like any
     * other. impl is reference-counted: the simulator releases one reference after running it,
     * so this takes one.
     */
    void InsertDirect(int64_t delayTs, ns3::EventImpl* impl);

  private:
    /**
     * Heap key: time in the high 64 bits, then (insertion sequence << 32 | slot): one unsigned
     * 128-bit comparison orders by (time, insertion order) like ns-3's (m_ts, m_uid).
     */
    using Key = unsigned __int128;

    /**
     * What the heap does not need to compare: the event and ns-3's uid and context. impl has its
     * lowest bit set for an event of the direct lane (EventImpls are at least 8-byte aligned).
     */
    struct Slot
    {
        ns3::EventImpl* impl;
        uint32_t uid;
        uint32_t context;
    };

    static ns3::EventImpl* Tagged(ns3::EventImpl* impl)
    {
        return reinterpret_cast<ns3::EventImpl*>(reinterpret_cast<uintptr_t>(impl) | 1u);
    }

    static bool IsTagged(const ns3::EventImpl* impl)
    {
        return (reinterpret_cast<uintptr_t>(impl) & 1u) != 0;
    }

    static ns3::EventImpl* Untagged(ns3::EventImpl* impl)
    {
        return reinterpret_cast<ns3::EventImpl*>(reinterpret_cast<uintptr_t>(impl) &
                                                 ~static_cast<uintptr_t>(1));
    }

    static Key MakeKey(uint64_t ts, uint32_t seq, uint32_t slot)
    {
        return (static_cast<Key>(ts) << 64) | (static_cast<Key>(seq) << 32) | slot;
    }

    static uint32_t SlotOf(Key k)
    {
        return static_cast<uint32_t>(k);
    }

    static uint64_t TsOf(Key k)
    {
        return static_cast<uint64_t>(k >> 64);
    }

    void Push(uint64_t ts, const Slot& s);
    Event Take(Key top, bool& direct);
    void SiftUp(size_t i, Key k);
    /** Removes element i. */
    void RemoveAt(size_t i);
    /** Puts k into the vacant position i (k >= its parent): bottom-up, down to a leaf, then up. */
    void FillVacancy(size_t i, Key k);
    /** Fills a vacant root with the last element. */
    void SettleRoot();
    void Grow();
    void Renumber();

    static inline FastHeapScheduler* s_active = nullptr;

    Key* m_heap = nullptr;   ///< element i at m_heap[i]; m_heap + 1 is 64-byte aligned, so the
                             ///< four children 4i+1 .. 4i+4 of i share one cache line
    void* m_block = nullptr; ///< the allocation behind m_heap
    size_t m_size = 0;
    size_t m_capacity = 0;
    std::vector<Slot> m_slots;
    std::vector<uint32_t> m_freeSlots;
    bool m_rootVacant = false; ///< m_heap[0] is empty (counted in m_size), see RemoveNext
    uint32_t m_seq = 0;          ///< insertion counter (renumbered before it wraps)
    uint64_t m_nowTs = 0;        ///< time of the last event removed
    uint32_t m_nowContext = 0xffffffff; ///< context of the last event removed
    uint32_t m_lastUid = 0;      ///< uid of the last event the simulator inserted
};

inline void
FastHeapScheduler::SiftUp(size_t i, Key k)
{
    while (i > 0)
    {
        size_t parent = (i - 1) >> 2;
        Key pk = m_heap[parent];
        if (!(k < pk))
        {
            break;
        }
        m_heap[i] = pk;
        i = parent;
    }
    m_heap[i] = k;
}

inline void
FastHeapScheduler::SettleRoot()
{
    if (m_rootVacant)
    {
        m_rootVacant = false;
        RemoveAt(0);
    }
}

inline void
FastHeapScheduler::Push(uint64_t ts, const Slot& s)
{
    uint32_t slot;
    if (!m_freeSlots.empty())
    {
        slot = m_freeSlots.back();
        m_freeSlots.pop_back();
        m_slots[slot] = s;
    }
    else
    {
        slot = static_cast<uint32_t>(m_slots.size());
        m_slots.push_back(s);
    }
    if (m_seq == UINT32_MAX)
    {
        Renumber();
    }
    Key k = MakeKey(ts, m_seq++, slot);
    if (m_rootVacant)
    {
        // The event just run left the root empty: put the new one there and sift it down
        // (one pass instead of a removal pass plus an insertion pass).
        m_rootVacant = false;
        FillVacancy(0, k);
        return;
    }
    if (m_size == m_capacity)
    {
        Grow();
    }
    SiftUp(m_size++, k);
}

inline void
FastHeapScheduler::InsertDirect(int64_t delayTs, ns3::EventImpl* impl)
{
    impl->Ref();
    // uid: the last one the simulator handed out, so that while this event runs, EventId
    // IsExpired() answers for events of the same time exactly as before (inserted earlier =
    // already run); context: the current one, as Simulator::Schedule would use.
    Push(m_nowTs + static_cast<uint64_t>(delayTs), Slot{Tagged(impl), m_lastUid, m_nowContext});
}

inline ns3::Scheduler::Event
FastHeapScheduler::Take(Key k, bool& direct)
{
    uint32_t slot = SlotOf(k);
    const Slot& s = m_slots[slot];
    Event ev;
    direct = IsTagged(s.impl);
    ev.impl = Untagged(s.impl);
    ev.key.m_ts = TsOf(k);
    ev.key.m_uid = s.uid;
    ev.key.m_context = s.context;
    m_freeSlots.push_back(slot);
    return ev;
}

inline ns3::Scheduler::Event
FastHeapScheduler::RemoveNext(bool& direct)
{
    SettleRoot();
    Key top = m_heap[0];
    if (m_size == 1)
    {
        m_size = 0;
    }
    else
    {
        // Leave the root vacant: the event about to run usually schedules another one, which
        // then takes the root's place (see Push); anything else settles the heap first.
        m_rootVacant = true;
    }
    Event ev = Take(top, direct);
    m_nowTs = ev.key.m_ts;
    m_nowContext = ev.key.m_context;
    return ev;
}

} // namespace fabric

#endif
