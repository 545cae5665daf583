/*
 * An ns-3 event scheduler for the fabric model: 16-byte keys in a monotone radix queue
 * (model/radix-queue.h), with a "direct" lane that lets the model's own events skip
 * Simulator::Schedule (no EventImpl allocation, no EventId) and a "handler" lane for the per-port
 * events (a function called on an object: no event object at all). Chosen through ns-3's pluggable
 * Scheduler TypeId. Events at the same time run in an order that does not depend on how the
 * fabric is partitioned across threads: by the node that scheduled them, then that node's own
 * scheduling order (docs/model.md, "Engine"). One scheduler per partition in a parallel run.
 * On a large fabric the loop asks the next event (PrefetchNext), or the events the queue took
 * ahead stage by stage (PrefetchAhead), to fetch their memory while the current one runs.
 */
#ifndef FABRIC_FAST_HEAP_SCHEDULER_H
#define FABRIC_FAST_HEAP_SCHEDULER_H

#include "model/radix-queue.h"

#include "ns3/event-impl.h"
#include "ns3/scheduler.h"

#include <algorithm>
#include <cstdint>
#include <stdexcept>
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
        return m_queue.Empty();
    }

    /**
     * The scheduler of the running simulation when it is a FastHeapScheduler and time runs in
     * picoseconds (the fabric model's resolution), else nullptr: callers then fall back to
     * ns3::Simulator.
     */
    static FastHeapScheduler* Active()
    {
        return t_active;
    }

    /** Makes this the scheduler of the calling thread (a partition's worker in a parallel run). */
    void MakeActive()
    {
        t_active = this;
    }

    /** Context given to events scheduled outside any node (setup, the run's own events). */
    static constexpr uint32_t kGlobalSource = 0xffff;

    /**
     * Tie key of an event scheduled by node src (kGlobalSource for none): src, then src's own
     * count of events scheduled so far. Same for every partitioning of the fabric: a node's
     * events always run in the same order, whichever thread runs them.
     */
    static uint64_t NextKey(uint32_t context)
    {
        uint32_t src = context < kGlobalSource ? context : kGlobalSource;
        return (static_cast<uint64_t>(src) << kSeqBits) | s_seq[src]++;
    }

    /**
     * Tie key of the frames a node sends on one port (one link direction: its frames never
     * arrive at the same picosecond, and one arrival at most is pending): the sending node, then
     * a bit above any count NextKey reaches (2^43 events), then the port. An arrival is ordered
     * among events of the same picosecond by the node that sent the frame.
     */
    static uint64_t ArrivalKey(uint32_t node, uint32_t port)
    {
        uint32_t src = node < kGlobalSource ? node : kGlobalSource;
        return (static_cast<uint64_t>(src) << kSeqBits) | (uint64_t(1) << (kSeqBits - 1)) | port;
    }

    /** Starts every node's count again (a new simulation). */
    static void ResetKeys();

    /**
     * Parallel runs: route[node] is the scheduler of node's partition, route[kGlobalSource] the
     * run's own (global) events' one; nullptr for one partition. Set before the run starts.
     */
    static void SetRoutes(FastHeapScheduler** route)
    {
        s_route = route;
    }

    /** Moves every pending event whose owner routes to another scheduler there (keys kept). */
    void Distribute();

    /** The owner (context) of the next event; only when !Empty(). */
    uint32_t HeadContext()
    {
        return m_slots[SlotOf(m_queue.Top())].context;
    }

    /** Moves the next event, key kept, to the scheduler of its owner's partition. */
    void MoveHeadToOwner()
    {
        Key k = m_queue.Pop();
        Slot s = m_slots[SlotOf(k)];
        m_freeSlots.push_back(SlotOf(k));
        FastHeapScheduler* t = s_route[s.context < kGlobalSource ? s.context : kGlobalSource];
        t->PushOrder(k >> kSlotBits, s);
    }

    /** Next uid for an EventId (the scheduler's own count: no shared counter across threads). */
    uint32_t NextUid()
    {
        uint32_t u = m_nextUid++;
        if (m_nextUid == 0)
        {
            m_nextUid = 4; // past ns-3's reserved uids
        }
        return u;
    }

    /** Marks the calling thread as running a window of its partition (no cross inserts). */
    static void SetInWindow(bool in)
    {
        t_inWindow = in;
    }

    /**
     * The order (PeekOrder's form) the current window ends at: an event a partition schedules
     * inside the window for a node of another partition must be ordered at or after it (it is
     * handed over at the window's end, FlushOutbox); one ordered before it is an internal error.
     */
    static void SetWindowEnd(unsigned __int128 end)
    {
        s_windowEnd = end;
    }

    /**
     * Hands the events this partition scheduled for other partitions during the last window to
     * their schedulers, keys kept (the main thread, while no partition runs).
     */
    void FlushOutbox();

    /** The context owning events scheduled by the event now running (ns-3's GetContext()). */
    uint32_t NowContext() const
    {
        return m_nowContext;
    }

    /** Time of the next event (the smallest key's time); only when !Empty(). */
    uint64_t PeekTs()
    {
        return TsOf(m_queue.Top());
    }

    /** Time and tie key of the next event; only when !Empty(). */
    unsigned __int128 PeekOrder()
    {
        return m_queue.Top() >> kSlotBits;
    }

    /** Builds the order value PeekOrder() compares against: (ts, tie key). */
    static unsigned __int128 Order(uint64_t ts, uint64_t tie)
    {
        return (static_cast<unsigned __int128>(ClampTs(ts)) << (kSrcBits + kSeqBits)) | tie;
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
    /** InsertDirect for an event owned by node owner (its context while it runs). */
    void InsertDirect(int64_t delayTs, ns3::EventImpl* impl, uint32_t owner);
    /**
     * Inserts a direct-lane event at absolute time ts with a tie key made earlier by NextKey
     * (a frame's arrival carries the key its sender gave it when it started transmission).
     */
    void InsertKeyed(uint64_t ts, uint64_t tie, ns3::EventImpl* impl, uint32_t owner);
    /** Insert() with the owner and the tie key given (the simulator's generic path). */
    void InsertEvent(uint64_t ts, uint64_t tie, ns3::EventImpl* impl, uint32_t uid, uint32_t owner);

    /**
     * The handler lane: an event that is a plain call handler(obj, arg), with no EventImpl to
     * load when it runs (the model's per-port events: a frame's arrival, a transmission's end).
     * On a large fabric the event object was one more cache miss per event (docs/benchmarks.md).
     */
    using Handler = void (*)(void* obj, uint32_t arg);
    static constexpr uint32_t kMaxHandlers = 4;
    /** Sets the handler of index i (0 .. kMaxHandlers-1: fixed indices, known when compiling). */
    static bool SetHandler(uint32_t i, Handler h)
    {
        s_handlers[i & (kMaxHandlers - 1)] = h;
        return true;
    }
    /**
     * What a handler's event will read, asked for ahead of time in stages: stage 0 when the
     * event is several events away, stage 1 at the next one, and so on until it runs, so that
     * each stage can read what the one before fetched and fetch what comes after it (a frame's
     * link, then the frame, then the switch's route for it, ...). On a fabric larger than the
     * caches the misses of the events ahead then overlap the work of the running one instead of
     * following each other. A hint only: it must read valid memory and change no state.
     */
    using Prefetcher = void (*)(const void* obj, uint32_t arg, uint32_t stage);
    /** Sets the prefetcher of handler i, which has stages stages (0 .. stages-1). */
    static bool SetPrefetcher(uint32_t i, Prefetcher p, uint32_t stages)
    {
        s_prefetchers[i & (kMaxHandlers - 1)] = p;
        s_stagesOf[i & (kMaxHandlers - 1)] = stages;
        s_prefetchStages = std::max(s_prefetchStages, stages);
        return true;
    }
    /**
     * The one-event form: what a handler's event reads first, fetched while the event before it
     * runs (PrefetchNext). Cheaper per event than the stages; enough where the fabric's state
     * only just outgrows the caches.
     */
    using NextPrefetcher = void (*)(const void* obj, uint32_t arg);
    static bool SetNextPrefetcher(uint32_t i, NextPrefetcher p)
    {
        s_nextPrefetchers[i & (kMaxHandlers - 1)] = p;
        return true;
    }
    /** Calls the next event's NextPrefetcher (a handler-lane event's); after TakeNext. */
    void PrefetchNext()
    {
        if (m_queue.Empty())
        {
            return;
        }
        const Slot& s = m_slots[SlotOf(m_queue.Top())];
        if (IsHandler(s.impl))
        {
            NextPrefetcher p =
                s_nextPrefetchers[(reinterpret_cast<uintptr_t>(s.impl) >> 2) & (kMaxHandlers - 1)];
            if (p != nullptr)
            {
                p(HandlerObj(s.impl), s.uid);
            }
        }
    }
    /**
     * Whether to keep events taken ahead of the next one for PrefetchAhead (as many as the
     * prefetchers have stages, plus one). Changes no order. Worth it once the fabric's state
     * outgrows the caches (docs/model.md, "Engine").
     */
    void SetLookahead(bool on)
    {
        m_queue.SetLookahead(on ? s_prefetchStages + 1 : 0);
    }
    /**
     * Asks the events taken ahead to fetch what they will read (after TakeNext): the furthest
     * has its slot fetched; a prefetcher of S stages gets stage S-1 at the next event, S-2 at
     * the one after, ..., stage 0 S events ahead.
     */
    void PrefetchAhead()
    {
        unsigned n = m_queue.AheadCount();
        if (n == 0)
        {
            return;
        }
        __builtin_prefetch(&m_slots[SlotOf(m_queue.Ahead(n - 1))]);
        unsigned last = n - 1 < s_prefetchStages ? n - 1 : s_prefetchStages;
        for (unsigned i = 0; i < last; ++i)
        {
            const Slot& s = m_slots[SlotOf(m_queue.Ahead(i))];
            if (IsHandler(s.impl))
            {
                uint32_t h = (reinterpret_cast<uintptr_t>(s.impl) >> 2) & (kMaxHandlers - 1);
                if (s_prefetchers[h] != nullptr && i < s_stagesOf[h])
                {
                    s_prefetchers[h](HandlerObj(s.impl), s.uid, s_stagesOf[h] - 1 - i);
                }
            }
        }
    }
    /** A handler-lane event at absolute time ts with tie key tie; obj is 16-byte aligned. */
    void InsertHandler(uint64_t ts, uint64_t tie, uint32_t handler, void* obj, uint32_t arg,
                       uint32_t owner);
    /** A handler-lane event delayTs from now, keyed like InsertDirect. */
    void InsertHandlerIn(int64_t delayTs, uint32_t handler, void* obj, uint32_t arg,
                         uint32_t owner);

    /**
     * The next event as the fabric's loops take it: its time and its slot as stored (tagged
     * pointer, uid or a handler's arg, context). Run it with Untagged/IsTagged or CallHandler.
     */
    struct Taken
    {
        uint64_t ts;
        ns3::EventImpl* tagged;
        uint32_t uid;
        uint32_t context;
    };
    /** Removes the next event for FabricSimulatorImpl's loops (handler-lane events not wrapped). */
    Taken TakeNext();
    /** TakeNext when !AheadMode() (a loop that checked once). */
    Taken TakeNextPlain();
    /** Whether events are or may be taken ahead (SetLookahead). */
    bool AheadMode() const
    {
        return m_queue.AheadMode();
    }

    static bool IsHandler(const ns3::EventImpl* tagged)
    {
        return (reinterpret_cast<uintptr_t>(tagged) & 2u) != 0;
    }

    /** Runs a handler-lane event: its handler on its object, with arg (the slot's uid field). */
    static void CallHandler(const ns3::EventImpl* tagged, uint32_t arg)
    {
        HandlerOf(tagged)(HandlerObj(tagged), arg);
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

  private:
    /**
     * Queue key, one unsigned 128-bit value: time (44 bits of picoseconds: 17.5 s, past any
     * run's end), then the tie key (scheduling node 16 bits, its sequence 44 bits), then the
     * slot (24 bits) that holds the event.
     */
    using Key = unsigned __int128;
    static constexpr unsigned kSlotBits = 24;
    static constexpr unsigned kSeqBits = 44;
    static constexpr unsigned kSrcBits = 16;
    static constexpr uint64_t kMaxTs = (uint64_t(1) << 44) - 1;
    static constexpr uint32_t kMaxSlots = uint32_t(1) << kSlotBits;

    /**
     * The tie key as the heap compares it: the scheduling node's id XOR a 15-bit mask drawn from
     * the time (a bijection for each picosecond), so that among frames of different nodes
     * arriving at the same picosecond no node is always first (with ids in a fixed order,
     * synchronised senders would always queue in id order). Node ids are below 2^15, the run's
     * own source 0xffff stays above them, and one node's events keep their order.
     */
    static uint64_t Mixed(uint64_t ts, uint64_t tie)
    {
        return tie ^ (((ts * 0x9E3779B97F4A7C15ULL) >> 49) << kSeqBits);
    }

    static unsigned __int128 UnclampedOrder(uint64_t ts, uint64_t tie)
    {
        return (static_cast<unsigned __int128>(ts) << (kSrcBits + kSeqBits)) | tie;
    }

    static uint64_t ClampTs(uint64_t ts)
    {
        return ts < kMaxTs ? ts : kMaxTs;
    }

    /**
     * What the heap does not need to compare: the event and ns-3's uid and context. impl has its
     * lowest bit set for an event of the direct lane (EventImpls are at least 8-byte aligned);
     * bit 1 marks a handler-lane slot (HandlerTag: the object and handler index, uid its arg).
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

    /**
     * A handler-lane slot: impl holds obj | handler index << 2 | 2 (obj is 16-byte aligned; an
     * EventImpl pointer never has bit 1 set) and uid holds arg.
     */
    static ns3::EventImpl* HandlerTag(void* obj, uint32_t handler)
    {
        return reinterpret_cast<ns3::EventImpl*>(reinterpret_cast<uintptr_t>(obj) |
                                                 (uintptr_t(handler) << 2) | 2u);
    }

    static void* HandlerObj(const ns3::EventImpl* impl)
    {
        return reinterpret_cast<void*>(reinterpret_cast<uintptr_t>(impl) &
                                       ~static_cast<uintptr_t>(15));
    }

    static Handler HandlerOf(const ns3::EventImpl* impl)
    {
        return s_handlers[(reinterpret_cast<uintptr_t>(impl) >> 2) & (kMaxHandlers - 1)];
    }

    static Key MakeKey(uint64_t ts, uint64_t tie, uint32_t slot)
    {
        return (Order(ts, tie) << kSlotBits) | slot;
    }

    static uint32_t SlotOf(Key k)
    {
        return static_cast<uint32_t>(k) & (kMaxSlots - 1);
    }

    static uint64_t TsOf(Key k)
    {
        return static_cast<uint64_t>(k >> (kSlotBits + kSrcBits + kSeqBits));
    }

    void Push(uint64_t ts, uint64_t tie, const Slot& s)
    {
        PushOrder(Order(ts, tie), s);
    }
    void PushOrder(unsigned __int128 order, const Slot& s);
    /** The event of key top, just taken out of the queue: its slot freed, now set to it. */
    Taken TakeKey(Key top);
    /** InsertEvent for a node of another partition inside a window (see SetWindowEnd). */
    void Defer(uint64_t ts, uint64_t tie, const Slot& s);
    [[noreturn]] static void TooManyEvents();
    [[noreturn]] static void CrossPartition(uint32_t owner);

    static inline thread_local FastHeapScheduler* t_active
        __attribute__((tls_model("initial-exec"))) = nullptr;
    static inline FastHeapScheduler** s_route = nullptr;
    static inline thread_local bool t_inWindow __attribute__((tls_model("initial-exec"))) = false;
    /** Per scheduling node, the events it scheduled so far (written only by its own thread). */
    static inline uint64_t s_seq[kGlobalSource + 1] = {};
    /// Whether a simulation of this process may have counted in s_seq (ResetKeys).
    static inline bool s_seqUsed = false;
    static inline Handler s_handlers[kMaxHandlers] = {};
    static inline Prefetcher s_prefetchers[kMaxHandlers] = {};
    static inline uint32_t s_prefetchStages = 0;
    static inline NextPrefetcher s_nextPrefetchers[kMaxHandlers] = {};
    static inline uint32_t s_stagesOf[kMaxHandlers] = {};
    static inline unsigned __int128 s_windowEnd = 0;

    RadixQueue m_queue;
    std::vector<Slot> m_slots;
    std::vector<uint32_t> m_freeSlots;
    /// Events for other partitions scheduled in the last window (order, slot): FlushOutbox.
    std::vector<std::pair<unsigned __int128, Slot>> m_outbox;
    uint64_t m_nowTs = 0;        ///< time of the last event removed
    uint32_t m_nowContext = 0xffffffff; ///< context of the last event removed
    uint32_t m_lastUid = 0;      ///< uid of the last event the simulator inserted
    uint32_t m_nextUid = 4;      ///< NextUid()
};

inline void
FastHeapScheduler::PushOrder(unsigned __int128 order, const Slot& s)
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
        if (slot >= kMaxSlots)
        {
            TooManyEvents();
        }
        m_slots.push_back(s);
    }
    m_queue.Push((order << kSlotBits) | slot);
}

