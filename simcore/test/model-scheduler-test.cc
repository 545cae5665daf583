/*
 * FastHeapScheduler: events come out in (time, scheduling node, that node's insertion order),
 * whether the simulator inserted them or the model's direct lane did, with removals and peeks
 * interleaved; its radix queue pops the exact minimum of a random monotone workload, keys below
 * the last minimum, removals and a hand-over included; handler-lane events keep that order and run their
 * calls (wrapped in an EventImpl when taken through ns-3's interface); a run on ns-3's
 * MapScheduler still works (with ns-3's own order for ties).
 */
#include "model-test-util.h"
#include "model/fast-heap-scheduler.h"
#include "model/radix-queue.h"

#include "ns3/core-module.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <random>
#include <set>
#include <tuple>
#include <vector>

using namespace fabric;
using namespace fabric::test;

namespace
{

class TaggedEvent : public ns3::EventImpl
{
  public:
    explicit TaggedEvent(uint32_t tag)
        : m_tag(tag)
    {
    }

    uint32_t Tag() const
    {
        return m_tag;
    }

  protected:
    void Notify() override
    {
    }

  private:
    uint32_t m_tag;
};

struct Pending
{
    uint64_t ts;
    uint32_t src;   ///< the scheduling node (the context of the event running when inserted)
    uint32_t ctx;   ///< the event's own context (its owner)
    uint64_t order; ///< insertion order
    uint32_t tag;
    bool direct;
    uint32_t uid;
};

} // namespace

