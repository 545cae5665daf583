/*
 * The fabric model's ns-3 SimulatorImpl: the event loop of ns-3's DefaultSimulatorImpl (same
 * Stop/Cancel/Remove/IsExpired/Destroy rules) without its per-event overhead, and its parallel
 * form: the fabric split into partitions, each with its own FastHeapScheduler, run in windows of
 * one lookahead (the smallest propagation delay of a link between partitions) by a few threads,
 * each taking its own contiguous share of the partitions one after another (more partitions than
 * threads keeps each partition's state in the caches while it runs: a large fabric runs faster
 * split even on one thread), frames crossing partitions handed over through mailboxes at each
 * window's end, and the run's own events (flow starts' bookkeeping, sampling, faults, limits)
 * run alone between windows. Events of equal time run in an order no partitioning changes (see
 * FastHeapScheduler), so every thread and partition count gives the same results.
 * docs/model.md ("Engine").
 */
#ifndef FABRIC_FABRIC_SIMULATOR_IMPL_H
#define FABRIC_FABRIC_SIMULATOR_IMPL_H

#include "ns3/event-id.h"
#include "ns3/ptr.h"
#include "ns3/scheduler.h"
#include "ns3/simulator-impl.h"

#include <atomic>
#include <functional>
#include <cstdint>
#include <list>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

namespace fabric
{

class FastHeapScheduler;
struct Mailbox;

/** How a parallel run splits the fabric (built by the helper that knows the topology). */
struct PartitionPlan
{
    uint32_t parts = 1;
    std::vector<uint16_t> partOf;                 ///< per node
    std::vector<std::vector<Mailbox*>> inboxes;   ///< per receiving partition
    std::vector<Mailbox*> mailboxes;              ///< all of them
    int64_t lookaheadPs = 0;                      ///< smallest delay of a cut link
    uint32_t threads = 1; ///< threads that run the partitions (at most parts), each a range
    /** Called on the thread about to run partition i's window (kNoPartition: the main thread
     *  goes back to the run's own events). */
    std::function<void(uint32_t)> onEnterPartition;
    static constexpr uint32_t kNoPartition = ~0u;
};

/** What a parallel run did (the result's perf object). */
struct ParallelStats
{
    uint64_t windows = 0;
    uint64_t globalEvents = 0;
    std::vector<uint64_t> eventsPerPartition;
    uint64_t framesHandedOver = 0;
};

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

    /** Splits the run into plan.parts partitions (before Run; plan.parts 1: sequential). */
    void SetPartitions(const PartitionPlan& plan);
    /** Whether SetPartitions can split this run (it needs the FastHeapScheduler). */
    bool CanPartition() const
    {
        return m_fast != nullptr;
    }
    const ParallelStats& Stats() const
    {
        return m_stats;
    }
    /**
     * What the loops fetch ahead of the events they run: nothing; the next event's first lines
     * while the current one runs (FastHeapScheduler::PrefetchNext); or several events ahead, one
     * stage at a time (PrefetchAhead: more instructions per event, more misses overlapped).
     * Worth it as the fabric's state outgrows the caches (docs/benchmarks.md, "Cost per event and
     * fabric size"): the run controller picks by the fabric's size. None by default; never
     * changes a result.
     */
    enum class Prefetch
    {
        NONE,
        NEXT,
        AHEAD
    };
    void SetPrefetch(Prefetch mode)
    {
        m_prefetch = mode;
    }

  private:
    struct Part;
    void RunParallel();
    /** Runs partition i's events ordered before the current window's end. */
    void RunWindow(uint32_t i);
    /** Runs the window of each partition thread t owns, one after another. */
    void RunThreadWindows(uint32_t t);
    void WorkerLoop(uint32_t t);
    /** Runs the head event of the global scheduler (all partitions idle). */
    void RunGlobalEvent();
    FastHeapScheduler* Active() const;

    void DoDispose() override;

    /** Inserts event at absolute time ts with the next uid. */
    ns3::EventId Insert(uint64_t ts, uint32_t context, ns3::EventImpl* event);
    /** Runs one event taken from the scheduler (the bookkeeping of every loop). */
    void Execute(const ns3::Scheduler::Event& ev);
    /** The same from the heap's record (a handler-lane event's uid is its arg: no EventId names
     *  it, and with the FastHeapScheduler IsExpired reads the event's mark, not the uid). */
    void Execute(uint64_t ts, uint32_t context, uint32_t uid)
    {
        ++m_eventCount;
        m_currentTs = ts;
        m_currentContext = context;
        m_currentUid = uid;
    }
    /** The loop over a FastHeapScheduler: its calls made directly, direct-lane events fired. */
    void RunFast(FastHeapScheduler& sched);
    template <Prefetch kMode>
    void RunFastLoop(FastHeapScheduler& sched);
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
    std::atomic<bool> m_stop{false};
    uint32_t m_uid;
    uint32_t m_currentUid;
    uint64_t m_currentTs = 0;
    uint32_t m_currentContext;
    uint64_t m_eventCount = 0;

    std::list<ForeignEvent> m_foreign;
    std::atomic<bool> m_foreignPending{false};
    std::mutex m_foreignMutex;
    std::thread::id m_mainThread;

    // Parallel runs
    PartitionPlan m_plan;
    std::vector<std::unique_ptr<Part>> m_parts;
    std::vector<uint32_t> m_firstPart; ///< per thread, its first partition; then parts
    std::vector<FastHeapScheduler*> m_route; ///< per node, then the global scheduler at 0xffff
    unsigned __int128 m_windowEnd = 0;
    std::atomic<uint64_t> m_generation{0};
    std::atomic<uint32_t> m_done{0};
    std::atomic<bool> m_quit{false};
    ParallelStats m_stats;
    Prefetch m_prefetch = Prefetch::NONE;
};

} // namespace fabric

#endif