inline void
FastHeapScheduler::InsertDirect(int64_t delayTs, ns3::EventImpl* impl)
{
    InsertDirect(delayTs, impl, m_nowContext);
}

inline void
FastHeapScheduler::InsertDirect(int64_t delayTs, ns3::EventImpl* impl, uint32_t owner)
{
    impl->Ref();
    // No EventId names a direct-lane event: its uid is never compared. The model's own events
    // are never past the 17.5 s the key holds (runs end within 1 s). Into this scheduler even
    // when owner's partition has another: only the run's own events (between windows) do that,
    // and the parallel loop hands such an event to its partition when its turn comes.
    uint64_t ts = m_nowTs + static_cast<uint64_t>(delayTs);
    PushOrder(UnclampedOrder(ts, Mixed(ts, NextKey(m_nowContext))),
              Slot{Tagged(impl), m_lastUid, owner});
}

inline void
FastHeapScheduler::InsertKeyed(uint64_t ts, uint64_t tie, ns3::EventImpl* impl, uint32_t owner)
{
    impl->Ref();
    PushOrder(UnclampedOrder(ts, Mixed(ts, tie)), Slot{Tagged(impl), m_lastUid, owner});
}

inline void
FastHeapScheduler::InsertHandler(uint64_t ts, uint64_t tie, uint32_t handler, void* obj,
                                 uint32_t arg, uint32_t owner)
{
    PushOrder(UnclampedOrder(ts, Mixed(ts, tie)), Slot{HandlerTag(obj, handler), arg, owner});
}

