#include "model/fabric-simulator-impl.h"

#include "model/fabric-device.h"
#include "model/fast-heap-scheduler.h"

#include <algorithm>
#include <limits>

#include "ns3/object-factory.h"
#include "ns3/simulator.h"

namespace fabric
{

NS_OBJECT_ENSURE_REGISTERED(FabricSimulatorImpl);

namespace
{

/**
 * EventImpl::Notify is protected; naming it through a derived class gives a pointer to it that
 * any EventImpl can be called with. Used for direct-lane events only, which no EventId names and
 * so nothing can cancel: EventImpl::Invoke would only add its cancellation and logging checks.
 */
struct NotifyAccess : ns3::EventImpl
{
    static void Fire(ns3::EventImpl* ev)
    {
        void (ns3::EventImpl::*notify)() = &NotifyAccess::Notify;
        (ev->*notify)();
    }
};

/** Runs one event of a FastHeapScheduler's loop; a non-direct one is marked run (expired). */
inline void
Fire(ns3::EventImpl* impl, bool direct)
{
    if (direct)
    {
        NotifyAccess::Fire(impl);
    }
    else if (!impl->IsCancelled())
    {
        // Marked before it runs, so that its EventId is expired while and after it runs, as
        // ns-3's uid rule says; a cancelled event is skipped (and counted, as in ns-3).
        impl->Cancel();
        NotifyAccess::Fire(impl);
    }
    impl->Unref();
}

/** Runs one event as TakeNext gave it: a handler call or an EventImpl. */
__attribute__((always_inline)) inline void
Fire(const FastHeapScheduler::Taken& t)
{
    if (FastHeapScheduler::IsHandler(t.tagged))
    {
        FastHeapScheduler::CallHandler(t.tagged, t.uid);
        return;
    }
    Fire(FastHeapScheduler::Untagged(t.tagged), FastHeapScheduler::IsTagged(t.tagged));
}

/**
 * Waits until done() holds: spins briefly (a barrier is usually microseconds away), then
 * yields the core (a shared machine, or more threads than cores).
 */
template <typename Done>
inline void
SpinUntil(Done done)
{
    for (uint32_t spins = 0; !done(); ++spins)
    {
        if (spins < 4000)
        {
#if defined(__x86_64__) || defined(__i386__)
            __builtin_ia32_pause();
#endif
        }
        else
        {
            std::this_thread::yield();
        }
    }
}

} // namespace

struct FabricSimulatorImpl::Part
{
    ns3::Ptr<FastHeapScheduler> sched;
    uint64_t events = 0;
};

ns3::TypeId
FabricSimulatorImpl::GetTypeId()
{
    static ns3::TypeId tid = ns3::TypeId("fabric::FabricSimulatorImpl")
                                 .SetParent<ns3::SimulatorImpl>()
                                 .SetGroupName("Fabric")
                                 .AddConstructor<FabricSimulatorImpl>();
    return tid;
}

FabricSimulatorImpl::FabricSimulatorImpl()
    : m_uid(ns3::EventId::UID::VALID),
      m_currentUid(ns3::EventId::UID::INVALID),
      m_currentContext(ns3::Simulator::NO_CONTEXT),
      m_mainThread(std::this_thread::get_id())
{
    FastHeapScheduler::ResetKeys(); // a new simulation: every node's count from zero
}

FabricSimulatorImpl::~FabricSimulatorImpl() = default;

void
FabricSimulatorImpl::DoDispose()
{
    TakeEventsFromOtherThreads();
    while (m_events && !m_events->IsEmpty())
    {
        ns3::Scheduler::Event ev = m_events->RemoveNext();
        ev.impl->Unref();
    }
    for (auto& part : m_parts)
    {
        while (!part->sched->Empty())
        {
            ns3::Scheduler::Event ev = part->sched->RemoveNext();
            ev.impl->Unref();
        }
    }
    m_parts.clear();
    FastHeapScheduler::SetRoutes(nullptr);
    m_events = nullptr;
    m_fast = nullptr;
    ns3::SimulatorImpl::DoDispose();
}

void
FabricSimulatorImpl::Destroy()
{
    while (!m_destroyEvents.empty())
    {
        ns3::Ptr<ns3::EventImpl> ev = m_destroyEvents.front().PeekEventImpl();
        m_destroyEvents.pop_front();
        if (!ev->IsCancelled())
        {
            ev->Invoke();
        }
    }
}

void
FabricSimulatorImpl::SetScheduler(ns3::ObjectFactory schedulerFactory)
{
    ns3::Ptr<ns3::Scheduler> sched = schedulerFactory.Create<ns3::Scheduler>();
    if (m_events)
    {
        while (!m_events->IsEmpty())
        {
            sched->Insert(m_events->RemoveNext());
        }
    }
    m_events = sched;
    m_fast = dynamic_cast<FastHeapScheduler*>(ns3::PeekPointer(sched));
}

uint32_t
FabricSimulatorImpl::GetSystemId() const
{
    return 0;
}

bool
FabricSimulatorImpl::IsFinished() const
{
    bool empty = m_events->IsEmpty();
    for (const auto& part : m_parts)
    {
        empty = empty && part->sched->Empty();
    }
    return empty || m_stop;
}

FastHeapScheduler*
FabricSimulatorImpl::Active() const
{
    FastHeapScheduler* a = FastHeapScheduler::Active();
    return a ? a : m_fast;
}

void
FabricSimulatorImpl::SetPartitions(const PartitionPlan& plan)
{
    if (plan.parts <= 1 || !m_fast)
    {
        return;
    }
    m_plan = plan;
    m_parts.clear();
    for (uint32_t i = 0; i < plan.parts; ++i)
    {
        auto part = std::make_unique<Part>();
        part->sched = ns3::CreateObject<FastHeapScheduler>();
        m_parts.push_back(std::move(part));
    }
    m_fast->MakeActive(); // creating a scheduler made it the thread's
    m_route.assign(FastHeapScheduler::kGlobalSource + 1, m_fast);
    for (size_t node = 0; node < plan.partOf.size(); ++node)
    {
        m_route[node] = ns3::PeekPointer(m_parts[plan.partOf[node]]->sched);
    }
    FastHeapScheduler::SetRoutes(m_route.data());
    // Events scheduled so far (setup) go to their owners' partitions, keys unchanged.
    m_fast->Distribute();
    // Thread t runs partitions [m_firstPart[t], m_firstPart[t + 1]): contiguous, as many each
    // (the partitioner balanced them by expected load).
    uint32_t threads = std::max<uint32_t>(1, std::min(plan.threads, plan.parts));
    m_firstPart.clear();
    for (uint32_t t = 0; t <= threads; ++t)
    {
        m_firstPart.push_back(static_cast<uint32_t>(uint64_t(plan.parts) * t / threads));
    }
    m_stats = ParallelStats();
}

void
FabricSimulatorImpl::Execute(const ns3::Scheduler::Event& ev)
{
    Execute(ev.key.m_ts, ev.key.m_context, ev.key.m_uid);
}

void
FabricSimulatorImpl::RunFast(FastHeapScheduler& sched)
{
    sched.SetLookahead(m_prefetch == Prefetch::AHEAD);
    // One loop for each mode: the mode is tested once, not per event.
    if (sched.AheadMode())
    {
        RunFastLoop<Prefetch::AHEAD>(sched);
    }
    else if (m_prefetch == Prefetch::NEXT)
    {
        RunFastLoop<Prefetch::NEXT>(sched);
    }
    else
    {
        RunFastLoop<Prefetch::NONE>(sched);
    }
}

template <FabricSimulatorImpl::Prefetch kMode>
void
FabricSimulatorImpl::RunFastLoop(FastHeapScheduler& sched)
{
    while (!m_stop && !sched.Empty())
    {
        FastHeapScheduler::Taken t =
            kMode == Prefetch::AHEAD ? sched.TakeNext() : sched.TakeNextPlain();
        if constexpr (kMode == Prefetch::AHEAD)
        {
            sched.PrefetchAhead();
        }
        else if constexpr (kMode == Prefetch::NEXT)
        {
            sched.PrefetchNext();
        }
        Execute(t.ts, t.context, t.uid);
        Fire(t);
        if (m_foreignPending.load(std::memory_order_relaxed))
        {
            TakeEventsFromOtherThreads();
        }
    }
}

void
FabricSimulatorImpl::Run()
{
    m_mainThread = std::this_thread::get_id();
    TakeEventsFromOtherThreads();
    m_stop = false;
    if (!m_parts.empty())
    {
        RunParallel();
        return;
    }
    if (m_fast)
    {
        RunFast(*m_fast);
        return;
    }
    while (!m_stop && !m_events->IsEmpty())
    {
        ns3::Scheduler::Event ev = m_events->RemoveNext();
        Execute(ev);
        ev.impl->Invoke();
        ev.impl->Unref();
        if (m_foreignPending.load(std::memory_order_relaxed))
        {
            TakeEventsFromOtherThreads();
        }
    }
}

void
FabricSimulatorImpl::RunWindow(uint32_t i)
{
    Part& part = *m_parts[i];
    FastHeapScheduler& sched = *part.sched;
    sched.SetLookahead(m_prefetch == Prefetch::AHEAD);
    // Frames other partitions sent during the last window reach their links' far ends here.
    for (Mailbox* box : m_plan.inboxes[i])
    {
        FabricDevice::DeliverMailbox(box->frames[box->cur ^ 1]);
    }
    FastHeapScheduler::SetInWindow(true);
    unsigned __int128 end = m_windowEnd;
    uint64_t n = 0;
    while (!sched.Empty() && sched.PeekOrder() < end)
    {
        ++n;
        FastHeapScheduler::Taken t = sched.TakeNext();
        if (m_prefetch == Prefetch::AHEAD)
        {
            sched.PrefetchAhead();
        }
        else if (m_prefetch == Prefetch::NEXT)
        {
            sched.PrefetchNext();
        }
        Fire(t);
    }
    FastHeapScheduler::SetInWindow(false);
    part.events += n;
}

void
FabricSimulatorImpl::RunThreadWindows(uint32_t t)
{
    for (uint32_t i = m_firstPart[t]; i < m_firstPart[t + 1]; ++i)
    {
        m_parts[i]->sched->MakeActive();
        if (m_plan.onEnterPartition)
        {
            m_plan.onEnterPartition(i);
        }
        RunWindow(i);
    }
}

void
FabricSimulatorImpl::WorkerLoop(uint32_t t)
{
    uint64_t seen = 0;
    while (true)
    {
        SpinUntil([&] { return m_generation.load(std::memory_order_acquire) != seen; });
        seen = m_generation.load(std::memory_order_acquire);
        if (m_quit.load(std::memory_order_acquire))
        {
            return;
        }
        RunThreadWindows(t);
        m_done.fetch_add(1, std::memory_order_acq_rel);
    }
}

void
FabricSimulatorImpl::RunGlobalEvent()
{
    m_fast->MakeActive();
    FastHeapScheduler::Taken t = m_fast->TakeNext();
    Execute(t.ts, t.context, t.uid);
    ++m_stats.globalEvents;
    Fire(t);
}

void
FabricSimulatorImpl::RunParallel()
{
    using Order = unsigned __int128;
    const Order kNone = ~Order(0);
    uint32_t n = static_cast<uint32_t>(m_firstPart.size() - 1); // threads
    m_quit = false;
    m_done = 0;
    std::vector<std::thread> workers;
    for (uint32_t t = 1; t < n; ++t)
    {
        workers.emplace_back(&FabricSimulatorImpl::WorkerLoop, this, t);
    }
    while (!m_stop.load(std::memory_order_relaxed))
    {
        // The earliest thing pending anywhere: partitions' events and frames still in mailboxes.
        int64_t tmin = std::numeric_limits<int64_t>::max();
        for (auto& part : m_parts)
        {
            if (!part->sched->Empty())
            {
                tmin = std::min<int64_t>(tmin, static_cast<int64_t>(part->sched->PeekTs()));
            }
        }
        for (Mailbox* box : m_plan.mailboxes)
        {
            tmin = std::min(tmin, box->minArrivePs);
        }
        Order global = m_fast->Empty() ? kNone : m_fast->PeekOrder();
        if (tmin == std::numeric_limits<int64_t>::max() && global == kNone)
        {
            break;
        }
        Order end = global;
        if (tmin != std::numeric_limits<int64_t>::max())
        {
            end = std::min(end, FastHeapScheduler::Order(
                                    static_cast<uint64_t>(tmin + m_plan.lookaheadPs), 0));
        }
        if (tmin != std::numeric_limits<int64_t>::max() &&
            FastHeapScheduler::Order(static_cast<uint64_t>(tmin), 0) < end)
        {
            // One window: every partition runs what is ordered before end, at once.
            for (Mailbox* box : m_plan.mailboxes)
            {
                m_stats.framesHandedOver += box->frames[box->cur].size();
                box->cur ^= 1;
                box->minArrivePs = std::numeric_limits<int64_t>::max();
            }
            m_windowEnd = end;
            FastHeapScheduler::SetWindowEnd(end);
            m_done.store(0, std::memory_order_relaxed);
            m_generation.fetch_add(1, std::memory_order_acq_rel);
            RunThreadWindows(0);
            if (m_plan.onEnterPartition)
            {
                m_plan.onEnterPartition(PartitionPlan::kNoPartition);
            }
            SpinUntil([&] { return m_done.load(std::memory_order_acquire) >= n - 1; });
            ++m_stats.windows;
            // Events a partition scheduled for another one's node (a collective's completion
            // acknowledged to its sender: at least a path's propagation, so past this window).
            for (auto& part : m_parts)
            {
                part->sched->FlushOutbox();
            }
        }
        if (global != kNone && global <= end)
        {
            uint32_t owner = m_fast->HeadContext();
            if (owner < FastHeapScheduler::kGlobalSource && owner < m_plan.partOf.size())
            {
                // A node's event that one of the run's own events scheduled (a fault touching a
                // port): its partition runs it, at its place in the order.
                m_fast->MoveHeadToOwner();
                continue;
            }
            RunGlobalEvent();
        }
    }
    m_quit = true;
    m_generation.fetch_add(1, std::memory_order_acq_rel);
    for (std::thread& w : workers)
    {
        w.join();
    }
    m_fast->MakeActive();
    for (auto& part : m_parts)
    {
        part->sched->FlushOutbox();
    }
    // Frames still in mailboxes are on the wire: put them there, as one thread would have.
    for (Mailbox* box : m_plan.mailboxes)
    {
        FabricDevice::DeliverMailbox(box->frames[box->cur ^ 1]);
        FabricDevice::DeliverMailbox(box->frames[box->cur]);
        box->minArrivePs = std::numeric_limits<int64_t>::max();
    }
    m_stats.eventsPerPartition.clear();
    for (auto& part : m_parts)
    {
        m_stats.eventsPerPartition.push_back(part->events);
    }
}

void
FabricSimulatorImpl::TakeEventsFromOtherThreads()
{
    if (!m_foreignPending.load(std::memory_order_relaxed))
    {
        return;
    }
    std::lock_guard<std::mutex> lock(m_foreignMutex);
    for (const ForeignEvent& f : m_foreign)
    {
        ns3::Scheduler::Event ev;
        ev.impl = f.event;
        ev.key.m_ts = m_currentTs + f.ts;
        ev.key.m_context = f.context;
        ev.key.m_uid = m_uid++;
        m_events->Insert(ev);
    }
    m_foreign.clear();
    m_foreignPending.store(false, std::memory_order_relaxed);
}

void
FabricSimulatorImpl::Stop()
{
    m_stop = true;
}

void
FabricSimulatorImpl::Stop(const ns3::Time& delay)
{
    ns3::Simulator::Schedule(delay, &ns3::Simulator::Stop);
}

ns3::EventId
FabricSimulatorImpl::Insert(uint64_t ts, uint32_t context, ns3::EventImpl* event)
{
    if (FastHeapScheduler* a = Active())
    {
        // The scheduling node's tie key; the owner's partition holds it.
        uint32_t uid = a->NextUid();
        a->InsertEvent(ts, FastHeapScheduler::NextKey(a->NowContext()), event, uid, context);
        return ns3::EventId(event, ts, context, uid);
    }
    ns3::Scheduler::Event ev;
    ev.impl = event;
    ev.key.m_ts = ts;
    ev.key.m_context = context;
    ev.key.m_uid = m_uid++;
    m_events->Insert(ev);
    return ns3::EventId(event, ts, context, ev.key.m_uid);
}

ns3::EventId
FabricSimulatorImpl::Schedule(const ns3::Time& delay, ns3::EventImpl* event)
{
    if (FastHeapScheduler* a = Active())
    {
        return Insert(static_cast<uint64_t>(a->NowTs()) + static_cast<uint64_t>(delay.GetTimeStep()),
                      a->NowContext(), event);
    }
    return Insert(m_currentTs + static_cast<uint64_t>(delay.GetTimeStep()), m_currentContext,
                  event);
}

void
FabricSimulatorImpl::ScheduleWithContext(uint32_t context, const ns3::Time& delay,
                                         ns3::EventImpl* event)
{
    if (FastHeapScheduler* a = FastHeapScheduler::Active())
    {
        Insert(static_cast<uint64_t>(a->NowTs()) + static_cast<uint64_t>(delay.GetTimeStep()),
               context, event);
        return;
    }
    if (std::this_thread::get_id() == m_mainThread)
    {
        Insert(m_currentTs + static_cast<uint64_t>(delay.GetTimeStep()), context, event);
        return;
    }
    std::lock_guard<std::mutex> lock(m_foreignMutex);
    m_foreign.push_back({context, static_cast<uint64_t>(delay.GetTimeStep()), event});
    m_foreignPending.store(true, std::memory_order_relaxed);
}

ns3::EventId
FabricSimulatorImpl::ScheduleNow(ns3::EventImpl* event)
{
    return Schedule(ns3::TimeStep(0), event);
}

ns3::EventId
FabricSimulatorImpl::ScheduleDestroy(ns3::EventImpl* event)
{
    ns3::EventId id(ns3::Ptr<ns3::EventImpl>(event, false), m_currentTs, 0xffffffff,
                    ns3::EventId::UID::DESTROY);
    m_destroyEvents.push_back(id);
    ++m_uid;
    return id;
}

ns3::Time
FabricSimulatorImpl::Now() const
{
    if (FastHeapScheduler* a = Active())
    {
        return ns3::TimeStep(a->NowTs());
    }
    return ns3::TimeStep(m_currentTs);
}

ns3::Time
FabricSimulatorImpl::GetDelayLeft(const ns3::EventId& id) const
{
    if (IsExpired(id))
    {
        return ns3::TimeStep(0);
    }
    return ns3::TimeStep(id.GetTs() - Now().GetTimeStep());
}

void
FabricSimulatorImpl::Remove(const ns3::EventId& id)
{
    if (id.GetUid() == ns3::EventId::UID::DESTROY)
    {
        for (auto it = m_destroyEvents.begin(); it != m_destroyEvents.end(); ++it)
        {
            if (*it == id)
            {
                m_destroyEvents.erase(it);
                break;
            }
        }
        return;
    }
    if (IsExpired(id))
    {
        return;
    }
    ns3::Scheduler::Event ev;
    ev.impl = id.PeekEventImpl();
    ev.key.m_ts = id.GetTs();
    ev.key.m_context = id.GetContext();
    ev.key.m_uid = id.GetUid();
    if (m_parts.empty())
    {
        m_events->Remove(ev);
    }
    else
    {
        m_route[std::min<uint32_t>(ev.key.m_context, FastHeapScheduler::kGlobalSource)]->Remove(ev);
    }
    ev.impl->Cancel();
    ev.impl->Unref(); // the reference the scheduler held
}

void
FabricSimulatorImpl::Cancel(const ns3::EventId& id)
{
    if (!IsExpired(id))
    {
        id.PeekEventImpl()->Cancel();
    }
}

bool
FabricSimulatorImpl::IsExpired(const ns3::EventId& id) const
{
    ns3::EventImpl* impl = id.PeekEventImpl();
    if (id.GetUid() == ns3::EventId::UID::DESTROY)
    {
        if (impl == nullptr || impl->IsCancelled())
        {
            return true;
        }
        for (const ns3::EventId& d : m_destroyEvents)
        {
            if (d == id)
            {
                return false;
            }
        }
        return true;
    }
    if (m_fast)
    {
        // An event is marked when it runs (see Fire): run or cancelled means expired.
        return impl == nullptr || impl->IsCancelled();
    }
    return impl == nullptr || id.GetTs() < m_currentTs ||
           (id.GetTs() == m_currentTs && id.GetUid() <= m_currentUid) || impl->IsCancelled();
}

ns3::Time
FabricSimulatorImpl::GetMaximumSimulationTime() const
{
    return ns3::TimeStep(0x7fffffffffffffffLL);
}

uint32_t
FabricSimulatorImpl::GetContext() const
{
    if (FastHeapScheduler* a = Active())
    {
        return a->NowContext();
    }
    return m_currentContext;
}

uint64_t
FabricSimulatorImpl::GetEventCount() const
{
    uint64_t n = m_eventCount;
    for (const auto& part : m_parts)
    {
        n += part->events;
    }
    return n;
}

} // namespace fabric
