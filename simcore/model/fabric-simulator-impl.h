/*
 * The fabric model's ns-3 SimulatorImpl: the event loop of ns-3's DefaultSimulatorImpl (same
 * event order, same uids, same event count, same Stop/Cancel/Remove/IsExpired/Destroy rules)
 * without its per-event overhead: no EventId built for PreEventHook, no logging checks, no
 * virtual calls into a FastHeapScheduler, and the model's direct-lane events run without
 * EventImpl::Invoke. Chosen through ns-3's "SimulatorImplementationType" by FabricRun;
 * docs/model.md ("Engine") explains why results stay identical.
 */
#ifndef FABRIC_FABRIC_SIMULATOR_IMPL_H
#define FABRIC_FABRIC_SIMULATOR_IMPL_H

#include "ns3/event-id.h"
#include "ns3/ptr.h"
#include "ns3/scheduler.h"
#include "ns3/simulator-impl.h"

#include <atomic>
#include <cstdint>
#include <list>
#include <mutex>
#include <thread>

namespace fabric
{

class FastHeapScheduler;

class FabricSimulatorImpl : public ns3::SimulatorImpl
{
  public:
    static ns3::TypeId GetTypeId();
    FabricSimulatorImpl();
    ~FabricSimulatorImpl() override;

    void Destroy() override;
    bool IsFinished() const override;
    void Stop() override;
    void Stop(const ns3::Time& delay) override;
    ns3::EventId Schedule(const ns3::Time& delay, ns3::EventImpl* event) override;
    void ScheduleWithContext(uint32_t context, const ns3::Time& delay,
                             ns3::EventImpl* event) override;
    ns3::EventId ScheduleNow(ns3::EventImpl* event) override;
    ns3::EventId ScheduleDestroy(ns3::EventImpl* event) override;
    void Remove(const ns3::EventId& id) override;
    void Cancel(const ns3::EventId& id) override;
    bool IsExpired(const ns3::EventId& id) const override;
    void Run() override;
    ns3::Time Now() const override;
    ns3::Time GetDelayLeft(const ns3::EventId& id) const override;
    ns3::Time GetMaximumSimulationTime() const override;
    void SetScheduler(ns3::ObjectFactory schedulerFactory) override;
    uint32_t GetSystemId() const override;
    uint32_t GetContext() const override;
    uint64_t GetEventCount() const override;

  private:
    void DoDispose() override;

    /** Inserts event at absolute time ts with the next uid. */
    ns3::EventId Insert(uint64_t ts, uint32_t context, ns3::EventImpl* event);
    /** Runs one event taken from the scheduler (the bookkeeping of every loop). */
    void Execute(const ns3::Scheduler::Event& ev);
    /** The loop over a FastHeapScheduler: its calls made directly, direct-lane events fired. */
    void RunFast(FastHeapScheduler& sched);
    /** Moves events scheduled with a context from other threads into the scheduler. */
    void TakeEventsFromOtherThreads();

    struct ForeignEvent
    {
        uint32_t context;
        uint64_t ts;
        ns3::EventImpl* event;
    };

    ns3::Ptr<ns3::Scheduler> m_events;
    FastHeapScheduler* m_fast = nullptr; ///< m_events when it is a FastHeapScheduler
    std::list<ns3::EventId> m_destroyEvents;
    bool m_stop = false;
    uint32_t m_uid;
    uint32_t m_currentUid;
    uint64_t m_currentTs = 0;
    uint32_t m_currentContext;
    uint64_t m_eventCount = 0;

    std::list<ForeignEvent> m_foreign;
    std::atomic<bool> m_foreignPending{false};
    std::mutex m_foreignMutex;
    std::thread::id m_mainThread;
};

} // namespace fabric

#endif