TEST(ModelScheduler, OrderMatchesTimeThenSchedulingNodeThenItsOrder)
{
    FastHeapScheduler::ResetKeys();
    auto sched = ns3::CreateObject<FastHeapScheduler>();
    std::mt19937_64 rng(12345);
    std::vector<ns3::Ptr<TaggedEvent>> events;
    std::vector<Pending> pending;
    uint64_t order = 0;
    uint32_t uid = 4;
    uint32_t lastSimUid = 0;
    uint64_t now = 0;
    uint64_t removedByTime = 0;
    uint32_t nowCtx = 0xffffffff;
    auto Src = [](uint32_t ctx) { return ctx < 0xffff ? ctx : 0xffffu; };
    auto newEvent = [&]() {
        events.push_back(ns3::Create<TaggedEvent>(static_cast<uint32_t>(events.size())));
        return events.back();
    };
    auto earliest = [&]() {
        return std::min_element(pending.begin(), pending.end(), [](const Pending& a, const Pending& b) {
            return std::tie(a.ts, a.src, a.order) < std::tie(b.ts, b.src, b.order);
        });
    };
    for (int step = 0; step < 100000; ++step)
    {
        uint32_t r = rng() % 100;
        // Small delays with many exact ties, and now and then a far one (timers).
        uint64_t delay = (rng() % 8 == 0) ? rng() % 1000000 : (rng() % 5) * 1000;
        if (r < 30 || pending.empty())
        {
            auto ev = newEvent();
            ns3::Scheduler::Event e;
            e.impl = ns3::PeekPointer(ev);
            e.key.m_ts = now + delay;
            e.key.m_uid = uid;
            e.key.m_context = 7;
            lastSimUid = uid;
            sched->Insert(e);
            // The scheduling node is the context of the event that ran last (0xffff: none).
            pending.push_back({now + delay, Src(nowCtx), 7u, order++, ev->Tag(), false, uid});
            ++uid;
        }
        else if (r < 60)
        {
            auto ev = newEvent();
            uint32_t refs = ev->GetReferenceCount();
            sched->InsertDirect(static_cast<int64_t>(delay), ns3::PeekPointer(ev));
            EXPECT_EQ(ev->GetReferenceCount(), refs + 1) << "the direct lane takes one reference";
            // A direct event belongs to the context that scheduled it.
            pending.push_back(
                {now + delay, Src(nowCtx), nowCtx, order++, ev->Tag(), true, lastSimUid});
        }
        else if (r < 95)
        {
            auto it = earliest();
            ns3::Scheduler::Event e = sched->RemoveNext();
            ASSERT_EQ(static_cast<TaggedEvent*>(e.impl)->Tag(), it->tag) << "step " << step;
            EXPECT_EQ(e.key.m_ts, it->ts);
            EXPECT_EQ(e.key.m_uid, it->uid);
            ASSERT_GE(e.key.m_ts, now);
            EXPECT_EQ(e.key.m_context, it->ctx);
            now = e.key.m_ts;
            nowCtx = e.key.m_context;
            EXPECT_EQ(sched->NowTs(), static_cast<int64_t>(now));
            if (it->direct)
            {
                e.impl->Unref(); // what the simulator does after running it
            }
            pending.erase(it);
            ++removedByTime;
        }
        else if (r < 98)
        {
            // Simulator::Remove of a random event the simulator inserted.
            std::vector<size_t> sim;
            for (size_t i = 0; i < pending.size(); ++i)
            {
                if (!pending[i].direct)
                {
                    sim.push_back(i);
                }
            }
            if (sim.empty())
            {
                continue;
            }
            Pending p = pending[sim[rng() % sim.size()]];
            ns3::Scheduler::Event e;
            e.impl = ns3::PeekPointer(events[p.tag]);
            e.key.m_ts = p.ts;
            e.key.m_uid = p.uid;
            e.key.m_context = 7;
            sched->Remove(e);
            pending.erase(std::find_if(pending.begin(), pending.end(),
                                       [&](const Pending& q) { return q.tag == p.tag; }));
        }
        else
        {
            auto it = earliest();
            ns3::Scheduler::Event e = sched->PeekNext();
            EXPECT_EQ(static_cast<TaggedEvent*>(e.impl)->Tag(), it->tag);
            EXPECT_EQ(e.key.m_ts, it->ts);
        }
        ASSERT_EQ(sched->IsEmpty(), pending.empty()) << "step " << step;
    }
    EXPECT_GT(removedByTime, 25000u);
    while (!pending.empty())
    {
        auto it = earliest();
        ns3::Scheduler::Event e = sched->RemoveNext();
        ASSERT_EQ(static_cast<TaggedEvent*>(e.impl)->Tag(), it->tag);
        if (it->direct)
        {
            e.impl->Unref();
        }
        pending.erase(it);
    }
    EXPECT_TRUE(sched->IsEmpty());
    for (const auto& ev : events)
    {
        EXPECT_EQ(ev->GetReferenceCount(), 1u) << "reference leaked or dropped";
    }
}

