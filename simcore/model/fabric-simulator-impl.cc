#include "model/fabric-simulator-impl.h"

#include "model/fast-heap-scheduler.h"

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

} // namespace

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
    return m_events->IsEmpty() || m_stop;
}

void
FabricSimulatorImpl::Execute(const ns3::Scheduler::Event& ev)
{
    ++m_eventCount;
    m_currentTs = ev.key.m_ts;
    m_currentContext = ev.key.m_context;
    m_currentUid = ev.key.m_uid;
}

void
FabricSimulatorImpl::RunFast(FastHeapScheduler& sched)
{
    while (!m_stop && !sched.Empty())
    {
        bool direct;
        ns3::Scheduler::Event ev = sched.RemoveNext(direct);
        Execute(ev);
        if (direct)
        {
            NotifyAccess::Fire(ev.impl);
        }
        else
        {
            ev.impl->Invoke();
        }
        ev.impl->Unref();
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
    return Insert(m_currentTs + static_cast<uint64_t>(delay.GetTimeStep()), m_currentContext,
                  event);
}

void
FabricSimulatorImpl::ScheduleWithContext(uint32_t context, const ns3::Time& delay,
                                         ns3::EventImpl* event)
{
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
    return Insert(m_currentTs, m_currentContext, event);
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
    return ns3::TimeStep(m_currentTs);
}

ns3::Time
FabricSimulatorImpl::GetDelayLeft(const ns3::EventId& id) const
{
    if (IsExpired(id))
    {
        return ns3::TimeStep(0);
    }
    return ns3::TimeStep(id.GetTs() - m_currentTs);
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
    m_events->Remove(ev);
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
    return m_currentContext;
}

uint64_t
FabricSimulatorImpl::GetEventCount() const
{
    return m_eventCount;
}

} // namespace fabric