inline void
FastHeapScheduler::InsertHandlerIn(int64_t delayTs, uint32_t handler, void* obj, uint32_t arg,
                                   uint32_t owner)
{
    uint64_t ts = m_nowTs + static_cast<uint64_t>(delayTs);
    PushOrder(UnclampedOrder(ts, Mixed(ts, NextKey(m_nowContext))),
              Slot{HandlerTag(obj, handler), arg, owner});
}

inline void
FastHeapScheduler::InsertEvent(uint64_t ts, uint64_t tie, ns3::EventImpl* impl, uint32_t uid,
                               uint32_t owner)
{
    m_lastUid = uid;
    FastHeapScheduler* t = this;
    if (__builtin_expect(s_route != nullptr, 0))
    {
        t = s_route[owner < kGlobalSource ? owner : kGlobalSource];
        if (t != this && t_inWindow)
        {
            Defer(ts, tie, Slot{impl, uid, owner});
            return;
        }
    }
    t->Push(ts, Mixed(ClampTs(ts), tie), Slot{impl, uid, owner});
}

inline FastHeapScheduler::Taken
FastHeapScheduler::TakeNext()
{
    return TakeKey(m_queue.Pop());
}

inline FastHeapScheduler::Taken
FastHeapScheduler::TakeNextPlain()
{
    return TakeKey(m_queue.PopPlain());
}

__attribute__((always_inline)) inline FastHeapScheduler::Taken
FastHeapScheduler::TakeKey(Key top)
{
    uint32_t slot = SlotOf(top);
    const Slot& s = m_slots[slot];
    Taken t{TsOf(top), s.impl, s.uid, s.context};
    m_freeSlots.push_back(slot);
    m_nowTs = t.ts;
    m_nowContext = t.context;
    return t;
}

} // namespace fabric

#endif