namespace
{
/**
 * Random pushes, pops, peeks, removals and hand-overs against a std::set, with depth keys taken
 * ahead (RadixQueue::SetLookahead; 0: none): the same order whatever the depth, and the keys taken
 * ahead are the next ones in order.
 */
void
CheckRadixQueue(unsigned depth)
{
    using Key = RadixQueue::Key;
    RadixQueue q;
    q.SetLookahead(depth);
    size_t aheadSeen = 0;
    std::set<Key> ref; // keys are unique, as the scheduler's are (they end with a slot)
    std::mt19937_64 rng(7);
    uint64_t serial = 0;
    Key last = 0;
    // A key as the scheduler builds them: time in the high bits, then a tie, then a serial.
    auto make = [&](uint64_t ts, uint64_t tie) {
        return (Key(ts) << 84) | (Key(tie & ((uint64_t(1) << 60) - 1)) << 24) | (serial++ & 0xffffff);
    };
    uint64_t now = 0;
    size_t belowLast = 0;
    size_t pops = 0;
    for (int step = 0; step < 200000; ++step)
    {
        uint32_t r = rng() % 100;
        if (r < 48 || ref.empty())
        {
            // Mostly near (ties at "now" included), now and then a timer far ahead.
            uint64_t d = rng() % 10 == 0 ? rng() % 60000000 : (rng() % 4 == 0 ? 0 : rng() % 2000000);
            Key k = make(now + d, rng());
            belowLast += k < last ? 1 : 0; // a tie at "now" ordered before the last one taken
            q.Push(k);
            ref.insert(k);
        }
        else if (r < 93)
        {
            ASSERT_EQ(q.Top(), *ref.begin()) << "step " << step;
            Key k = q.Pop();
            ASSERT_EQ(k, *ref.begin()) << "step " << step;
            ref.erase(ref.begin());
            last = k;
            now = static_cast<uint64_t>(k >> 84);
            ++pops;
            ASSERT_LE(q.AheadCount(), std::min<size_t>(ref.size(), depth));
            // Keys taken ahead: queued, in order, none below the next key (keys pushed below
            // them since wait in the side heap and come first).
            for (unsigned i = 0; i < q.AheadCount(); ++i)
            {
                ASSERT_TRUE(ref.count(q.Ahead(i))) << "step " << step << " ahead " << i;
                ASSERT_GE(q.Ahead(i), *ref.begin()) << "step " << step << " ahead " << i;
                if (i > 0)
                {
                    ASSERT_LT(q.Ahead(i - 1), q.Ahead(i)) << "step " << step << " ahead " << i;
                }
            }
            aheadSeen += q.AheadCount();
        }
        else if (r < 97)
        {
            // Remove one pending key (Simulator::Remove).
            auto it = ref.begin();
            std::advance(it, static_cast<long>(rng() % ref.size()));
            Key victim = *it;
            ASSERT_TRUE(q.RemoveIf([&](Key k) { return k == victim; }));
            ref.erase(it);
            ASSERT_FALSE(q.RemoveIf([&](Key k) { return k == victim; }));
        }
        else if (r < 99)
        {
            ASSERT_EQ(q.Top(), *ref.begin()); // a peek settles; later pushes may still be smaller
        }
        else
        {
            // Hand everything over (Distribute): ForEach, Clear, push again.
            std::vector<Key> all;
            q.ForEach([&](Key k) { all.push_back(k); });
            ASSERT_EQ(std::set<Key>(all.begin(), all.end()), ref);
            q.Clear();
            EXPECT_TRUE(q.Empty());
            for (Key k : all)
            {
                q.Push(k);
            }
        }
        ASSERT_EQ(q.Size(), ref.size());
    }
    EXPECT_GT(pops, 50000u);
    EXPECT_GT(belowLast, 100u) << "the keys below the last minimum were exercised";
    while (!ref.empty())
    {
        ASSERT_EQ(q.Pop(), *ref.begin());
        ref.erase(ref.begin());
    }
    EXPECT_TRUE(q.Empty());
    if (depth > 0)
    {
        EXPECT_GT(aheadSeen, pops) << "keys were taken ahead";
    }
    else
    {
        EXPECT_EQ(aheadSeen, 0u);
    }
}
} // namespace

TEST(ModelScheduler, RadixQueuePopsTheExactMinimum)
{
    CheckRadixQueue(0);
}

TEST(ModelScheduler, RadixQueueLookaheadKeepsTheOrder)
{
    CheckRadixQueue(3);
    CheckRadixQueue(RadixQueue::kMaxDepth);
}

namespace
{
std::vector<std::pair<const void*, uint32_t>> g_calls;

void
RecordCall(void* obj, uint32_t arg)
{
    g_calls.emplace_back(obj, arg);
}
} // namespace

TEST(ModelScheduler, HandlerLaneKeepsTheOrderAndRunsItsCalls)
{
    FastHeapScheduler::ResetKeys();
    g_calls.clear();
    constexpr uint32_t kHandler = FastHeapScheduler::kMaxHandlers - 1; // 0 and 1: the devices'
    FastHeapScheduler::SetHandler(kHandler, &RecordCall);
    auto sched = ns3::CreateObject<FastHeapScheduler>();
    alignas(16) static char objs[3][16];
    auto a = ns3::Create<TaggedEvent>(1);
    auto b = ns3::Create<TaggedEvent>(2);
    // One scheduling node (none running): same-time events in insertion order, whatever lane.
    sched->InsertDirect(1000, ns3::PeekPointer(a));
    sched->InsertHandlerIn(1000, kHandler, objs[0], 7, 5);
    sched->InsertDirect(1000, ns3::PeekPointer(b));
    sched->InsertHandlerIn(500, kHandler, objs[1], 9, 6);
    sched->InsertHandler(2000, FastHeapScheduler::ArrivalKey(3, 1), kHandler, objs[2], 11, 4);

    FastHeapScheduler::Taken t = sched->TakeNext();
    ASSERT_TRUE(FastHeapScheduler::IsHandler(t.tagged));
    EXPECT_EQ(t.ts, 500u);
    EXPECT_EQ(t.context, 6u);
    EXPECT_EQ(sched->NowTs(), 500);
    FastHeapScheduler::CallHandler(t.tagged, t.uid);
    ASSERT_EQ(g_calls.size(), 1u);
    EXPECT_EQ(g_calls[0], std::make_pair(static_cast<const void*>(objs[1]), 9u));

    t = sched->TakeNext();
    ASSERT_FALSE(FastHeapScheduler::IsHandler(t.tagged));
    EXPECT_TRUE(FastHeapScheduler::IsTagged(t.tagged)) << "a direct-lane event";
    EXPECT_EQ(FastHeapScheduler::Untagged(t.tagged), ns3::PeekPointer(a));
    EXPECT_EQ(t.ts, 1000u);
    FastHeapScheduler::Untagged(t.tagged)->Unref();

    // Through ns-3's interface a handler-lane event is an EventImpl of its own.
    ns3::Scheduler::Event e = sched->RemoveNext();
    ASSERT_NE(e.impl, nullptr);
    EXPECT_EQ(e.key.m_ts, 1000u);
    EXPECT_EQ(e.key.m_context, 5u);
    e.impl->Invoke();
    ASSERT_EQ(g_calls.size(), 2u);
    EXPECT_EQ(g_calls[1], std::make_pair(static_cast<const void*>(objs[0]), 7u));
    e.impl->Unref(); // frees it

    t = sched->TakeNext();
    EXPECT_EQ(FastHeapScheduler::Untagged(t.tagged), ns3::PeekPointer(b));
    FastHeapScheduler::Untagged(t.tagged)->Unref();

    ns3::Scheduler::Event peek = sched->PeekNext();
    EXPECT_EQ(peek.impl, nullptr) << "no EventImpl to show for a handler-lane event";
    EXPECT_EQ(peek.key.m_ts, 2000u);
    t = sched->TakeNext();
    ASSERT_TRUE(FastHeapScheduler::IsHandler(t.tagged));
    EXPECT_EQ(t.context, 4u);
    FastHeapScheduler::CallHandler(t.tagged, t.uid);
    EXPECT_EQ(g_calls.back(), std::make_pair(static_cast<const void*>(objs[2]), 11u));
    EXPECT_TRUE(sched->IsEmpty());
    EXPECT_EQ(a->GetReferenceCount(), 1u);
    EXPECT_EQ(b->GetReferenceCount(), 1u);
}

namespace
{
std::vector<std::pair<uint32_t, uint32_t>> g_stages; ///< (arg, stage) per prefetcher call

void
RecordStage(const void* /*obj*/, uint32_t arg, uint32_t stage)
{
    g_stages.emplace_back(arg, stage);
}
} // namespace

TEST(ModelScheduler, PrefetchAheadGivesEachEventItsStagesInOrder)
{
    FastHeapScheduler::ResetKeys();
    g_calls.clear();
    g_stages.clear();
    constexpr uint32_t kHandler = FastHeapScheduler::kMaxHandlers - 1;
    FastHeapScheduler::SetHandler(kHandler, &RecordCall);
    FastHeapScheduler::SetPrefetcher(kHandler, &RecordStage, 3);
    auto sched = ns3::CreateObject<FastHeapScheduler>();
    alignas(16) static char obj[16];
    constexpr uint32_t kEvents = 60;
    for (uint32_t i = 0; i < kEvents; ++i)
    {
        sched->InsertHandlerIn(1000 + 7 * ((i * 37) % kEvents), kHandler, obj, (i * 37) % kEvents,
                               1);
    }
    sched->SetLookahead(true);
    std::vector<std::vector<uint32_t>> seen(kEvents);
    uint32_t stages = 0;
    std::vector<uint32_t> order;
    while (!sched->Empty())
    {
        FastHeapScheduler::Taken t = sched->TakeNext();
        size_t before = g_stages.size();
        sched->PrefetchAhead();
        for (size_t c = before; c < g_stages.size(); ++c)
        {
            seen.at(g_stages[c].first).push_back(g_stages[c].second);
            stages = std::max(stages, g_stages[c].second + 1);
        }
        FastHeapScheduler::CallHandler(t.tagged, t.uid);
        order.push_back(g_calls.back().second);
    }
    ASSERT_EQ(order.size(), kEvents);
    for (uint32_t i = 0; i < kEvents; ++i)
    {
        EXPECT_EQ(order[i], i) << "lookahead changed the order";
    }
    ASSERT_EQ(stages, 3u) << "the prefetcher's own stages, whatever the deepest one has";
    // An event that entered the lookahead at its far end and left before the queue ran low:
    // every stage once, in order, all before it ran (the last one with the event before it).
    constexpr uint32_t kEdge = RadixQueue::kMaxDepth + 1;
    for (uint32_t i = kEdge; i + kEdge < kEvents; ++i)
    {
        ASSERT_EQ(seen[i].size(), stages) << "event " << i;
        for (uint32_t st = 0; st < stages; ++st)
        {
            EXPECT_EQ(seen[i][st], st) << "event " << i;
        }
    }
    sched->SetLookahead(false);
}

TEST(ModelScheduler, Ns3MapSchedulerFallbackRunsTheSameModel)
{
    // A small incast with PFC, ECN and DCQCN: the direct lane (FastHeapScheduler, repeatable to
    // the byte) and the Simulator::Schedule fallback (any other scheduler: ns-3's uid order for
    // events at the same picosecond, so not the same bytes) both run it to a balanced end.
    auto run = [](const char* scheduler) {
        if (scheduler)
        {
            setenv("FABRICSIM_SCHEDULER", scheduler, 1);
        }
        else
        {
            unsetenv("FABRICSIM_SCHEDULER");
        }
        Scenario s;
        Star(s, 5, 100, 1);
        s.seed = 3;
        s.durationNs = 300000;
        for (auto& c : s.switchCfg)
        {
            c.bufferBytes = 400000;
            for (auto& e : c.ecn)
            {
                e.kminBytes = 5000;
                e.kmaxBytes = 100000;
                e.pmax = 0.05;
            }
        }
        for (uint32_t h = 1; h <= 4; ++h)
        {
            AddFlow(s, h, 0, h == 4 ? 200000 : 0, h * 1000);
        }
        s.monitor.queues.push_back({5, 0});
        s.monitor.flows = {0, 3};
        FabricRunner r(s);
        r.Run(RunLimits(), nullptr);
        auto res = r.Results();
        res["events"] = r.Events();
        return res.dump();
    };
    std::string fast = run(nullptr);
    EXPECT_EQ(fast, run(nullptr));
    std::string map = run("ns3::MapScheduler");
    unsetenv("FABRICSIM_SCHEDULER");
    EXPECT_NE(fast.find("\"ecn_marked_packets\""), std::string::npos);
    auto f = nlohmann::json::parse(fast);
    auto m = nlohmann::json::parse(map);
    EXPECT_TRUE(m["summary"]["conservation"]["balanced"].get<bool>());
    EXPECT_EQ(m["summary"]["flows_completed"], f["summary"]["flows_completed"]);
    EXPECT_NEAR(m["summary"]["throughput_gbps"].get<double>(),
                f["summary"]["throughput_gbps"].get<double>(),
                0.1 * f["summary"]["throughput_gbps"].get<double>());
}
